/**
 * Response parsing in the two number modes (docs/design.md, "Numbers are kept exactly as sent").
 * JSON.parse would round articleHash (> 2^53) and rewrite `1.50` as `1.5`, so lossless-json reads
 * every number from its original text.
 */
import { isInteger, LosslessNumber } from 'lossless-json';
import { parseJsonText } from './json-text.js';
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

function nativeNumber(digits: string, key: string): number | bigint {
  const value = parseNativeNumber(digits);
  return typeof value === 'number' && Number.isInteger(value) && BIG_INTEGER_FIELDS.has(key) ? BigInt(value) : value;
}

const losslessNumber = (digits: string): LosslessNumber => new LosslessNumber(digits);

/** Parses JSON text; throws SyntaxError when it is not JSON. */
export function parseJson(text: string, mode: NumberMode): unknown {
  return parseJsonText(text, mode === 'lossless' ? losslessNumber : nativeNumber);
}
