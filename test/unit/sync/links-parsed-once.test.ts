/**
 * A later run's links merge reads the merge store of each stored week it adds links to, and writes the
 * partition again: each stored line is parsed once, for its key, and that row is what the Parquet
 * writer takes, a link fetched again exactly as stored included. Both were parsed a second time for
 * the writer: half of a daily run's parsing (docs/performance.md, "sync").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import type { RunningSandbox } from '../../../src/sandbox/server.js';
import { LocalLake } from '../../../src/sync/destinations/local.js';
import { runSync } from '../../../src/sync/sync.js';
import { addWeeks, isoWeekOf } from '../../../src/shared/weeks.js';
import { FIXED_NOW, sandbox, tempDir } from '../../e2e/harness.js';

/**
 * The texts JSON.parse is given while `run` runs that hold one links row (a store line, its big numbers
 * marked by the exact parse): no answer of the service is a single row. JSON.parse, not the module
 * that calls it, is wrapped: the suite shares modules between files (vitest.config.ts, `isolate`), so
 * a module mock could miss a sync engine another file loaded first.
 */
async function linkRowsParsedDuring(run: () => Promise<void>): Promise<string[]> {
  const parse = JSON.parse;
  const texts: string[] = [];
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    if (typeof text === 'string' && text.startsWith('{"fullName"') && text.includes('"articleHash"') && !text.includes('\n')) texts.push(text);
    return parse(text, reviver);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return texts;
}

/** A fixed clock: the sandbox's ranking and links, and so the weeks the backfill adds links to, are the same every run. */
const NOW = FIXED_NOW;
const SINCE = addWeeks(isoWeekOf(NOW), -4);

let service: RunningSandbox;
beforeAll(async () => {
  service = await sandbox({ now: NOW });
});
afterAll(async () => {
  await service.close();
});

async function sync(dir: string, since: number): Promise<void> {
  const client = new NewsStatsClient({ baseUrl: service.url, apiKey: service.key, numbers: 'lossless' });
  await runSync({ client, lake: new LocalLake(dir), streams: ['links'], since, depth: 5, top: 3, linksLimit: 10, concurrency: 2, filters: {}, now: NOW });
}

function storedLines(dir: string): Set<string> {
  const folder = join(dir, '_newsstats', 'links');
  const stores = readdirSync(folder).filter((name) => /^week=\d+\.ndjson$/.test(name));
  return new Set(stores.flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n').filter((line) => line !== '')));
}

describe("a later run's links merge", () => {
  it('parses each line of the stores it rewrites once', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(dir, SINCE);
    const before = [...storedLines(dir)].map((line) => JSON.parse(line) as { personHash: string; fullName: string });
    // Two weeks backfilled: their people's links land in stored weeks too (the same service: none moves).
    const parsed = await linkRowsParsedDuring(() => sync(dir, addWeeks(SINCE, -2)));
    // Not vacuous: the second run read stored lines back (a week it added links to).
    expect(parsed.filter((text) => before.some((row) => text.startsWith(`{"fullName":${JSON.stringify(row.fullName)},"personHash":${JSON.stringify(row.personHash)}`))).length).toBeGreaterThan(0);
    const twice = [...new Set(parsed.filter((text, index) => parsed.indexOf(text) !== index))];
    expect(twice).toEqual([]);
  });
});
