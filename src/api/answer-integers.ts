/**
 * Integer fields of an answer as bigints, for the commands that compute with them (movers' ranks, a
 * trend's mentions, a country's id). The client's check (validate.ts) has refused a fraction in an
 * integer field already; this keeps the same promise for values reached another way, naming the field
 * and the request: exit 5, never "Cannot convert 1.5 to a BigInt" (exit 1).
 */
import { ResponseShapeError } from './errors.js';
import { isIntegerText } from '../shared/exact-json/identifier.js';

/** `value` (a number as sent, or an identifier's digits) as a bigint; a ResponseShapeError naming `field` and `path` when it is no integer. */
export function answerInteger(value: unknown, field: string, path: string): bigint {
  const text = String(value);
  if (!isIntegerText(text)) {
    const shown = text.length > 24 ? `${text.slice(0, 24)}…` : text;
    throw new ResponseShapeError({ status: 200, method: 'GET', url: path }, `field "${field}": expected an integer, got ${shown}`);
  }
  return BigInt(text);
}

/** An identifier the client will send back (a countryId), exact at any size: its digits. */
export function answerId(value: unknown, field: string, path: string): string {
  return answerInteger(value, field, path).toString();
}
