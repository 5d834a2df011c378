/**
 * The lake over time (#33), locally and in object storage (s3rver on 127.0.0.1 port 0): a partial
 * week written with --include-current is replaced by the complete one on the first run after the week
 * has ended, with no row twice, the clock being the sandbox's, set by the test; a sync killed with
 * SIGKILL at random moments, then resumed, ends with the files of a run never interrupted; backfills
 * into object storage in shuffled order hold the links of one forward run.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf, mondayOf } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { runCli, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, type LocalS3 } from './s3-server.js';

const DAY = 24 * 3600 * 1000;
/** The partial week: two weeks back, so the local clock has passed it and the sandbox's weeks are believed. */
const W = addWeeks(isoWeekOf(new Date()), -2);
/** Wednesday noon of W: the sandbox's week W holds half a week's articles. */
const DURING = new Date(mondayOf(W).getTime() + 2.5 * DAY);
/** A week later: W has ended, complete. */
const AFTER = new Date(DURING.getTime() + 7 * DAY);
const OPTIONS = ['--since', String(addWeeks(W, -1)), '--streams', 'rankings,country_stats,links', '--depth', '6', '--top', '2', '--links-limit', '3'];

let during: RunningSandbox;
let after: RunningSandbox;
let s3: LocalS3;
let client: S3Client;
beforeAll(async () => {
  [during, after, s3] = await Promise.all([sandbox({ now: DURING }), sandbox({ now: AFTER }), localS3('lake')]);
  client = new S3Client({ region: 'us-east-1', endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  client?.destroy();
  await Promise.all([s3?.close(), during?.close(), after?.close()]);
});

function files(dir: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else found.set(relative(dir, child), readFileSync(child));
    }
  };
  walk(dir);
  return found;
}

/** How many Parquet files a folder holds (their names only: polled every millisecond). */
function parquetFiles(dir: string): number {
  let count = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else if (entry.name.endsWith('.parquet')) count += 1;
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return count;
}

/** Every object under a prefix, downloaded into a folder by its key less the prefix. */
async function download(prefix: string): Promise<string> {
  const dir = tempDir();
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }));
  for (const object of listed.Contents ?? []) {
    const body = Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: 'lake', Key: object.Key }))).Body!.transformToByteArray());
    const path = join(dir, object.Key!.slice(prefix.length + 1));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
  }
  return dir;
}

type State = { streams: Record<string, { weeks?: number[]; partial?: number[]; taken?: Record<string, string> }> };
const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as State;

/** A run of sync, in a process of its own for object storage (the AWS SDK reads AWS's variables from the real environment). */
async function sync(lake: string, server: RunningSandbox, options = OPTIONS, ...extra: string[]) {
  const env = { ...sandboxEnv(server), ...s3.env };
  const result = lake.startsWith('s3://') ? await spawnCli(['sync', lake, ...options, ...extra], { env }) : await runCli(['sync', lake, ...options, ...extra], { env });
  expect(result.code, result.stderr).toBe(0);
}

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
    await sync(complete, after);
  });

  for (const where of ['a folder', 'object storage']) {
    it(`${where}: written partial during the week, replaced by the complete week on the first run after it, no row twice`, async () => {
      const lake = where === 'a folder' ? join(tempDir(), 'lake') : `s3://lake/partial-${process.pid}`;
      const read = async () => (lake.startsWith('s3://') ? download(lake.slice('s3://lake/'.length)) : lake);

      await sync(lake, during, OPTIONS, '--include-current');
      const first = await read();
      for (const stream of ['rankings', 'country_stats']) {
        expect(stateOf(first).streams[stream], stream).toMatchObject({ weeks: [addWeeks(W, -1)], partial: [W] });
      }
      expect(stateOf(first).streams.links!.partial).toContain(W);
      // Half a week's data: not what the complete week holds (so the comparison below can fail).
      expect(rankingsOfW(first).equals(rankingsOfW(complete))).toBe(false);

      await sync(lake, after);
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
    await sync(lake, during, OPTIONS, '--include-current');
    const index = join(lake, '_newsstats', 'links', 'index.json');
    rmSync(index);
    // The sandbox a week later files some of the same links under other weeks.
    await sync(lake, after);
    await expectEachRowOnce(lake);
    expect(Object.keys(JSON.parse(readFileSync(index, 'utf8')) as object).length).toBeGreaterThan(0);
  });
});

