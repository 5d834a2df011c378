/**
 * Values written back as JSON with every digit the service sent. JSON.stringify throws on a bigint
 * (articleHash in native mode) and writes a LosslessNumber as `{"value":…,"isLosslessNumber":true}`;
 * `stringify` writes both as the plain numbers they are (api/json.ts's `parseJson` reads them back).
 * The library's `stringify` and the CLI's JSON and NDJSON output.
 */
import { isLosslessNumber, LosslessNumber, stringify as losslessStringify } from 'lossless-json';
import { MARK, printsAsWritten } from './parse.js';

const NOT_NATIVE = Symbol('a value JSON.stringify cannot be made to print exactly');
// JSON.stringify writes the MARK character as this escape; a marked number is a string holding it.
const MARKED_NUMBER_START = '"\\u0000';

/**
 * The text with each marked number's quotes and MARK taken off. Each `"\u0000` in it opens a marked
 * number: no string or key of the value holds MARK (nativeJsonText refuses it), and one holding the
 * six characters `\u0000` is written `\\u0000`. indexOf and slices, not a regular expression's
 * replace: no pattern run and no copy of the text (a sync's links store: a line each link).
 */
function withMarkedNumbersUnquoted(text: string): string {
  let unquoted = '';
  let copied = 0;
  for (let start = text.indexOf(MARKED_NUMBER_START); start !== -1; start = text.indexOf(MARKED_NUMBER_START, copied)) {
    const end = text.indexOf('"', start + MARKED_NUMBER_START.length);
    unquoted += text.slice(copied, start) + text.slice(start + MARKED_NUMBER_START.length, end);
    copied = end + 1;
  }
  return unquoted + text.slice(copied);
}

/**
 * The text JSON.stringify writes, made byte for byte lossless-json's and several times faster: a
 * LosslessNumber that prints as written becomes that number; any other (or a bigint) becomes a
 * string of its digits behind MARK, unquoted afterwards. Undefined when a string or key of the value
 * itself holds MARK, which could be unquoted too.
 */
function nativeJsonText(value: unknown, indent: string | number | undefined): string | undefined {
  let marked = false;
  const exactNumbers = (key: string, item: unknown): unknown => {
    if (key.includes(MARK)) throw NOT_NATIVE;
    if (isLosslessNumber(item)) {
      if (printsAsWritten(item.value)) return Number(item.value);
      marked = true;
      return MARK + item.value;
    }
    if (typeof item === 'bigint') {
      marked = true;
      return MARK + item.toString();
    }
    if (typeof item === 'string' && item.includes(MARK)) throw NOT_NATIVE;
    return item;
  };
  try {
    const text = JSON.stringify(value, exactNumbers, indent);
    return marked ? withMarkedNumbersUnquoted(text) : text;
  } catch (error) {
    if (error === NOT_NATIVE) return undefined;
    throw error;
  }
}

/** Nesting deeper than this is left to the replacer's way, where JSON.stringify names a cycle. */
const PLAIN_MAX_DEPTH = 100;

/**
 * How many LosslessNumbers `value` holds, when it is plain data: strings, numbers, booleans, null,
 * LosslessNumbers, and arrays and objects of the Object prototype (or none) holding them. -1 for
 * anything JSON.stringify would not write as stringify must: a bigint, a toJSON method (a Date), an
 * instance of some other class, nesting deeper than PLAIN_MAX_DEPTH, or an object with a key
 * `isLosslessNumber` (which could be taken for a LosslessNumber in the text).
 */
function losslessNumbersIn(value: unknown, depth: number): number {
  if (typeof value === 'bigint') return -1;
  if (typeof value !== 'object' || value === null) return 0;
  if (depth >= PLAIN_MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === 'function') return -1;
  if (value instanceof LosslessNumber) return 1;
  let count = 0;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const inside = losslessNumbersIn(value[index], depth + 1);
      if (inside < 0) return -1;
      count += inside;
    }
    return count;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return -1;
  const record = value as Record<string, unknown>;
  // for...in: no array of each object's keys. Inherited keys too, which can only make this refuse
  // or count a LosslessNumber JSON.stringify leaves out, and so send the value the replacer's way.
  for (const key in record) {
    if (key === 'isLosslessNumber') return -1;
    const item = record[key];
    if (typeof item === 'object' || typeof item === 'bigint') {
      const inside = losslessNumbersIn(item, depth + 1);
      if (inside < 0) return -1;
      count += inside;
    }
  }
  return count;
}

/** How JSON.stringify writes a LosslessNumber: its two fields, the digits in between. */
const LOSSLESS_NUMBER_OPEN = '{"value":"';
const LOSSLESS_NUMBER_CLOSE = '","isLosslessNumber":true}';

/**
 * Compact JSON text of plain data (losslessNumbersIn), each LosslessNumber its digits: JSON.stringify
 * without a replacer, each LosslessNumber's object in its text then replaced by the digits it holds.
 * Such data holds no other object of those two keys, and no string holds the unescaped quotes of
 * LOSSLESS_NUMBER_OPEN, so each object found so is a LosslessNumber; when as many are found as the
 * data holds, every one was. Undefined for anything else, left to nativeJsonText: with a replacer,
 * JSON.stringify calls out for every key and value, which made a sync's links rows (a merge store
 * line each) cost twice as long.
 */
function plainJsonText(value: unknown): string | undefined {
  const expected = losslessNumbersIn(value, 0);
  if (expected < 0) return undefined;
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined || expected === 0) return text;
  let replaced = '';
  let copied = 0;
  let found = 0;
  for (let open = text.indexOf(LOSSLESS_NUMBER_OPEN); open !== -1; ) {
    const digitsStart = open + LOSSLESS_NUMBER_OPEN.length;
    const digitsEnd = text.indexOf('"', digitsStart);
    if (digitsEnd !== -1 && text.startsWith(LOSSLESS_NUMBER_CLOSE, digitsEnd)) {
      replaced += text.slice(copied, open) + text.slice(digitsStart, digitsEnd);
      copied = digitsEnd + LOSSLESS_NUMBER_CLOSE.length;
      found += 1;
    }
    open = text.indexOf(LOSSLESS_NUMBER_OPEN, Math.max(copied, digitsStart));
  }
  return found === expected ? replaced + text.slice(copied) : undefined;
}

/**
 * JSON text of any result of the client, in either number mode, with bigints and LosslessNumbers
 * written as the exact digits sent (`space` indents as JSON.stringify's does). What has no JSON form
 * (undefined, a function) prints as null.
 */
export function stringify(value: unknown, space?: string | number): string {
  if (space === undefined) {
    const text = plainJsonText(value);
    if (text !== undefined) return text;
  }
  return nativeJsonText(value, space) ?? losslessStringify(value, null, space) ?? 'null';
}
