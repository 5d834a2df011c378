/**
 * Results a JavaScript program can pass on: in native mode no answer of any typed method holds a
 * bigint anywhere (identifiers are strings of digits, other numbers numbers), so JSON.stringify, and
 * with it Express's res.json and loggers, works on every one. Against the in-process sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';

let sandbox: RunningSandbox;
let client: NewsStatsClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = new NewsStatsClient({ baseUrl: sandbox.url, apiKey: sandbox.key });
});
afterAll(async () => {
  await client.close();
  await sandbox.close();
});

/** Paths of every bigint in a value. */
function bigints(value: unknown, path = '$'): string[] {
  if (typeof value === 'bigint') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => bigints(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => bigints(item, `${path}.${key}`));
  return [];
}

describe('native-mode results', () => {
  it('hold no bigint and JSON.stringify every one of them', async () => {
    const [person] = await client.people.top({ limit: 1 });
    const [country] = await client.countries.list();
    const [source] = await client.sources.list();
    const [post] = await client.posts.recent({ count: 1 });
    const results: Record<string, unknown> = {
      week: await client.weeks.current(),
      top: await client.people.top({ limit: 5 }),
      person: await client.people.get(person!.personHash),
      search: await client.people.search({ q: person!.fullName!.slice(0, 4) }),
      links: await client.people.links(person!.personHash, { limit: 5 }),
      countryStats: await client.people.countryStats(person!.personHash),
      countries: await client.countries.list(),
      country: await client.countries.get(country!.countryId),
      attention: await client.countries.attention(country!.countryId),
      focus: await client.countries.focus(country!.countryId),
      sources: await client.sources.list(),
      source: await client.sources.get(source!.sourceId),
      sourceLinks: await client.sources.links(source!.sourceId),
      posts: await client.posts.recent({ count: 2 }),
      post: await client.posts.get(post!.slug),
      articles: await client.articles.recent({ limit: 5 }),
      stats: await client.articles.stats(),
      allTime: await client.articles.statsAllTime(),
    };
    for (const [name, result] of Object.entries(results)) {
      expect(bigints(result), name).toEqual([]);
      expect(() => JSON.stringify(result), name).not.toThrow();
    }
    const links = results.links as Array<{ articleHash: unknown }>;
    expect(typeof links[0]!.articleHash).toBe('string');
  });
});
