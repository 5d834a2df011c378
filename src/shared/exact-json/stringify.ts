/**
 * Values written back as JSON with every digit the service sent. JSON.stringify throws on a bigint
 * (articleHash in native mode) and writes a LosslessNumber as `{"value":…,"isLosslessNumber":true}`;
 * `stringify` writes both as the plain numbers they are (api/json.ts's `parseJson` reads them back).
 * The library's `stringify` and the CLI's JSON and NDJSON output.
 */
import { isLosslessNumber, stringify as losslessStringify } from 'lossless-json';
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

/**
 * JSON text of any result of the client, in either number mode, with bigints and LosslessNumbers
 * written as the exact digits sent (`space` indents as JSON.stringify's does). What has no JSON form
 * (undefined, a function) prints as null.
 */
export function stringify(value: unknown, space?: string | number): string {
  return nativeJsonText(value, space) ?? losslessStringify(value, null, space) ?? 'null';
}
