/**
 * Identifier integers (articleHash, countryId, sourceId...): in the library's native number mode a
 * string of their digits, exact at any size and safe for JSON.stringify, never rounded. Compare, print,
 * put in a path or a Map key as it is; `BigInt(id)` for arithmetic.
 */

/** What a method takes for an identifier: a number (up to 2^53), a bigint, or a string of digits. */
export type IdentifierInput = number | bigint | string;

const INTEGER_TEXT = /^-?\d+$/;

/** True when a number's text is an integer written as digits: what an integer field of the contract holds. */
export function isIntegerText(text: string): boolean {
  return INTEGER_TEXT.test(text);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The integer a JSON number's text writes, as plain digits (`3.0` → `3`, `1e3` → `1000`, `-0` → `0`);
 * undefined for a fraction (`3.5`) or text that is not a number. For writers of a typed column, which
 * take any integer value; the client's check wants digits (isIntegerText). The exponent is at most a few hundred
 * (the parser's bounds), so the digits stay short.
 */
export function integerDigits(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponentText] = match;
  const exponent = Number(exponentText ?? 0) - fraction.length;
  let digits = whole + fraction;
  if (exponent >= 0) digits += '0'.repeat(exponent);
  else {
    const cut = digits.length + exponent;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (!/^0*$/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  }
  digits = digits.replace(/^0+(?=\d)/, '');
  return digits === '0' ? '0' : sign + digits;
}