describe('a sync killed with SIGKILL at random moments', () => {
  // Six weeks of every stream: about thirty files, so the kills fall at many points.
  const options = ['--since', String(addWeeks(W, -4)), '--depth', '4', '--top', '2', '--links-limit', '4'];
  let want: Map<string, Buffer>;
  beforeAll(async () => {
    const reference = join(tempDir(), 'lake');
    await sync(reference, after, options);
    want = files(reference);
  });

  for (const where of ['a folder', 'object storage']) {
    it(`${where}: resumed, ends with the files of a run never interrupted; no lock is left to wait out`, async () => {
      const prefix = `killed-${process.pid}`;
      const lake = where === 'a folder' ? join(tempDir(), 'lake') : `s3://lake/${prefix}`;
      // How far a run has gone: Parquet objects sent (object storage), Parquet files landed (a folder).
      const progress = () => (where === 'a folder'
        ? parquetFiles(lake)
        : s3.requests.filter((line) => line.startsWith(`PUT /lake/${prefix}/`) && line.includes('.parquet')).length);
      const total = [...want.keys()].filter((path) => path.endsWith('.parquet')).length;
      // Kills after a random amount of progress (a different moment on every run of the test);
      // whatever the moment, the verdict is the same.
      for (let kill = 0; kill < 3; kill++) {
        const start = progress();
        const at = start + 1 + Math.floor(Math.random() * Math.max(total - 2, 1));
        const result = await spawnCli(['sync', lake, ...options], {
          env: { ...sandboxEnv(after), ...s3.env },
          onSpawn: (child) => {
            const poll = setInterval(() => {
              if (progress() >= at) {
                clearInterval(poll);
                child.kill('SIGKILL');
              }
            }, 1);
            child.on('close', () => clearInterval(poll));
          },
        });
        expect(result.signal === 'SIGKILL' || result.code === 0, result.stderr).toBe(true);
      }
      await sync(lake, after, options);
      const got = files(where === 'a folder' ? lake : await download(prefix));
      const data = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => !path.startsWith('_newsstats_sync')).sort();
      expect(data(got)).toEqual(data(want));
      for (const path of data(want)) expect(got.get(path)!.equals(want.get(path)!), path).toBe(true);
      expect(got.has('_newsstats_sync.lock')).toBe(false);
      const weeks = (map: Map<string, Buffer>) => Object.fromEntries(Object.entries((JSON.parse(map.get('_newsstats_sync.json')!.toString('utf8')) as State).streams).map(([stream, entry]) => [stream, entry.weeks]));
      expect(weeks(got)).toEqual(weeks(want));
    });
  }
});

describe('--plan on object storage', () => {
  it('reads the state and writes nothing: no lock, no object', async () => {
    const prefix = `planned-${process.pid}`;
    await sync(`s3://lake/${prefix}`, after, OPTIONS);
    const listed = async () => ((await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }))).Contents ?? []).map((object) => `${object.Key} ${object.ETag}`).sort();
    const before = await listed();
    const puts = s3.requests.filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD ')).length;
    await sync(`s3://lake/${prefix}`, after, OPTIONS, '--plan', '--refresh', String(W));
    expect(s3.requests.filter((line) => !line.startsWith('GET ') && !line.startsWith('HEAD ')).length).toBe(puts);
    expect(await listed()).toEqual(before);
  });
});

describe('backfills into object storage in shuffled order', () => {
  it('hold the links of one forward run, object for object, each row once', async () => {
    const since = addWeeks(W, -4);
    const options = (first: number, ...extra: string[]) => ['--since', String(first), '--streams', 'links', '--top', '2', '--links-limit', '4', ...extra];
    const forward = join(tempDir(), 'lake');
    await sync(forward, after, options(since));
    const prefix = `shuffled-${process.pid}`;
    for (const args of [options(addWeeks(W, 0)), options(addWeeks(since, 2)), options(since), options(since, '--refresh', String(addWeeks(since, 1)))]) {
      await sync(`s3://lake/${prefix}`, after, args);
    }
    const got = files(await download(prefix));
    const wanted = files(forward);
    const links = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => path.startsWith('links/') || path.startsWith('_newsstats/')).sort();
    expect(links(got)).toEqual(links(wanted));
    for (const path of links(wanted)) expect(got.get(path)!.equals(wanted.get(path)!), path).toBe(true);
  });
});
