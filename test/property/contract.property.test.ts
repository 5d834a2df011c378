/**
 * Property tests from the contract: answers generated from its shapes (answers.ts), served on
 * loopback, read by every command in every format.
 *
 * - Allowed answers (null, absent and unknown fields, any text, integers of any size): exit 0, the
 *   output parses back, holds no forbidden text, and JSON keeps every digit and value as sent.
 * - Forbidden answers (a top level of the wrong type, a number where a string identifier belongs, an
 *   object where an array belongs): exit 5 naming what is wrong.
 *
 * Bounded in `npm test` (fixed seed). NEWSSTATS_PROPERTY_RUNS=5000 runs that many cases of each
 * property; NEWSSTATS_PROPERTY_SEED picks another seed. A failure prints the seed and the shrunk case.
 */
import * as fc from 'fast-check';
import { isLosslessNumber, parse as parseLossless } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Endpoint } from '../../src/api/types.js';
import { stringifyJson } from '../../src/sandbox/http/json.js';
import { allowedAnswers, answerServer, type Answers } from './answers.js';
import { commandLines, FORMATS, outputProblems, runIn } from './commands.js';

const RUNS = Number(process.env.NEWSSTATS_PROPERTY_RUNS ?? 0) || undefined;
const SEED = Number(process.env.NEWSSTATS_PROPERTY_SEED ?? 20261125);
/** Vitest's limit for one property: generous, since a property is many runs (a timed-out one would keep running and change the answers under the next). */
const TIMEOUT_MS = 600_000 + (RUNS ?? 0) * 2_000;

const COMMANDS = commandLines({ personHash: 'p-1', otherPersonHash: 'Zoë-ünï', countryId: 7, sourceId: 9, slug: 'post-1' });
const NAMES = Object.keys(COMMANDS);

/** The endpoint each command is about: the one a forbidden answer is put on. */
const PRIMARY: Readonly<Record<string, Endpoint>> = {
  'weeks': '/api/data/weeks/current',
  'people list': '/api/data/people',
  'people get': '/api/data/people/{personHash}',
  'people search': '/api/data/people/search',
  'people top': '/api/data/people/top',
  'people top --per-week': '/api/data/people/top',
  'people movers': '/api/data/people/top',
  'people trend': '/api/data/people/{personHash}/country-stats',
  'people links': '/api/data/people/{personHash}/links',
  'people countries': '/api/data/people/{personHash}/country-stats',
  'countries list': '/api/data/countries',
  'countries get': '/api/data/countries/{countryId}',
  'countries attention': '/api/data/countries/{countryId}/international-attention',
  'countries focus': '/api/data/countries/{countryId}/domestic-focus',
  'sources list': '/api/data/sources',
  'sources get': '/api/data/sources/{sourceId}',
  'sources links': '/api/data/sources/{sourceId}/links',
  'posts recent': '/api/data/posts/recent',
  'posts get': '/api/data/posts/{slug}',
  'articles recent': '/api/data/articles/recent',
  'articles stats': '/api/data/articles/stats',
  'articles stats --all-time': '/api/data/articles/stats/all-time',
  'export country-stats': '/api/data/people/top',
  'export links': '/api/data/people/top',
};

/** Commands whose JSON is the API's answer itself: it must come back value for value, digit for digit. */
const PRINTS_ANSWER: ReadonlySet<string> = new Set(['people list', 'people search', 'people links', 'countries list', 'sources list', 'posts recent', 'articles recent']);

/** Cases run, by command, for the record (printed after the file). */
const counts = new Map<string, { allowed: number; forbidden: number }>();
const count = (name: string, kind: 'allowed' | 'forbidden') => {
  const entry = counts.get(name) ?? { allowed: 0, forbidden: 0 };
  entry[kind] += 1;
  counts.set(name, entry);
};

let server: Awaited<ReturnType<typeof answerServer>>;
beforeAll(async () => {
  server = await answerServer();
});
afterAll(async () => {
  await server.close();
  const total = [...counts.values()].reduce((sum, entry) => sum + entry.allowed + entry.forbidden, 0);
  console.log(`property cases (seed ${SEED}): ${total}\n${[...counts].map(([name, entry]) => `  ${name}: ${entry.allowed} allowed, ${entry.forbidden} forbidden`).join('\n')}`);
});

