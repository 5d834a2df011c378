/**
 * Links that move while a merge is stopped (#33, one row in one place). The service dates a person's
 * links anew (the sandbox dates its data from its clock: a week later, the same articles fall a week
 * later), so a merge takes each moved link out of one partition and puts it in another, and records
 * its new week in the links index: files no single write makes whole. A run stopped at any of those
 * writes (SIGKILL, a full disk), followed by a run against a service that has dated the links anew
 * once more, must leave every link in exactly one partition: the index a stopped merge never updated
 * may not send the next run looking for a link in the wrong week.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../src/api/client.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { Chunks, Produce } from '../../src/sync/destinations/destination.js';
import { LocalLake } from '../../src/sync/destinations/local.js';
import { runSync } from '../../src/sync/sync.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { sandbox, tempDir } from './harness.js';

const DAY = 24 * 3600 * 1000;
/** Three clocks a week apart: each later service dates the same links a week later than the one before. */
const CLOCKS = [new Date(Date.now() - 21 * DAY), new Date(Date.now() - 14 * DAY), new Date(Date.now() - 7 * DAY)];
const SINCE = addWeeks(isoWeekOf(CLOCKS[0]!), -6);
const REFRESHED = addWeeks(SINCE, 3);

/** The links files a merge writes: the partitions, their merge stores, the index. */
const isLinksFile = (path: string) => path.startsWith('links/') || path.startsWith('_newsstats/links/');

/** A folder lake counting the links files written, whose writes stop (as a disk that filled up) at the nth. */
class StoppingLake extends LocalLake {
  linksWrites = 0;
  constructor(where: string, private readonly stopAt = Number.POSITIVE_INFINITY) {
    super(where);
  }

  override async write(path: string, content: Produce | Chunks): Promise<void> {
    if (isLinksFile(path) && ++this.linksWrites === this.stopAt) throw new Error('ENOSPC: no space left on device');
    return super.write(path, content);
  }
}

let services: RunningSandbox[] = [];
beforeAll(async () => {
  services = await Promise.all(CLOCKS.map((now) => sandbox({ now })));
});
afterAll(async () => {
  await Promise.all(services.map((server) => server.close()));
});

async function sync(clock: number, lake: LocalLake, refresh?: number) {
  const server = services[clock]!;
  const client = new NewsStatsClient({ baseUrl: server.url, apiKey: server.key, numbers: 'lossless' });
  await runSync({ client, lake, streams: ['links'], since: SINCE, refresh, depth: 5, top: 5, linksLimit: 20, concurrency: 2, filters: {}, now: CLOCKS[clock] });
}

async function repeatedLinks(dir: string): Promise<unknown[]> {
  return duckRows(`SELECT personHash, articleHash, list(week ORDER BY week) AS weeks FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))}) GROUP BY ALL HAVING count(*) > 1`);
}

async function linkKeys(dir: string): Promise<Set<string>> {
  const rows = await duckRows(`SELECT personHash || '/' || articleHash AS link FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))})`);
  return new Set(rows.map((row) => String(row.link)));
}

describe('a merge stopped while its links move, then the links dated anew again', () => {
  it('leaves every link in one partition, wherever the merge stopped', async () => {
    const first = join(tempDir(), 'lake');
    await sync(0, new LocalLake(first));
    const held = await linkKeys(first);
    // How many links files the refresh writes, unstopped: each is a place to stop it.
    const counting = new StoppingLake(join(tempDir(), 'lake'));
    cpSync(first, counting.where, { recursive: true });
    await sync(1, counting, REFRESHED);
    expect(counting.linksWrites).toBeGreaterThan(6);
    expect(await repeatedLinks(counting.where)).toEqual([]);

    const problems: string[] = [];
    for (let stopAt = 1; stopAt <= counting.linksWrites; stopAt += 1) {
      const dir = join(tempDir(), 'lake');
      cpSync(first, dir, { recursive: true });
      await expect(sync(1, new StoppingLake(dir, stopAt), REFRESHED)).rejects.toThrow(/ENOSPC/);
      await sync(2, new LocalLake(dir));
      const repeated = await repeatedLinks(dir);
      if (repeated.length > 0) problems.push(`stopped at write ${stopAt}: ${repeated.length} links in two partitions, e.g. ${JSON.stringify(repeated[0])}`);
      const now = await linkKeys(dir);
      const lost = [...held].filter((link) => !now.has(link));
      if (lost.length > 0) problems.push(`stopped at write ${stopAt}: ${lost.length} links lost`);
    }
    expect(problems).toEqual([]);
  });
});
