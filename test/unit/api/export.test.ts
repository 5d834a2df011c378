/**
 * Bulk exports as library calls: async iterators over a ranking, results in rank order, the window
 * pinned once, and what waits behind a stalled request bounded by bytes, not only by count.
 */
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WEEKS = { currentWeek: 202647, last4StartWeek: 202644 };

function ranked(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    rank: index + 1, personHash: `p-${index + 1}`, fullName: `Person ${index + 1}`, mentionCount: 100 - index, gender: 1,
    fromCountryId: 1, fromCountryName: 'Germany', birthDate: null, persistence: 3, dominance: 1.5, reach: 0.5, power: 0.25,
    sentiment: 0.1, sentimentColor: '#888', sentimentFace: 'neutral', snippets: [], reason: '', countryRows: [],
  }));
}

/** A country-stats answer of about `bytes` bytes: as many country rows as it takes. */
function countryStatsBody(bytes: number): string {
  const row = { countryId: 1, countryName: 'Germany', countryIso: 'DE', mentions: 10, articles: 5, population: 83000000, gdp: 4000000,
    persistence: 2, localDominance: 1.25, reach: 0.5, power: 0.25, sentiment: 0.1 };
  const rowText = JSON.stringify(row);
  const countries = Array.from({ length: Math.ceil(bytes / (rowText.length + 1)) }, () => rowText).join(',');
  return `{"startWeek":202644,"endWeek":202647,"globalDominance":1.5,"globalSentiment":0.1,"globalReach":0.5,"globalPower":0.25,"persistence":3,"countries":[${countries}]}`;
}

/**
 * A service whose first person's country-stats stall until `releaseAt` requests have arrived, or
 * `giveUpMs` have passed (an export the budget bounds never gets there). Records how many
 * country-stats requests had arrived when the stall was released.
 */
async function stallingService(people: number, bodyBytes: number, releaseAt: number, giveUpMs?: number) {
  const body = countryStatsBody(bodyBytes);
  let stalled: ServerResponse | undefined;
  const state = { countryStatsBeforeRelease: 0 };
  let countryStats = 0;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    if (!stalled) return;
    clearTimeout(timer);
    state.countryStatsBeforeRelease = countryStats;
    stalled.writeHead(200, { 'content-type': 'application/json' }).end(body);
    stalled = undefined;
  };
  server = await startServer((request, response) => {
    const url = request.url ?? '';
    if (url.startsWith('/api/data/weeks/current')) return sendJson(response, 200, WEEKS);
    if (url.startsWith('/api/data/people/top')) return sendJson(response, 200, ranked(people));
    countryStats += 1;
    if (url.startsWith('/api/data/people/p-1/')) {
      stalled = response;
      if (giveUpMs !== undefined) timer = setTimeout(release, giveUpMs);
    } else sendJson(response, 200, body);
    if (countryStats >= releaseAt) release();
  });
  return state;
}

describe('client.export.countryStats', () => {
  it('pins the last-4 window once and yields every person in rank order', async () => {
    const seen: string[] = [];
    server = await startServer((request, response) => {
      seen.push(request.url ?? '');
      const url = request.url ?? '';
      if (url.startsWith('/api/data/weeks/current')) return sendJson(response, 200, WEEKS);
      if (url.startsWith('/api/data/people/top')) return sendJson(response, 200, ranked(8)); // more than asked
      // Later people answer sooner: the order must come from the ranking, not from arrival.
      const rank = Number(/p-(\d+)/.exec(url)?.[1]);
      setTimeout(() => sendJson(response, 200, countryStatsBody(200)), (8 - rank) * 5);
    });
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    let rankingSize = 0;
    const items = [];
    for await (const item of client.export.countryStats({ top: 5, concurrency: 3, onRanking: ({ people }) => { rankingSize = people.length; } })) {
      items.push(item);
    }
    expect(rankingSize).toBe(5);
    expect(items.map((item) => item.person.personHash)).toEqual(['p-1', 'p-2', 'p-3', 'p-4', 'p-5']);
    expect(items[0]!.countryStats.countries?.[0]?.countryIso).toBe('DE');
    expect(seen[0]).toBe('/api/data/weeks/current');
    expect(seen[1]).toBe('/api/data/people/top?startWeek=202644&endWeek=202647&limit=5');
    expect(seen.slice(2).every((url) => url.endsWith('/country-stats?startWeek=202644&endWeek=202647'))).toBe(true);
    await client.close();
  });

  it('keeps the answers waiting behind a stalled request within maxBufferedBytes', async () => {
    // 24 people, 4 in flight, answers of 128 KiB; the count window alone (8) lets 7 answers wait.
    const state = await stallingService(24, 128 * 1024, 8, 1_000);
    const client = new NewsStatsClient({ baseUrl: server!.baseUrl, apiKey: 'k', maxConnections: 4 });
    const ranks: number[] = [];
    for await (const item of client.export.countryStats({ top: 24, concurrency: 4, maxBufferedBytes: 128 * 1024 })) ranks.push(Number(item.person.rank));
    expect(ranks).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    // The stalled one and the three started with it: the first answer to wait reaches the budget.
    expect(state.countryStatsBeforeRelease).toBeLessThanOrEqual(5);
    await client.close();
  });

  it('without a byte budget, the count window alone (2 per request in flight) lets 7 answers wait, and no more', async () => {
    // The stall ends when 8 requests have arrived (the window allows that many) or after a second:
    // a ninth request before the release would be a window wider than 8.
    const state = await stallingService(24, 128 * 1024, 9, 1_000);
    const client = new NewsStatsClient({ baseUrl: server!.baseUrl, apiKey: 'k', maxConnections: 4 });
    let count = 0;
    for await (const _item of client.export.countryStats({ top: 24, concurrency: 4, maxBufferedBytes: Infinity })) count += 1;
    expect(count).toBe(24);
    expect(state.countryStatsBeforeRelease).toBe(8);
    await client.close();
  });

  it('leaving the loop early aborts the requests still in flight', async () => {
    const held: ServerResponse[] = [];
    server = await startServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/api/data/people/top')) return sendJson(response, 200, ranked(10));
      if (url.includes('/p-1/')) return sendJson(response, 200, countryStatsBody(100));
      held.push(response); // the rest never answer
    });
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    for await (const item of client.export.countryStats({ top: 10, startWeek: 202644, endWeek: 202647, concurrency: 3 })) {
      expect(item.person.personHash).toBe('p-1');
      while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      break;
    }
    // Aborted requests close their connections: the server sees each held request's socket end.
    await Promise.all(held.map((response) => new Promise((resolve) => {
      if (response.socket?.destroyed ?? true) resolve(undefined);
      else response.socket!.once('close', resolve);
    })));
    expect(held.length).toBeGreaterThanOrEqual(2);
    await client.close();
  });
});

