/**
 * A delivered value always has its declared type (#30 item 2): for every typed method of the library,
 * over answers generated from the one schema (integers beyond 2^53 and 2^64 included), in native and
 * lossless number modes, every field the schema names has the runtime type its TypeScript type says:
 * identifiers strings of digits (native) or LosslessNumbers, other numbers `number` (never a bigint),
 * timestamps and text strings, lists arrays; null or absent only where the schema allows it.
 */
import * as fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../src/index.js';
import { ENDPOINT_SPECS, type Endpoint } from '../../src/schema/contract.js';
import type { Fields, FieldSpec } from '../../src/schema/spec.js';
import { allowedAnswers, answerServer } from './answers.js';

let server: Awaited<ReturnType<typeof answerServer>>;
beforeAll(async () => {
  server = await answerServer();
});
afterAll(() => server.close());

type Client = NewsStatsClient<'native'> | NewsStatsClient<'lossless'>;

/** Every typed method, by the endpoint it reads. */
const METHODS: ReadonlyArray<[Endpoint, (client: Client) => Promise<unknown>]> = [
  ['/api/data/weeks/current', (client) => client.weeks.current()],
  ['/api/data/people', (client) => client.people.list()],
  ['/api/data/people/{personHash}', (client) => client.people.get('p-1')],
  ['/api/data/people/search', (client) => client.people.search({ q: 'a' })],
  ['/api/data/people/top', (client) => client.people.top()],
  ['/api/data/people/{personHash}/links', (client) => client.people.links('p-1')],
  ['/api/data/people/{personHash}/country-stats', (client) => client.people.countryStats('p-1')],
  ['/api/data/countries', (client) => client.countries.list()],
  ['/api/data/countries/{countryId}', (client) => client.countries.get('123456789012345678901234567890')],
  ['/api/data/countries/slug/{slug}', (client) => client.countries.getBySlug('de')],
  ['/api/data/countries/{countryId}/international-attention', (client) => client.countries.attention(2n ** 70n)],
  ['/api/data/countries/{countryId}/domestic-focus', (client) => client.countries.focus(7)],
  ['/api/data/sources', (client) => client.sources.list()],
  ['/api/data/sources/{sourceId}', (client) => client.sources.get(1)],
  ['/api/data/sources/{sourceId}/links', (client) => client.sources.links(1)],
  ['/api/data/posts/recent', (client) => client.posts.recent()],
  ['/api/data/posts/{slug}', (client) => client.posts.get('post-1')],
  ['/api/data/articles/recent', (client) => client.articles.recent()],
  ['/api/data/articles/stats', (client) => client.articles.stats({ days: 7 })],
  ['/api/data/articles/stats/all-time', (client) => client.articles.statsAllTime()],
];

/** Why `value` does not have the runtime type `spec` declares in `mode`, or undefined. */
function wrongType(value: unknown, spec: FieldSpec, mode: 'native' | 'lossless'): string | undefined {
  if (value === null || value === undefined) return spec.required ? 'missing or null but required' : undefined;
  switch (spec.type) {
    case 'string':
    case 'timestamp':
      return typeof value === 'string' ? undefined : `${typeof value}, not a string`;
    case 'integer':
      if (mode === 'lossless') return isLosslessNumber(value) ? undefined : `${typeof value}, not a LosslessNumber`;
      if (spec.identifier) return typeof value === 'string' && /^-?\d+$/.test(value) ? undefined : `${typeof value}, not a string of digits`;
      return typeof value === 'number' ? undefined : `${typeof value}, not a number`;
    case 'number':
      if (mode === 'lossless') return isLosslessNumber(value) ? undefined : `${typeof value}, not a LosslessNumber`;
      return typeof value === 'number' ? undefined : `${typeof value}, not a number`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${typeof value}, not a boolean`;
    case 'array':
      if (!Array.isArray(value)) return 'not an array';
      if (typeof spec.items === 'object') {
        for (const item of value) {
          const problem = recordProblem(item, spec.items, mode);
          if (problem) return problem;
        }
      }
      return undefined;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) return 'not an object';
      return spec.fields === undefined ? undefined : recordProblem(value, spec.fields, mode);
  }
}

function recordProblem(record: unknown, fields: Fields, mode: 'native' | 'lossless'): string | undefined {
  for (const [name, spec] of Object.entries(fields)) {
    const problem = wrongType((record as Record<string, unknown>)[name], spec, mode);
    if (problem) return `${name}: ${problem}`;
  }
  return undefined;
}

/** No bigint anywhere in a native result: JSON.stringify works on it. */
function hasBigint(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (Array.isArray(value)) return value.some(hasBigint);
  if (typeof value === 'object' && value !== null && !isLosslessNumber(value)) return Object.values(value).some(hasBigint);
  return false;
}

describe('every delivered field has its declared runtime type', () => {
  for (const mode of ['native', 'lossless'] as const) {
    it(`${mode} mode, every method`, async () => {
      const client: Client = new NewsStatsClient({ baseUrl: server.url, apiKey: server.key, numbers: mode, maxRetries: 0 });
      await fc.assert(fc.asyncProperty(allowedAnswers, async (answers) => {
        server.current.answers = answers;
        for (const [endpoint, call] of METHODS) {
          const spec = ENDPOINT_SPECS[endpoint];
          const result = await call(client);
          const records = spec.list ? (result as unknown[]) : [result];
          for (const record of records) {
            expect(recordProblem(record, { ...spec.schema, ...('optional' in spec ? spec.optional : {}) }, mode), `${mode} ${endpoint}`).toBeUndefined();
            if (mode === 'native') {
              expect(hasBigint(record), `${endpoint}: a bigint in a native result`).toBe(false);
              expect(() => JSON.stringify(record)).not.toThrow();
            }
          }
        }
      }), { numRuns: 15, seed: 30 });
      await client.close();
    });
  }
});