/** A parsed value compared by what was written: numbers by their digits, strings as the output must hold them (lone surrogates as U+FFFD). */
function canonical(value: unknown): unknown {
  if (isLosslessNumber(value)) return `number ${value.value}`;
  if (typeof value === 'string') return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [canonical(key) as string, canonical(member)]));
  }
  return value;
}

describe('answers the contract allows', () => {
  test('every command reads them in every format', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...NAMES), fc.constantFrom(...FORMATS), allowedAnswers, async (name, format, answers: Answers) => {
      count(name, 'allowed');
      server.current.answers = answers;
      const run = await runIn(server, COMMANDS[name]!, format);
      expect(run.stderr, `${name} -f ${format}`).not.toMatch(/^error/m);
      expect(run.code, `${name} -f ${format}: ${run.stderr}`).toBe(0);
      expect(await outputProblems(run, format), `${name} -f ${format}`).toEqual([]);
      if (format === 'json' && PRINTS_ANSWER.has(name)) {
        const served = parseLossless(stringifyJson(answers[PRIMARY[name]!]));
        expect(canonical(parseLossless(run.stdout))).toEqual(canonical(served));
      }
    }), { seed: SEED, numRuns: RUNS ?? 160, endOnFailure: true });
  }, TIMEOUT_MS);
});

/** Ways to break an answer that the contract rules out, and what the error must name. */
type Breakage = { name: string; endpoint: Endpoint; apply: (answer: unknown) => unknown; names: RegExp };

const BREAKAGES: readonly Breakage[] = [
  { name: 'people top', endpoint: '/api/data/people/top', apply: (answer) => ({ items: answer }), names: /expected an array, got an object/ },
  { name: 'weeks', endpoint: '/api/data/weeks/current', apply: (answer) => [answer], names: /expected an object, got an array/ },
  { name: 'sources get', endpoint: '/api/data/sources/{sourceId}', apply: (answer) => [answer], names: /expected an object, got an array/ },
  { name: 'people list', endpoint: '/api/data/people', apply: (answer) => withFirst(answer, { personHash: 12345 }), names: /item 1: field "personHash": expected a string, got the number 12345/ },
  { name: 'people top', endpoint: '/api/data/people/top', apply: (answer) => withFirst(answer, { personHash: 7 }), names: /item 1: field "personHash": expected a string, got the number 7/ },
  { name: 'posts recent', endpoint: '/api/data/posts/recent', apply: (answer) => withFirst(answer, { slug: 42 }), names: /item 1: field "slug": expected a string, got the number 42/ },
  { name: 'people top', endpoint: '/api/data/people/top', apply: (answer) => withFirst(answer, { snippets: { a: 1 } }), names: /item 1: field "snippets": expected an array, got an object/ },
  { name: 'people countries', endpoint: '/api/data/people/{personHash}/country-stats', apply: (answer) => ({ ...(answer as object), countries: { first: {} } }), names: /field "countries": expected an array, got an object/ },
  { name: 'sources links', endpoint: '/api/data/sources/{sourceId}/links', apply: (answer) => ({ ...(answer as object), allLinks: { url: 'x' } }), names: /field "allLinks": expected an array of strings, got an object/ },
  { name: 'countries list', endpoint: '/api/data/countries', apply: (answer) => withFirst(answer, { countryId: null }), names: /item 1: field "countryId" is null/ },
];

/** The list with its first item changed (an item is added when the list is empty). */
function withFirst(answer: unknown, change: Record<string, unknown>): unknown {
  const items = answer as Array<Record<string, unknown>>;
  return [{ ...(items[0] ?? { personHash: 'p-1', countryId: 1, sourceId: 1, slug: 's' }), ...change }, ...items.slice(1)];
}

describe('answers the contract forbids', () => {
  test('end with exit 5 naming what is wrong', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...BREAKAGES), fc.constantFrom('json', 'csv', 'terminal' as const), allowedAnswers, async (breakage, format, answers: Answers) => {
      count(breakage.name, 'forbidden');
      server.current.answers = { ...answers, [breakage.endpoint]: breakage.apply(answers[breakage.endpoint]) };
      const run = await runIn(server, COMMANDS[breakage.name]!, format);
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr).toMatch(breakage.names);
      expect(run.stdout).toBe('');
    }), { seed: SEED, numRuns: RUNS ?? 40, endOnFailure: true });
  }, TIMEOUT_MS);
});