describe('client.export.links', () => {
  it('yields each person\'s links, with context or without', async () => {
    const link = '{"personHash":"p-1","articleHash":1152921504606846977,"mentionDate":"2026-11-20T08:00:00Z","snippet":"s","sentiment":0.5}';
    server = await startServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/api/data/people/top')) return sendJson(response, 200, ranked(2));
      sendJson(response, 200, `[${link}]`);
    });
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const items = [];
    for await (const item of client.export.links({ top: 2, startWeek: 202644, endWeek: 202647, limit: 1, includeContext: false })) items.push(item);
    expect(items.map((item) => item.links[0]!.personHash)).toEqual(['p-1', 'p-1']);
    expect(items[0]!.links[0]!.articleHash).toBe('1152921504606846977');
    expect(server.requests.slice(1).map((request) => request.url)).toEqual([
      '/api/data/people/p-1/links?limit=1&includeContext=false', '/api/data/people/p-2/links?limit=1&includeContext=false',
    ]);
    await client.close();
  });
});

describe('an abort ends an export', () => {
  /** A service of `people` people whose per-person answers each take `delayMs`; counts them. */
  async function slowService(people: number, delayMs: number) {
    server = await startServer((request, response) => {
      const url = request.url ?? '';
      if (url.startsWith('/api/data/weeks/current')) return sendJson(response, 200, WEEKS);
      if (url.startsWith('/api/data/people/top')) return sendJson(response, 200, ranked(people));
      const body = url.includes('/links') ? '[]' : countryStatsBody(200);
      setTimeout(() => sendJson(response, 200, body), delayMs);
    });
    return server;
  }

  for (const kind of ['countryStats', 'links'] as const) {
    it(`export.${kind}: abort() after 5 items stops requesting and rejects with AbortError`, async () => {
      const service = await slowService(60, 20);
      const client = new NewsStatsClient({ baseUrl: service.baseUrl, apiKey: 'k' });
      const controller = new AbortController();
      const params = { top: 60, concurrency: 2, startWeek: 202644, endWeek: 202647 };
      const items = kind === 'countryStats' ? client.export.countryStats(params, { signal: controller.signal }) : client.export.links(params, { signal: controller.signal });
      let seen = 0;
      let requestsAtAbort = 0;
      const outcome = await (async () => {
        for await (const _item of items) {
          seen += 1;
          if (seen === 5) {
            requestsAtAbort = service.requests.length;
            controller.abort();
          }
        }
      })().then(() => 'completed', (error: unknown) => error);
      expect(outcome).toMatchObject({ name: 'AbortError' });
      // Long enough for any request a still-running export would start (each answer takes 20 ms).
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen).toBe(5);
      // Requests already on their way when abort() ran may still arrive (at most `concurrency`); none after.
      expect(service.requests.length).toBeLessThanOrEqual(requestsAtAbort + 2);
      await client.close();
    });
  }

  it('a signal aborted before the loop starts requests nothing past the first step', async () => {
    const service = await slowService(10, 5);
    const client = new NewsStatsClient({ baseUrl: service.baseUrl, apiKey: 'k' });
    const controller = new AbortController();
    controller.abort();
    const items = client.export.countryStats({ top: 10 }, { signal: controller.signal });
    await expect(items.next()).rejects.toMatchObject({ name: 'AbortError' });
    expect(service.requests.length).toBe(0);
    await client.close();
  });
});
