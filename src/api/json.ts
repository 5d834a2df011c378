/**
 * Response parsing in the two number modes (docs/design.md, "Numbers are kept exactly as sent").
 * JSON.parse would round articleHash (> 2^53) and rewrite `1.50` as `1.5`, so lossless-json reads
 * every number from its original text, unless a scan shows that no number in the text would change:
 * then JSON.parse does the work, about five times faster (19 ms against 4 for a 72 KB ranking).
 */
import { isInteger, LosslessNumber, parse } from 'lossless-json';
import { articleBaseSchema, personLinkBaseSchema, type FieldSchema } from './types.js';

/**
 * `native`: numbers, and bigints for integers beyond 2^53 (and always for `biginteger` fields).
 * `lossless`: every number a LosslessNumber holding the digits as sent.
 */
export type NumberMode = 'native' | 'lossless';

/** A resource type as returned in lossless mode: every number (or bigint) becomes a LosslessNumber. */
export type LosslessOf<T> =
  T extends number | bigint ? LosslessNumber :
  T extends readonly (infer E)[] ? LosslessOf<E>[] :
  T extends object ? { [K in keyof T]: LosslessOf<T[K]> } :
  T;

export type Parsed<M extends NumberMode, T> = M extends 'lossless' ? LosslessOf<T> : T;

/**
 * Fields the contract types as `biginteger`. They are bigint in native mode even when small, so a
 * field has one type (what types.ts says) instead of number-or-bigint depending on its value.
 */
const BIG_INTEGER_FIELDS: ReadonlySet<string> = new Set(
  [articleBaseSchema, personLinkBaseSchema].flatMap((schema: FieldSchema) =>
    Object.entries(schema).filter(([, kind]) => kind === 'biginteger').map(([field]) => field)),
);

function parseNativeNumber(text: string): number | bigint {
  if (isInteger(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return Number.parseFloat(text);
}

function reviveBigIntegerFields(key: string, value: unknown): unknown {
  return typeof value === 'number' && Number.isInteger(value) && BIG_INTEGER_FIELDS.has(key) ? BigInt(value) : value;
}

/** True when a number's text is what JavaScript prints for its value: JSON.parse then loses nothing. */
export function printsAsWritten(numberText: string): boolean {
  return String(Number(numberText)) === numberText;
}

// Strings are matched first so that digits inside them ("2026-11-22T00:00:00") are skipped.
const STRING_OR_NUMBER = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d[\d.eE+-]*/g;

/**
 * True when JSON.parse reads `text` exactly: every number prints back as written (so no digits beyond
 * 2^53, no `1.50`, no exponent), and no `__proto__` key, which the walk below must not assign.
 */
function jsonParseIsExact(text: string): boolean {
  let exact = true;
  // replace() with a callback is the fastest way to visit every match (no match objects kept).
  text.replace(STRING_OR_NUMBER, (token) => {
    if (exact && (token.charCodeAt(0) === 0x22 ? token === '"__proto__"' : !printsAsWritten(token))) exact = false;
    return '';
  });
  return exact;
}

/** Every number in a JSON.parse result as the LosslessNumber lossless-json would have made. */
function withLosslessNumbers(value: unknown): unknown {
  if (typeof value === 'number') return new LosslessNumber(String(value));
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = withLosslessNumbers(value[index]);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = withLosslessNumbers(record[key]);
  }
  return value;
}

function parseWithJsonParse(text: string, mode: NumberMode): unknown {
  return mode === 'lossless' ? withLosslessNumbers(JSON.parse(text)) : JSON.parse(text, reviveBigIntegerFields);
}

/**
 * Parses JSON text; throws SyntaxError when it is not JSON (with lossless-json's message, which says
 * where). One difference on the fast path: a repeated key keeps its last value, as JSON.parse does,
 * where lossless-json refuses two different values.
 */
export function parseJson(text: string, mode: NumberMode): unknown {
  if (jsonParseIsExact(text)) {
    try {
      return parseWithJsonParse(text, mode);
    } catch {
      // Not JSON: lossless-json below throws the SyntaxError with the position.
    }
  }
  return mode === 'lossless' ? parse(text) : parse(text, reviveBigIntegerFields, parseNativeNumber);
}
