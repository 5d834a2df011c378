/**
 * The lake over time (#33), locally and in object storage (s3rver on 127.0.0.1 port 0): a partial
 * week written with --include-current is replaced by the complete one on the first run after the week
 * has ended, with no row twice, the clock being the sandbox's, set by the test; a link that changes
 * week moves, in a lake written before the links index too; --plan writes nothing to the store;
 * backfills into object storage in shuffled order hold the links of one forward run.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { tempDir } from './harness.js';
import { OPTIONS, W, download as downloadFrom, files, stateOf, sync as syncWith, useLakeServers } from './lake-fixture.js';

const servers = useLakeServers();
const sync = (lake: string, server: RunningSandbox, options = OPTIONS, ...extra: string[]) => syncWith(servers, lake, server, options, ...extra);
const download = (prefix: string) => downloadFrom(servers, prefix);

const rankingsOfW = (dir: string) => readFileSync(join(dir, 'rankings', `week=${W}`, 'part-0.parquet'));

/** No row of the lake twice: each stream's key once across every partition. */
async function expectEachRowOnce(dir: string): Promise<void> {
  const keys: Record<string, string> = { rankings: 'week, personHash', country_stats: 'week, personHash, countryId', links: 'personHash, articleHash' };
  for (const [stream, key] of Object.entries(keys)) {
    const repeated = await duckRows(`SELECT ${key}, count(*) AS n FROM read_parquet(${sqlText(join(dir, stream, '*', '*.parquet'))}, hive_partitioning = true) GROUP BY ALL HAVING count(*) > 1`);
    expect(repeated, stream).toEqual([]);
  }
}

describe('a partial week (--include-current) in the lake', () => {
  let complete: string;
  beforeAll(async () => {
    // What the week holds once complete: a lake synced only after it ended.
    complete = join(tempDir(), 'lake');
    await sync(complete, servers.after);
  });

  for (const where of ['a folder', 'object storage']) {
    it(`${where}: written partial during the week, replaced by the complete week on the first run after it, no row twice`, async () => {
      const lake = where === 'a folder' ? join(tempDir(), 'lake') : `s3://lake/partial-${process.pid}`;
      const read = async () => (lake.startsWith('s3://') ? download(lake.slice('s3://lake/'.length)) : lake);

      await sync(lake, servers.during, OPTIONS, '--include-current');
      const first = await read();
      for (const stream of ['rankings', 'country_stats']) {
        expect(stateOf(first).streams[stream], stream).toMatchObject({ weeks: [addWeeks(W, -1)], partial: [W] });
      }
      expect(stateOf(first).streams.links!.partial).toContain(W);
      // Half a week's data: not what the complete week holds (so the comparison below can fail).
      expect(rankingsOfW(first).equals(rankingsOfW(complete))).toBe(false);

      await sync(lake, servers.after);
      const second = await read();
      const state = stateOf(second);
      for (const stream of ['rankings', 'country_stats', 'links']) {
        expect(state.streams[stream]!.weeks, stream).toEqual([addWeeks(W, -1), W]);
        expect(state.streams[stream]!.partial ?? [], stream).not.toContain(W);
      }
      for (const stream of ['rankings', 'country_stats']) {
        const path = join(stream, `week=${W}`, 'part-0.parquet');
        expect(readFileSync(join(second, path)).equals(readFileSync(join(complete, path))), path).toBe(true);
      }
      await expectEachRowOnce(second);
    });
  }
});

describe('the links index', () => {
  it('a lake written before it (no index on disk) has it built from the merge store: a link that changed week still moves', async () => {
    const lake = join(tempDir(), 'lake');
    await sync(lake, servers.during, OPTIONS, '--include-current');
    const index = join(lake, '_newsstats', 'links', 'index.json');
    rmSync(index);
    // The sandbox a week later files some of the same links under other weeks.
    await sync(lake, servers.after);
    await expectEachRowOnce(lake);
    expect(Object.keys(JSON.parse(readFileSync(index, 'utf8')) as object).length).toBeGreaterThan(0);
  });
});

describe('--plan on object storage', () => {
  it('reads the state and writes nothing: no lock, no object', async () => {
    const prefix = `planned-${process.pid}`;
    await sync(`s3://lake/${prefix}`, servers.after, OPTIONS);
    const listed = async () => ((await servers.client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }))).Contents ?? []).map((object) => `${object.Key} ${object.ETag}`).sort();
    const before = await listed();
    const puts = servers.s3.requests.filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD ')).length;
    await sync(`s3://lake/${prefix}`, servers.after, OPTIONS, '--plan', '--refresh', String(W));
    expect(servers.s3.requests.filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD ')).length).toBe(puts);
    expect(await listed()).toEqual(before);
  });
});

describe('backfills into object storage in shuffled order', () => {
  it('hold the links of one forward run, object for object, each row once', async () => {
    const since = addWeeks(W, -4);
    const options = (first: number, ...extra: string[]) => ['--since', String(first), '--streams', 'links', '--top', '2', '--links-limit', '4', ...extra];
    const forward = join(tempDir(), 'lake');
    await sync(forward, servers.after, options(since));
    const prefix = `shuffled-${process.pid}`;
    for (const args of [options(addWeeks(W, 0)), options(addWeeks(since, 2)), options(since), options(since, '--refresh', String(addWeeks(since, 1)))]) {
      await sync(`s3://lake/${prefix}`, servers.after, args);
    }
    const got = files(await download(prefix));
    const wanted = files(forward);
    const links = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => path.startsWith('links/') || path.startsWith('_newsstats/')).sort();
    expect(links(got)).toEqual(links(wanted));
    for (const path of links(wanted)) expect(got.get(path)!.equals(wanted.get(path)!), path).toBe(true);
  });
});
