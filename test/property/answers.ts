/**
 * Answers generated from the contract's shapes (ENDPOINT_SHAPES, the table the client checks answers
 * against), and a small loopback server that serves them: whatever a case generated for an endpoint is
 * what every request to that endpoint gets. Not the sandbox: these answers are not ours to choose.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as fc from 'fast-check';
import { ENDPOINT_SHAPES, ENDPOINTS, isIdentifierKind, type Endpoint, type FieldKind, type FieldSchema, type ResponseShape } from '../../src/api/types.js';
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

/** Integers of any size, beyond 2^53 too: a bigint is written with every digit. */
const integer = fc.oneof(fc.integer(), fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }));
const number = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }));

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
};

function valueOf(kind: FieldKind): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string': case 'string!':
      return text;
    case 'timestamp':
      return fc.oneof(timestamp, text);
    case 'integer': case 'integer!': case 'biginteger':
      return integer;
    case 'number':
      return number;
    case 'boolean':
      return fc.boolean();
    case 'string[]':
      return fc.array(fc.option(text, { nil: null }), { maxLength: 3 });
    case 'array':
      return fc.array(unknownValue, { maxLength: 3 });
    case 'object':
      return fc.dictionary(text, unknownValue, { maxKeys: 3 });
  }
}

/** A record the contract allows: identifiers there and usable; any other field null, absent or of its kind; unknown fields. */
function recordOf(schema: FieldSchema, optional: FieldSchema | undefined, nested: Readonly<Record<string, FieldSchema>> | undefined): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const [field, kind] of Object.entries({ ...optional, ...schema })) {
    const identifier = isIdentifierKind(kind) && schema[field] !== undefined;
    if (identifier) {
      required.push(field);
      fields[field] = IDENTIFIERS[field] ?? valueOf(kind);
      continue;
    }
    const nestedSchema = nested?.[field];
    const value = nestedSchema ? fc.array(recordOf(nestedSchema, undefined, undefined), { maxLength: 3 }) : valueOf(kind);
    fields[field] = fc.option(value, { nil: null, freq: 3 });
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
  const record = recordOf(shape.schema, shape.optional, shape.nested);
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
