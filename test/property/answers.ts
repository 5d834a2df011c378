/**
 * Answers generated from the contract's shapes (ENDPOINT_SHAPES, the table the client checks answers
 * against), and a small loopback server that serves them: whatever a case generated for an endpoint is
 * what every request to that endpoint gets. Not the sandbox: these answers are not ours to choose.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { ENDPOINT_SHAPES, ENDPOINTS, type Endpoint, type FieldSchema, type FieldSpec, type ResponseShape } from '../../src/api/types.js';
import { endpointFor } from '../../src/api/validate.js';
import { stringifyJson } from '../../src/sandbox/http/json.js';

export type Answers = Partial<Record<Endpoint, unknown>>;

/** Text of any kind: every script, emoji, control characters, lone surrogates, formula-like starts. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  // Any code point, lone surrogates included: what `unit: 'binary'` gives, without the 1.1-million-entry
  // reverse table fast-check builds for that unit (1.7 s of CPU each time this file is loaded).
  fc.array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength: 12 }).map((codePoints) => String.fromCodePoint(...codePoints)),
  fc.constantFrom('', '=1+1', '-3', 'a\tb\nc\r"d",e\\f', 'x'.repeat(600)),
);

const timestamp = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 19));

/** Integers of any size the contract allows, beyond 2^53 and 2^64 too, up to 38 digits (what Parquet's DECIMAL(38,0) holds). */
const integer = fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }));
const positiveInteger = fc.oneof(fc.integer({ min: 1 }), fc.bigInt({ min: 1n, max: 10n ** 38n - 1n }));
const number = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }));
/** Real weeks, 53-week years included. */
const week = fc.constantFrom(202001, 202053, 201553, 202647, 199952, 100001, 999952);
const color = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }))
  .map((bytes) => `#${bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('')}`);
const url = fc.webUrl({ withQueryParameters: true, withFragments: true });

/** Any JSON value a service could add later (unknown fields), bigints included. */
const unknownValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    text,
    integer,
    number,
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Identifiers: usable values, fixed per kind, so every path a command builds addresses something. */
const IDENTIFIERS: Readonly<Record<string, fc.Arbitrary<unknown>>> = {
  personHash: fc.constantFrom('p-1', 'Zoë-ünï', '李-2', 'a b/c?d'),
  countryId: fc.integer({ min: 1, max: 60 }),
  sourceId: fc.integer({ min: 1, max: 200 }),
  slug: fc.constantFrom('post-1', 'weekly-roundup'),
  articleHash: fc.bigInt({ min: 0n, max: 10n ** 26n }),
};

/** A value of `spec` the contract allows: of its type and form. */
function valueOf(spec: FieldSpec): fc.Arbitrary<unknown> {
  switch (spec.type) {
    case 'string':
      if (spec.format === 'color') return color;
      if (spec.format === 'url') return url;
      return text;
    case 'timestamp':
      return timestamp;
    case 'integer':
      if (spec.format === 'week') return week;
      return spec.minimum === 1 ? positiveInteger : integer;
    case 'number':
      return number;
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (spec.items === 'string') return fc.array(text, { maxLength: 3 });
      if (spec.items !== undefined) return fc.array(recordOf(spec.items, undefined), { maxLength: 3 });
      return fc.array(unknownValue, { maxLength: 3 });
    case 'object':
      if (spec.fields !== undefined) return recordOf(spec.fields, undefined);
      return fc.dictionary(text, unknownValue, { maxKeys: 3 });
  }
}

/** A record the contract allows: required fields there and usable; any other field null, absent or of its type; unknown fields. */
function recordOf(schema: FieldSchema, optional: FieldSchema | undefined): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [field, spec] of Object.entries({ ...optional, ...schema })) {
    if (spec.required && schema[field] !== undefined) {
      required.push(field);
      fields[field] = IDENTIFIERS[field] ?? valueOf(spec);
      continue;
    }
    fields[field] = fc.option(valueOf(spec), { nil: null, freq: 3 });
  }
  return fc
    .tuple(fc.record(fields, { requiredKeys: required }), fc.dictionary(fc.constantFrom('addedLater', 'x-new', 'ñew', 'nested'), unknownValue, { maxKeys: 2 }))
    .map(([record, unknown]) => ({ ...unknown, ...record }));
}

/** Week info is a real window: every relative --weeks is resolved against it. */
const weekInfo = fc.constant({ currentWeek: 202647, last4StartWeek: 202644 });

export function answerOf(endpoint: Endpoint): fc.Arbitrary<unknown> {
  if (endpoint === '/api/data/weeks/current') return weekInfo;
  const shape: ResponseShape = ENDPOINT_SHAPES[endpoint];
  const record = recordOf(shape.schema, shape.optional);
  return shape.list ? fc.array(record, { maxLength: 5 }) : record;
}

/** An answer for every endpoint of the contract. */
export const allowedAnswers: fc.Arbitrary<Answers> = fc.record(
  Object.fromEntries(ENDPOINTS.map((endpoint) => [endpoint, answerOf(endpoint)])) as Record<Endpoint, fc.Arbitrary<unknown>>,
);

/** Serves `current.answers` on loopback: each endpoint's generated answer, 404 for anything else. */
export async function answerServer(): Promise<{ url: string; key: string; current: { answers: Answers }; close(): Promise<void> }> {
  const current: { answers: Answers } = { answers: {} };
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const endpoint = endpointFor(path);
    const answer = endpoint === undefined ? undefined : current.answers[endpoint];
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"not found","status":404}');
      return;
    }
    const body = Buffer.from(stringifyJson(answer), 'utf8');
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key: 'property',
    current,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
