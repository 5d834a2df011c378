/**
 * A `--refresh` whose links move (#33, one row in one place): the service now dates a person's links
 * in other weeks, so the merge takes each out of its old partition and puts it in its new one, two
 * writes no single file makes whole. A run stopped between them (SIGKILL, a full disk) must leave the
 * refreshed week to the next run, which fetches it again and finishes the move: no link may be left
 * in neither partition while the state says the week is merged.
 */
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
/** The sandbox dates its data from its clock: a week later, the same articles fall a week later. */
const BEFORE = new Date(Date.now() - 14 * DAY);
const AFTER = new Date(Date.now() - 7 * DAY);
const SINCE = addWeeks(isoWeekOf(BEFORE), -8);
const REFRESHED = addWeeks(SINCE, 4);

/** A folder lake whose writes stop (as a disk that filled up) at the nth links partition of the run. */
class StoppingLake extends LocalLake {
  #linksPartitions = 0;
  constructor(where: string, private readonly stopAt: number) {
    super(where);
  }

  override async write(path: string, content: Produce | Chunks): Promise<void> {
    if (path.startsWith('links/') && ++this.#linksPartitions === this.stopAt) throw new Error('ENOSPC: no space left on device');
    return super.write(path, content);
  }
}

let before: RunningSandbox;
let after: RunningSandbox;
beforeAll(async () => {
  [before, after] = await Promise.all([sandbox({ now: BEFORE }), sandbox({ now: AFTER })]);
});
afterAll(async () => {
  await Promise.all([before?.close(), after?.close()]);
});

async function sync(server: RunningSandbox, lake: LocalLake, refresh?: number) {
  const client = new NewsStatsClient({ baseUrl: server.url, apiKey: server.key, numbers: 'lossless' });
  await runSync({ client, lake, streams: ['links'], since: SINCE, refresh, depth: 5, top: 5, linksLimit: 20, concurrency: 2, filters: {}, now: server === before ? BEFORE : AFTER });
}

async function linkKeys(dir: string): Promise<Set<string>> {
  const rows = await duckRows(`SELECT personHash || '/' || articleHash AS link FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))})`);
  return new Set(rows.map((row) => String(row.link)));
}

describe('a --refresh stopped while its links move', () => {
  it('leaves the week to the next run, which puts every link back in one partition', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(before, new LocalLake(dir));
    const held = await linkKeys(dir);
    // The second links partition of the merge: the first one written has lost the links that move.
    await expect(sync(after, new StoppingLake(dir, 2), REFRESHED)).rejects.toThrow(/ENOSPC/);
    await sync(after, new LocalLake(dir));
    const now = await linkKeys(dir);
    expect([...held].filter((link) => !now.has(link))).toEqual([]);
    const repeated = await duckRows(`SELECT personHash, articleHash FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))}) GROUP BY ALL HAVING count(*) > 1`);
    expect(repeated).toEqual([]);
  });
});
