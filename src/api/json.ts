/**
 * Answers read as the schema types them: the exact-number JSON parser (shared/exact-json) told which
 * fields are identifier integers, kept as strings of their digits in native mode. The library's
 * `parse` is this function.
 */
import { parseJson as parseExactJson, type LosslessOf as LosslessOfFields, type NumberMode, type Parsed as ParsedFields } from '../shared/exact-json/parse.js';
import type { IdentifierName } from '../schema/contract.js';
import { IDENTIFIER_INTEGERS } from '../schema/knowledge.js';

export type { NumberMode } from '../shared/exact-json/parse.js';

/** A result type as lossless mode returns it: every number, identifiers' digits too, a LosslessNumber. */
export type LosslessOf<T> = LosslessOfFields<T, IdentifierName>;

/** A result type in number mode `M`: as written for `native`, LosslessOf it for `lossless`. */
export type Parsed<M extends NumberMode, T> = ParsedFields<M, T, IdentifierName>;

/**
 * Reads JSON text as the client reads answers: in `native` mode identifier integers (articleHash,
 * countryId, sourceId, fromCountryId, postId) become strings of their digits, exact at any size, and
 * every other number a number (the nearest double beyond 2^53), never a bigint; in `lossless` mode
 * every number is a LosslessNumber. So `parse(stringify(result), mode)` gives back what the client
 * returned. Throws SyntaxError (saying where) when the text is not JSON.
 */
export function parseJson(text: string, numbers: NumberMode = 'native'): unknown {
  return parseExactJson(text, numbers, IDENTIFIER_INTEGERS);
}

/**
 * parseJson as the request core reads an answer: NestingDepthError (shared/exact-json/depth.ts) for
 * arrays and objects nested deeper than `maxDepth`, before anything recursive reads them.
 */
export function parseAnswerJson(text: string, numbers: NumberMode, maxDepth: number): unknown {
  return parseExactJson(text, numbers, IDENTIFIER_INTEGERS, maxDepth);
}
