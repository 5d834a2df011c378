/**
 * Integer text, one grammar for the CLI's flags and the sandbox's query parameters. Pure: each
 * caller reports a refusal its own way (the CLI names the flag and its range, the sandbox answers 400).
 */

const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * Digits with an optional sign, surrounding blanks ignored; undefined for anything else:
 * 1.5, 1e3, 0x10, '' and integers beyond 2^53 (which a number cannot hold exactly).
 */
export function parseIntegerText(text: string): number | undefined {
  const trimmed = text.trim();
  if (!INTEGER_TEXT.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}
