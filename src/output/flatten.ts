/**
 * One value of a record as the text of one cell (CSV, TSV, table, chart labels). Pure.
 *
 * Numbers print exactly as sent: a LosslessNumber's own digits, a bigint's digits. Only strings can
 * carry a spreadsheet formula, so only strings are guarded (see csvCellText).
 */
import { isLosslessNumber, stringify, type LosslessNumber } from 'lossless-json';

export type NumericValue = number | bigint | LosslessNumber;

export function isNumericValue(value: unknown): value is NumericValue {
  return typeof value === 'number' || typeof value === 'bigint' || isLosslessNumber(value);
}

/** Compact JSON that keeps LosslessNumber and bigint digits. */
export function compactJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

/** Cell text with no quoting or guarding: what a table shows. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (isNumericValue(value)) return value.toString();
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(';');
  return compactJson(value);
}

/**
 * Leading characters a spreadsheet reads as the start of a formula (OWASP "CSV Injection"): `=`,
 * `+`, `-`, `@`, tab, CR or LF, also after blanks a spreadsheet trims (` =cmd`, `\n=cmd`).
 */
const FORMULA_START = /^(?:[=+\-@\t\r\n]|\s+[=+\-@])/;
/**
 * The same start after a `;`: a spreadsheet whose list separator is `;` (most of Europe) splits
 * `Anna;=cmd|' /C calc'!A0` into two cells, the second a formula.
 */
const FORMULA_AFTER_SEMICOLON = /;(?=\s*[=+\-@])/g;

/** A string cell that a spreadsheet would run as a formula, neutralised with a `'` before each start. */
export function guardFormula(text: string): string {
  const guarded = text.includes(';') ? text.replace(FORMULA_AFTER_SEMICOLON, ";'") : text;
  return FORMULA_START.test(guarded) ? `'${guarded}` : guarded;
}

/**
 * Cell text for CSV and TSV: cellText, with the formula guard on text that came from strings
 * (a string, or strings joined with `;`). Numbers are never guarded, so `-0.25` stays a number.
 */
export function csvCellText(value: unknown): string {
  const text = cellText(value);
  return typeof value === 'string' || Array.isArray(value) ? guardFormula(text) : text;
}

/**
 * A value as a JavaScript number, for computing only (bar lengths, sparklines); NaN when it is
 * not a number. What is printed stays the original text.
 */
export function numericValue(value: unknown): number {
  if (isNumericValue(value)) return Number(value.toString());
  return Number.NaN;
}
