/**
 * Wild answers (`newsstats sandbox --wild`, `startSandbox({ wild: true })`): the sandbox's own answers,
 * rewritten to carry everything the contract allows and our data never has, and nothing it forbids.
 * Driven by the one schema (src/schema/contract.ts), field by field:
 * - any field the schema does not make `required` may be null or left out ("Optional or partial
 *   fields can be null"), and fields the contract does not name appear at every level ("Additive
 *   fields are non-breaking");
 * - an extreme value of the field's type and form: text in many scripts and very long, integers
 *   beyond 2^53 and 2^64 (up to 38 digits) wherever an integer is allowed, a rank from 1, real
 *   weeks, valid #RRGGBB colours and URLs, real times from year 1900 to 9999;
 * - required fields (the identifiers later requests are built from) stay as they are, but an
 *   articleHash, which no request is built from, is moved beyond 2^64 (26 digits), still unique.
 * What the contract forbids (a fraction in an integer, an impossible date, rank 0) is never sent: the
 * property tests serve those and expect exit 5 (test/property/contract.property.test.ts).
 *
 * Deterministic: the same seed and request give the same answer.
 */
import type { ResponseShape } from '../api/types.js';
import type { Fields, FieldSpec } from '../schema/spec.js';
import { mixSeed, mulberry32, type Random } from './random.js';

/** How often a field that may be missing is changed, in order: null, left out, an extreme value. */
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
  'x'.repeat(5000),
  'Ναι '.repeat(600),
];

const WILD_TIMESTAMPS: readonly string[] = ['1900-01-01T00:00:00', '1970-01-01T00:00:00', '2038-01-19T03:14:08', '9999-12-31T23:59:59'];

/** Integers beyond 2^53, 2^63 and 2^64 (and negative), which only exact digits keep; at most 38 digits. */
const WILD_INTEGERS: readonly bigint[] = [0n, -1n, 9007199254740993n, 2n ** 63n - 1n, 2n ** 64n + 1n, -(2n ** 62n) - 7n, 10n ** 25n + 1n, 10n ** 37n + 12345n, -(10n ** 37n)];

/** Integers of a field whose least value is given (rank from 1): those of WILD_INTEGERS it allows. */
function integersFrom(minimum: number): readonly bigint[] {
  return [1n, ...WILD_INTEGERS.filter((value) => value >= BigInt(minimum) && value !== 1n)];
}

/** Real weeks at the edges of the calendar: 53-week years, the first week, years far off. */
const WILD_WEEKS: readonly number[] = [202001, 202053, 201553, 199952, 100001, 999952, 204801];

/** Valid absolute URLs a real service sends: escapes, IDN, ports, queries, fragments. */
const WILD_URLS: readonly string[] = [
  'https://example.com/',
  'https://en.wikipedia.org/wiki/Zo%C3%AB_%C3%85ngstr%C3%B6m',
  'https://xn--r8jz45g.jp/%E8%A8%98%E4%BA%8B?id=1&lang=ja#top',
  'http://127.0.0.1:8080/a/b/../c?q=%22quoted%22',
  'https://news.example.org/' + 'x'.repeat(1800),
];

/** Comma-separated personHash values, as articlePeople and people carry them. */
const WILD_HASH_LISTS: readonly string[] = ['', 'p-1', 'p-1,p-2,p-3', 'zoë-ångström,李-2'];

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
    return value.map((item) => wildRecord(item, shape.schema, shape.optional, random));
  }
  return wildRecord(value, shape.schema, shape.optional, random);
}

/** 10^25: added to an articleHash, it takes it to 26 digits and keeps it unique. */
const HASH_SHIFT = 10n ** 25n;

function wildRecord(value: unknown, schema: Fields, optional: Fields | undefined, random: Random): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const record: Record<string, unknown> = {};
  for (const [field, member] of Object.entries(value)) {
    const spec = schema[field] ?? optional?.[field];
    if (spec === undefined) {
      record[field] = member;
      continue;
    }
    if (spec.required) {
      // Ids later requests are built from stay; an articleHash may go beyond 2^64, one to one.
      record[field] = field === 'articleHash' && random() < 0.5 && (typeof member === 'bigint' || typeof member === 'number') ? BigInt(member) + HASH_SHIFT : member;
      continue;
    }
    const roll = random();
    if (roll < NULL_SHARE) record[field] = null;
    else if (roll < NULL_SHARE + ABSENT_SHARE) continue;
    else if (spec.type === 'array' && typeof spec.items === 'object' && Array.isArray(member)) {
      const items = spec.items;
      record[field] = random() < 0.2 ? [] : member.map((row) => wildRecord(row, items, undefined, random));
    } else if (spec.type === 'object' && spec.fields !== undefined && typeof member === 'object' && member !== null) {
      record[field] = wildRecord(member, spec.fields, undefined, random);
    } else if (roll < NULL_SHARE + ABSENT_SHARE + EXTREME_SHARE) record[field] = extremeValue(spec, random);
    else record[field] = member;
  }
  if (random() < UNKNOWN_SHARE) Object.assign(record, unknownFields(random, 0));
  return record;
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

function hexByte(random: Random): string {
  return Math.floor(random() * 256).toString(16).padStart(2, '0').toUpperCase();
}

/** A value of the field's type and form that our dataset never holds. */
function extremeValue(spec: FieldSpec, random: Random): unknown {
  switch (spec.type) {
    case 'string':
      if (spec.format === 'color') return `#${hexByte(random)}${hexByte(random)}${hexByte(random)}`;
      if (spec.format === 'url') return pick(random, WILD_URLS);
      if (spec.format === 'hash-list') return pick(random, WILD_HASH_LISTS);
      return pick(random, WILD_TEXT);
    case 'timestamp':
      return pick(random, WILD_TIMESTAMPS);
    case 'integer':
      if (spec.format === 'week') return pick(random, WILD_WEEKS);
      return pick(random, spec.minimum === undefined ? WILD_INTEGERS : integersFrom(spec.minimum));
    case 'number':
      return pick(random, WILD_NUMBERS);
    case 'boolean':
      return random() < 0.5;
    case 'array':
      if (spec.items === 'string') return random() < 0.5 ? [] : [pick(random, WILD_TEXT), pick(random, WILD_TEXT)];
      if (spec.items !== undefined) return [];
      return random() < 0.5 ? [] : [unknownFields(random, 1), pick(random, WILD_TEXT), null];
    case 'object':
      if (spec.fields !== undefined) return {};
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
