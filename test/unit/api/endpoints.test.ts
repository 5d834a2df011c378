/**
 * One list of endpoints (ENDPOINTS in src/api/types.ts), checked from both sides: the client requests
 * exactly these paths, and the sandbox routes exactly these paths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { ENDPOINTS } from '../../../src/api/types.js';
import { findRoute, routeTemplates } from '../../../src/sandbox/http/routes.js';
import { startServer, type LocalServer } from './local-server.js';

/** Sample values for the path parameters, the same for the client's calls and the templates. */
const SAMPLES: Record<string, string> = { personHash: 'p-1', countryId: '7', slug: 's-1', sourceId: '9' };
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_, name: string) => SAMPLES[name]!);

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
    const { personHash, slug } = SAMPLES as { personHash: string; slug: string };
    const countryId = Number(SAMPLES.countryId);
    const sourceId = Number(SAMPLES.sourceId);
    await Promise.allSettled([
      client.weeks.current(),
      client.people.list(),
      client.people.get(personHash),
      client.people.search({ q: 'x' }),
      client.people.top(),
      client.people.links(personHash),
      client.people.countryStats(personHash),
      client.countries.list(),
      client.countries.get(countryId),
      client.countries.getBySlug(slug),
      client.countries.attention(countryId),
      client.countries.focus(countryId),
      client.sources.list(),
      client.sources.get(sourceId),
      client.sources.links(sourceId),
      client.posts.recent(),
      client.posts.get(slug),
      client.articles.recent(),
      client.articles.stats(),
      client.articles.statsAllTime(),
    ]);
    await client.close();
    const requested = server.requests.map((request) => new URL(request.url, server.baseUrl).pathname).sort();
    expect(requested).toEqual(ENDPOINTS.map(fill).sort());
  });

  it('the sandbox routes every endpoint, and no other', () => {
    for (const endpoint of ENDPOINTS) expect(findRoute(fill(endpoint)), endpoint).toBeDefined();
    expect([...routeTemplates()].sort()).toEqual([...ENDPOINTS].sort());
  });
});
