/**
 * Answers read as the contract types them: the exact-number JSON parser (shared/exact-json) told which
 * fields the contract calls `biginteger`. The library's `parse` is this function.
 */
import { parseJson as parseExactJson, type NumberMode } from '../shared/exact-json/parse.js';
import { articleBaseSchema, personLinkBaseSchema, type FieldSchema } from './types.js';

export type { LosslessOf, NumberMode, Parsed } from '../shared/exact-json/parse.js';

/**
 * Fields the contract types as `biginteger`. They are bigint in native mode even when small, so a
 * field has one type (what types.ts says) instead of number-or-bigint depending on its value.
 */
const BIG_INTEGER_FIELDS: ReadonlySet<string> = new Set(
  [articleBaseSchema, personLinkBaseSchema].flatMap((schema: FieldSchema) =>
    Object.entries(schema).filter(([, kind]) => kind === 'biginteger').map(([field]) => field)),
);

/**
 * Reads JSON text as the client reads answers: in `native` mode integers beyond 2^53 (and every
 * articleHash) become bigints; in `lossless` mode every number is a LosslessNumber. So
 * `parse(stringify(result), mode)` gives back what the client returned. Throws SyntaxError (saying
 * where) when the text is not JSON.
 */
export function parseJson(text: string, numbers: NumberMode = 'native'): unknown {
  return parseExactJson(text, numbers, BIG_INTEGER_FIELDS);
}
