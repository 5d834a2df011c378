/**
 * Wild answers (`newsstats sandbox --wild`, `startSandbox({ wild: true })`): the sandbox's own answers,
 * rewritten to carry what the contract allows and our data never has. The contract says "Optional or
 * partial fields can be null; clients treat null and unknown fields as expected" and "Additive fields
 * are non-breaking": so here any field but an identifier may be null, left out or an extreme value of
 * its type (names in many scripts, very long text, integers beyond 2^53 where the type is integer),
 * nested arrays may be empty, and fields the contract does not name appear at every level.
 *
 * Driven by the endpoint's shape (the same table the client checks answers against), so it never
 * sends what the contract rules out: identifiers and weeks stay as they are. Deterministic: the same
 * seed and request give the same answer.
 */
import type { FieldKind, FieldSchema, ResponseShape } from '../api/types.js';
import { isIdentifierKind } from '../api/types.js';
import { mixSeed, mulberry32, type Random } from './random.js';

/** How often a non-identifier field is changed, in order: null, left out, an extreme value. */
const NULL_SHARE = 0.2;
const ABSENT_SHARE = 0.1;
const EXTREME_SHARE = 0.15;
/** How often a record gains fields the contract does not name. */
const UNKNOWN_SHARE = 0.5;

/** Text real services send and a synthetic dataset of Latin names never does. */
export const WILD_TEXT: readonly string[] = [
  '',
  ' ',
  'Zoë Ångström-Øvergaard',
  'Nguyễn Thị Minh Khai',
  '李小龍',
  '山田 太郎',
  '김민준',
  'Ελευθέριος Βενιζέλος',
  'Владимир Набоков',
  'محمد بن سلمان',
  'דוד בן-גוריון',
  'अनन्या शर्मा',
  'সাকিব চৌধুরী',
  'สมชาย ใจดี',
  'ሀይሌ ገብረሥላሴ',
  'Ꭶ Ꮳ Ꮄ',
  '👩🏽‍🔬 Dr. 🇳🇬',
  'e\u0301 combining, zero\u200bwidth',
  'tab\there, new\nline, back\\slash, "quotes", comma,',
  '=1+1',
  '-42',
  'half a pair \ud800 of surrogates',
  'x'.repeat(5000),
  'Ναι '.repeat(600),
];

const WILD_TIMESTAMPS: readonly string[] = ['1900-01-01T00:00:00', '1970-01-01T00:00:00', '2038-01-19T03:14:08', '9999-12-31T23:59:59'];

/** Integers beyond 2^53 (and its negative), which only exact digits keep. */
const WILD_INTEGERS: readonly bigint[] = [0n, -1n, 9007199254740993n, 2n ** 63n - 1n, -(2n ** 62n) - 7n, 10n ** 25n + 1n];

const WILD_NUMBERS: readonly number[] = [0, -0.5, 1e-7, 123456.789, -98765.4321, 0.1];

/** A seed for one answer: the sandbox's seed and the request's canonical key. */
export function wildSeed(seed: number, requestKey: string): number {
  let hash = 0;
  for (let index = 0; index < requestKey.length; index++) hash = (Math.imul(hash, 31) + requestKey.charCodeAt(index)) >>> 0;
  return mixSeed(seed, hash, 0x77696c64);
}

/** The answer `value` to an endpoint of shape `shape`, made wild. Returns new objects; `value` is left as it was. */
export function wildAnswer(value: unknown, shape: ResponseShape, seed: number): unknown {
  const random = mulberry32(seed);
  if (shape.list && Array.isArray(value)) {
    // Rarely, nothing at all: an empty list is a valid answer to any list endpoint.
    if (random() < 0.03) return [];
    return value.map((item) => wildRecord(item, shape.schema, shape.optional, shape.nested, random));
  }
  return wildRecord(value, shape.schema, shape.optional, shape.nested, random);
}

function wildRecord(
  value: unknown,
  schema: FieldSchema,
  optional: FieldSchema | undefined,
  nested: Readonly<Record<string, FieldSchema>> | undefined,
  random: Random,
): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record: Record<string, unknown> = {};
  for (const [field, member] of Object.entries(value)) {
    const nestedSchema = nested?.[field];
    const kind = schema[field] ?? optional?.[field];
    if (kind !== undefined && isIdentifierKind(kind) && schema[field] !== undefined) {
      record[field] = member;
      continue;
    }
    const roll = random();
    if (roll < NULL_SHARE) record[field] = null;
    else if (roll < NULL_SHARE + ABSENT_SHARE) continue;
    else if (nestedSchema && Array.isArray(member)) {
      record[field] = random() < 0.2 ? [] : member.map((row) => wildRecord(row, nestedSchema, undefined, undefined, random));
    } else if (roll < NULL_SHARE + ABSENT_SHARE + EXTREME_SHARE && kind !== undefined) record[field] = extremeValue(kind, random);
    else record[field] = member;
  }
  if (random() < UNKNOWN_SHARE) Object.assign(record, unknownFields(random, 0));
  return record;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A value of the field's kind that our dataset never holds. */
function extremeValue(kind: FieldKind, random: Random): unknown {
  switch (kind) {
    case 'string': case 'string!':
      return pick(random, WILD_TEXT);
    case 'timestamp':
      return pick(random, WILD_TIMESTAMPS);
    case 'integer': case 'integer!': case 'biginteger':
      return pick(random, WILD_INTEGERS);
    case 'number':
      return pick(random, WILD_NUMBERS);
    case 'boolean':
      return random() < 0.5;
    case 'string[]':
      return random() < 0.5 ? [] : [pick(random, WILD_TEXT), null, pick(random, WILD_TEXT)];
    case 'array':
      return random() < 0.5 ? [] : [unknownFields(random, 1), pick(random, WILD_TEXT), null];
    case 'object':
      return random() < 0.3 ? {} : unknownFields(random, 1);
  }
}

/** Fields the contract does not name, nested up to two levels: what an additive change looks like. */
function unknownFields(random: Random, depth: number): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 3);
  for (let index = 0; index < count; index++) {
    const name = pick(random, ['addedLater', 'x-trace', 'score_v2', 'métadonnée', 'tags', 'nested', 'id']) + (index === 0 ? '' : String(index));
    const roll = random();
    fields[name] =
      roll < 0.2 ? null :
      roll < 0.4 ? pick(random, WILD_TEXT) :
      roll < 0.55 ? pick(random, WILD_INTEGERS) :
      roll < 0.7 ? pick(random, WILD_NUMBERS) :
      roll < 0.8 ? random() < 0.5 :
      roll < 0.9 || depth >= 2 ? [pick(random, WILD_TEXT), pick(random, WILD_INTEGERS)] :
      unknownFields(random, depth + 1);
  }
  return fields;
}
