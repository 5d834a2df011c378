/**
 * Integer fields of an answer as bigints, for the commands that compute with them (movers' ranks, a
 * trend's mentions, a country's id). The shape check lets any number within 2^53 through, as sent;
 * `1.5` or `1e3` where the contract says integer is the service's fault: exit 5 naming the field and
 * the request, never "Cannot convert 1.5 to a BigInt" (exit 1) or an error blaming the user's input.
 */
import { ResponseShapeError } from './errors.js';

const INTEGER_TEXT = /^-?\d+$/;

/** `value` (a number as sent) as a bigint; a ResponseShapeError naming `field` and `path` when it is no integer. */
export function answerInteger(value: unknown, field: string, path: string): bigint {
  const text = String(value);
  if (!INTEGER_TEXT.test(text)) {
    const shown = text.length > 24 ? `${text.slice(0, 24)}…` : text;
    throw new ResponseShapeError({ status: 200, method: 'GET', url: path }, `field "${field}": expected an integer, got ${shown}`);
  }
  return BigInt(text);
}

/** An id field the client will send back (a countryId): an integer within 2^53, as a number. */
export function answerId(value: unknown, field: string, path: string): number {
  const integer = answerInteger(value, field, path);
  if (integer > BigInt(Number.MAX_SAFE_INTEGER) || integer < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ResponseShapeError({ status: 200, method: 'GET', url: path }, `field "${field}": ${integer} is beyond 2^53`);
  }
  return Number(integer);
}
