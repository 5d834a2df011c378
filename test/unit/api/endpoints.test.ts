/**
 * One list of endpoints (ENDPOINTS in src/api/types.ts), checked from both sides: the client requests
 * exactly these paths, and the sandbox routes exactly these paths. The client's side is closed by the
 * compiler twice over: a resource method names its endpoint as a key of ENDPOINT_SHAPES (a method for
 * a path without a shape does not compile), and CALLS below must hold every method of every resource.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import type { APIResource } from '../../../src/api/resources/base.js';
import { ENDPOINTS } from '../../../src/api/types.js';
import { findRoute, routeTemplates } from '../../../src/sandbox/http/routes.js';
import { REPO } from '../../e2e/harness.js';
import { startServer, type LocalServer } from './local-server.js';

/** Sample values for the path parameters, the same for the client's calls and the templates. */
const SAMPLES: Record<string, string> = { personHash: 'p-1', countryId: '7', slug: 's-1', sourceId: '9' };
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLES[name]!);

const personHash = SAMPLES.personHash!;
const slug = SAMPLES.slug!;
const countryId = Number(SAMPLES.countryId);
const sourceId = Number(SAMPLES.sourceId);

type Call = (client: NewsStatsClient) => Promise<unknown>;
/** The resources of the client: every property that is an APIResource (the bulk exports are built on them). */
type Resources = { [K in keyof NewsStatsClient as NewsStatsClient[K] extends APIResource<'native'> ? K : never]: NewsStatsClient[K] };
/** Every public method of every resource, by name: a method added without a call here does not compile. */
type EveryMethod = { [R in keyof Resources]: { [K in keyof Resources[R] as Resources[R][K] extends (...args: never[]) => unknown ? K : never]: Call } };

/** A method's parameter object with every parameter given: a parameter added to its type must be added here. */
type Every<Method extends (...args: never[]) => unknown, Index extends number> = Required<NonNullable<Parameters<Method>[Index]>>;
type Native = NewsStatsClient<'native'>;

const week = { startWeek: 202640, endWeek: 202643 } satisfies Every<Native['people']['countryStats'], 1>;
/** Every method that takes query parameters, called with all of them. */
const EVERY_PARAMETER: Record<string, Call> = {
  search: (client) => client.people.search({ q: 'x', personHash: 'p-1', fullName: 'X', exactName: true, countryId: 1, gender: 1, limit: 5 } satisfies Every<Native['people']['search'], 0>),
  top: (client) => client.people.top({ ...week, limit: 5, fresh: true, countryId: 1, fromCountryId: 2, gender: 1, minAge: 20, maxAge: 60, newsCategory: 'x', sortBy: 'mentions' } satisfies Every<Native['people']['top'], 0>),
  links: (client) => client.people.links(personHash, { limit: 5, includeContext: true } satisfies Every<Native['people']['links'], 1>),
  countryStats: (client) => client.people.countryStats(personHash, week),
  focus: (client) => client.countries.focus(countryId, week satisfies Every<Native['countries']['focus'], 1>),
  sources: (client) => client.sources.list({ countryId: 1 } satisfies Every<Native['sources']['list'], 0>),
  sourceLinks: (client) => client.sources.links(sourceId, { applyFilter: false } satisfies Every<Native['sources']['links'], 1>),
  posts: (client) => client.posts.recent({ count: 5 } satisfies Every<Native['posts']['recent'], 0>),
  articles: (client) => client.articles.recent({ limit: 5, includeSourceContext: true } satisfies Every<Native['articles']['recent'], 0>),
  articleStats: (client) => client.articles.stats({ days: 7 } satisfies Every<Native['articles']['stats'], 0>),
};

const CALLS: EveryMethod = {
  weeks: { current: (client) => client.weeks.current() },
  people: {
    list: (client) => client.people.list(),
    get: (client) => client.people.get(personHash),
    search: (client) => client.people.search({ q: 'x' }),
    top: (client) => client.people.top(),
    links: (client) => client.people.links(personHash),
    countryStats: (client) => client.people.countryStats(personHash),
  },
  countries: {
    list: (client) => client.countries.list(),
    get: (client) => client.countries.get(countryId),
    getBySlug: (client) => client.countries.getBySlug(slug),
    attention: (client) => client.countries.attention(countryId),
    focus: (client) => client.countries.focus(countryId),
  },
  sources: {
    list: (client) => client.sources.list(),
    get: (client) => client.sources.get(sourceId),
    links: (client) => client.sources.links(sourceId),
  },
  posts: {
    recent: (client) => client.posts.recent(),
    get: (client) => client.posts.get(slug),
  },
  articles: {
    recent: (client) => client.articles.recent(),
    stats: (client) => client.articles.stats(),
    statsAllTime: (client) => client.articles.statsAllTime(),
  },
};

describe('ENDPOINTS', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((_request, response) => {
      // The same stub for every endpoint: the client's shape checks reject most answers, and only the
      // paths requested matter here (allSettled below).
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('the client requests every endpoint and nothing else', async () => {
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    // This test's requests only: the next test shares the server, and a shuffled run may put it first.
    const before = server.requests.length;
    await Promise.allSettled(Object.values(CALLS).flatMap((calls) => Object.values(calls).map((call: Call) => call(client))));
    await client.close();
    const requested = server.requests.slice(before).map((request) => new URL(request.url, server.baseUrl).pathname).sort();
    expect(requested).toEqual(ENDPOINTS.map(fill).sort());
  });

  it('each method sends exactly the query parameters docs/openapi.json lists for its endpoint', async () => {
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const before = server.requests.length;
    await Promise.allSettled(Object.values(EVERY_PARAMETER).map((call) => call(client)));
    await client.close();
    const document = JSON.parse(readFileSync(join(REPO, 'docs', 'openapi.json'), 'utf8')) as {
      paths: Record<string, { get: { parameters?: Array<{ name: string; in: string }> } }>;
    };
    const sent = server.requests.slice(before).map((request) => new URL(request.url, server.baseUrl));
    for (const [endpoint, operation] of Object.entries(document.paths)) {
      const listed = (operation.get.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name).sort();
      if (listed.length === 0) continue;
      const request = sent.find((url) => url.pathname === fill(endpoint));
      expect(request, `${endpoint}: no call in EVERY_PARAMETER`).toBeDefined();
      expect([...new Set(request!.searchParams.keys())].sort(), endpoint).toEqual(listed);
    }
  });

  it('the sandbox routes every endpoint, and no other', () => {
    for (const endpoint of ENDPOINTS) expect(findRoute(fill(endpoint)), endpoint).toBeDefined();
    expect([...routeTemplates()].sort()).toEqual([...ENDPOINTS].sort());
  });
});
