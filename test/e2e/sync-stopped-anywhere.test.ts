/**
 * A sync stopped at any of its writes (SIGKILL, a full disk), then run again against a service whose
 * answers have changed meanwhile (#33: one row in one place, kills at random moments). The sandbox
 * dates its data from its clock, so each later clock is a service that dates the same links a week
 * later and ranks other people: the run after a stopped one may fetch none of what the stopped one
 * was writing. Whatever it fetches, the lake it leaves must hold every link once, in the partition of
 * its mentionDate's week, each links partition as its merge store says, every link the lake held
 * before, and no merge or temporary file left over.
 */
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../src/api/client.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { Chunks, Produce } from '../../src/sync/destinations/destination.js';
import { LocalLake } from '../../src/sync/destinations/local.js';
import { STATE_FILE } from '../../src/sync/state.js';
import { runSync, type SyncOptions } from '../../src/sync/sync.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { sandbox, tempDir } from './harness.js';

const DAY = 24 * 3600 * 1000;
/** Clocks a week apart: services, each dating the same links a week later and ranking other people. */
const CLOCKS = [new Date(Date.now() - 21 * DAY), new Date(Date.now() - 14 * DAY), new Date(Date.now() - 7 * DAY), new Date()];
const SINCE = addWeeks(isoWeekOf(CLOCKS[0]!), -4);

/**
 * A folder lake counting its writes (files and the state), which stop, as a disk that filled up, at the
 * nth, or at the first whose path `stopAt` picks, told the paths written before it (the state's as STATE_FILE).
 */
class StoppingLake extends LocalLake {
  writes = 0;
  readonly #written: string[] = [];
  constructor(where: string, private readonly stopAt: number | ((path: string, earlier: readonly string[]) => boolean) = Number.POSITIVE_INFINITY) {
    super(where);
  }

  #count(path: string): void {
    this.writes += 1;
    if (typeof this.stopAt === 'number' ? this.writes === this.stopAt : this.stopAt(path, this.#written)) throw new Error('ENOSPC: no space left on device');
    this.#written.push(path);
  }

  override async write(path: string, content: Produce | Chunks): Promise<void> {
    this.#count(path);
    return super.write(path, content);
  }

  override async writeState(text: string): Promise<void> {
    this.#count(STATE_FILE);
    return super.writeState(text);
  }
}

let services: RunningSandbox[] = [];
beforeAll(async () => {
  services = await Promise.all(CLOCKS.map((now) => sandbox({ now })));
});
afterAll(async () => {
  await Promise.all(services.map((server) => server.close()));
});

async function sync(clock: number, lake: LocalLake, options: Partial<SyncOptions> = {}) {
  const server = services[clock]!;
  const client = new NewsStatsClient({ baseUrl: server.url, apiKey: server.key, numbers: 'lossless' });
  await runSync({ client, lake, streams: ['rankings', 'country_stats', 'links', 'people'], since: SINCE, depth: 5, top: 3, linksLimit: 10, concurrency: 2, filters: {}, now: CLOCKS[clock], ...options });
}

const linksGlob = (dir: string) => sqlText(join(dir, 'links', '*', '*.parquet'));

async function linkKeys(dir: string): Promise<Set<string>> {
  return new Set((await duckRows(`SELECT personHash || '/' || articleHash AS link FROM read_parquet(${linksGlob(dir)})`)).map((row) => String(row.link)));
}

/** What is wrong with a lake: links twice, out of their week, a partition behind its store, leftovers. */
async function lakeProblems(dir: string, held: ReadonlySet<string>): Promise<string[]> {
  const problems: string[] = [];
  const repeated = await duckRows(`SELECT personHash, articleHash, list(week ORDER BY week) AS weeks FROM read_parquet(${linksGlob(dir)}, hive_partitioning = true) GROUP BY ALL HAVING count(*) > 1`);
  if (repeated.length > 0) problems.push(`${repeated.length} links in two partitions, e.g. ${JSON.stringify(repeated[0])}`);
  const elsewhere = await duckRows(`SELECT count(*) AS n FROM read_parquet(${linksGlob(dir)}, hive_partitioning = true) WHERE mentionDate IS NOT NULL AND week <> yearweek(mentionDate)::BIGINT`);
  if (Number(elsewhere[0]!.n) > 0) problems.push(`${elsewhere[0]!.n} links outside their mentionDate's week`);
  for (const { week, n } of await duckRows(`SELECT week, count(*) AS n FROM read_parquet(${linksGlob(dir)}, hive_partitioning = true) GROUP BY ALL`)) {
    const store = join(dir, '_newsstats', 'links', `week=${String(week)}.ndjson`);
    const lines = existsSync(store) ? readFileSync(store, 'utf8').split('\n').filter(Boolean).length : 0;
    if (lines !== Number(n)) problems.push(`links week ${String(week)}: ${String(n)} rows, its merge store ${lines}`);
  }
  const now = await linkKeys(dir);
  const lost = [...held].filter((link) => !now.has(link));
  if (lost.length > 0) problems.push(`${lost.length} links lost`);
  const leftovers = readdirSync(dir, { recursive: true }).map(String).filter((name) => name.endsWith('.tmp') || name.endsWith('.lock'));
  if (leftovers.length > 0) problems.push(`left over: ${leftovers.join(', ')}`);
  const merging = join(dir, '_newsstats', 'links', 'merging.json');
  if (existsSync(merging) && readFileSync(merging, 'utf8') !== '{}\n') problems.push('a merge left unfinished');
  // The state says what the lake holds: no partition taken, or partial, that is not there.
  const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as { streams: Record<string, { taken?: Record<string, string>; partial?: number[] }> };
  for (const [stream, { taken = {}, partial = [] }] of Object.entries(state.streams)) {
    for (const week of new Set([...Object.keys(taken), ...partial.map(String)])) if (!existsSync(join(dir, stream, `week=${week}`, 'part-0.parquet'))) problems.push(`the state records ${stream} week ${week}, not in the lake`);
  }
  return problems;
}

describe('a sync stopped at any of its writes, then run against a service that changed', () => {
  it.each([
    ['a run of new weeks', {}],
    ['a --refresh of a merged week, with the current week', { refresh: addWeeks(SINCE, 2), includeCurrent: true }],
  ])('%s: every link once, in its week, as its store says, none lost', async (_name, options: Partial<SyncOptions>) => {
    const first = join(tempDir(), 'lake');
    await sync(0, new LocalLake(first));
    const held = await linkKeys(first);
    // How many writes the run makes unstopped: each is a place to stop it.
    const counting = new StoppingLake(join(tempDir(), 'lake'));
    cpSync(first, counting.where, { recursive: true });
    await sync(1, counting, options);
    await sync(2, new LocalLake(counting.where));
    expect(await lakeProblems(counting.where, held)).toEqual([]);
    expect(counting.writes).toBeGreaterThan(15);

    const problems: string[] = [];
    for (let stopAt = 1; stopAt <= counting.writes; stopAt += 1) {
      const dir = join(tempDir(), 'lake');
      cpSync(first, dir, { recursive: true });
      await expect(sync(1, new StoppingLake(dir, stopAt), options)).rejects.toThrow(/ENOSPC/);
      await sync(2, new LocalLake(dir));
      for (const problem of await lakeProblems(dir, held)) problems.push(`stopped at write ${stopAt}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('a sync of the current week stopped at any of its writes, then run after that week', () => {
  it('leaves no partial week in the lake that the next run does not replace, whatever its --since', async () => {
    const partialWeek = isoWeekOf(CLOCKS[1]!);
    const first = join(tempDir(), 'lake');
    await sync(0, new LocalLake(first));
    // The partial week, taken whole by the first run two weeks later, although its --since is after it.
    const counting = new StoppingLake(join(tempDir(), 'lake'));
    cpSync(first, counting.where, { recursive: true });
    await sync(1, counting, { includeCurrent: true });
    await sync(3, new LocalLake(counting.where), { since: addWeeks(partialWeek, 1) });
    const whole = (dir: string, stream: string) => join(dir, stream, `week=${partialWeek}`, 'part-0.parquet');
    expect(existsSync(whole(counting.where, 'rankings'))).toBe(true);

    const problems: string[] = [];
    for (let stopAt = 1; stopAt <= counting.writes; stopAt += 1) {
      const dir = join(tempDir(), 'lake');
      cpSync(first, dir, { recursive: true });
      await expect(sync(1, new StoppingLake(dir, stopAt), { includeCurrent: true })).rejects.toThrow(/ENOSPC/);
      await sync(3, new LocalLake(dir), { since: addWeeks(partialWeek, 1) });
      for (const stream of ['rankings', 'country_stats']) {
        const file = whole(dir, stream);
        if (existsSync(file) && !readFileSync(file).equals(readFileSync(whole(counting.where, stream)))) problems.push(`stopped at write ${stopAt}: ${stream} week ${partialWeek} is still the partial one`);
      }
      const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: Record<string, { partial?: number[] }> };
      for (const [stream, entry] of Object.entries(state.streams)) if (entry.partial?.includes(partialWeek)) problems.push(`stopped at write ${stopAt}: ${stream} week ${partialWeek} still listed as partial`);
    }
    expect(problems).toEqual([]);
  });
});

describe('two syncs stopped in a row, each against a service that dated the links anew', () => {
  it('keeps a link the second moved into the lake, though the first never landed it in the week the index names', async () => {
    const index = '_newsstats/links/index.json';
    const merging = '_newsstats/links/merging.json';
    const dir = join(tempDir(), 'lake');
    // The first, into a new lake, stops at its first links partition: its links are in the index,
    // under this service's weeks, and in no partition.
    await expect(sync(1, new StoppingLake(dir, (path, earlier) => earlier.includes(index) && path.startsWith('_newsstats/links/week=')))).rejects.toThrow(/ENOSPC/);
    // The second, a week later, moves those links to the weeks it gives them, and stops once they have
    // landed there, before the index says so (its merge's index write after its partitions: the one
    // before them is left out when no link is new to the index).
    await expect(sync(2, new StoppingLake(dir, (path, earlier) => path === index && earlier.slice(earlier.lastIndexOf(merging)).some((written) => written.startsWith('links/week='))))).rejects.toThrow(/ENOSPC/);
    const held = await linkKeys(dir);
    // A run that fetches no links finishes the stopped merge: unstopped, and stopped at each of its
    // writes and run again. The index must then say where the links are: the next service dates them
    // anew once more, and each must leave the partition it is in (an index still naming the week they
    // never reached left them twice).
    const counting = new StoppingLake(join(tempDir(), 'lake'));
    cpSync(dir, counting.where, { recursive: true });
    await sync(2, counting, { streams: ['people'] });
    const problems: string[] = [];
    for (let stopAt = 0; stopAt <= counting.writes; stopAt += 1) {
      const copy = join(tempDir(), 'lake');
      cpSync(dir, copy, { recursive: true });
      if (stopAt > 0) await expect(sync(2, new StoppingLake(copy, stopAt), { streams: ['people'] })).rejects.toThrow(/ENOSPC/);
      await sync(2, new LocalLake(copy), { streams: ['people'] });
      for (const problem of await lakeProblems(copy, held)) problems.push(`finishing stopped at write ${stopAt}: ${problem}`);
      await sync(3, new LocalLake(copy));
      for (const problem of await lakeProblems(copy, held)) problems.push(`finishing stopped at write ${stopAt}, then a run a week later: ${problem}`);
    }
    expect(counting.writes).toBeGreaterThan(2);
    expect(problems).toEqual([]);
  });
});

describe('a sync stopped before its merge wrote the current week\'s links', () => {
  it('leaves the state recording no partition that is not in the lake', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(0, new LocalLake(dir));
    const held = await linkKeys(dir);
    // A week later, stopped at its merge's first partition, after the index: the current week's links, whose
    // mentionDate falls in the week the service is in, never land.
    await expect(sync(1, new StoppingLake(dir, (path, earlier) => earlier.includes('_newsstats/links/index.json') && path.startsWith('_newsstats/links/week=')))).rejects.toThrow(/ENOSPC/);
    // A run in the same week that fetches no links finishes the merge.
    await sync(1, new LocalLake(dir), { streams: ['people'] });
    expect(await lakeProblems(dir, held)).toEqual([]);
  });
});

describe('a links merge store lost between runs, its partition kept, then a run a week later', () => {
  it('leaves no link in the partition whose store was lost as well as in the one its new mentionDate names', async () => {
    const first = join(tempDir(), 'lake');
    await sync(0, new LocalLake(first));
    const stores = readdirSync(join(first, '_newsstats', 'links')).filter((name) => /^week=\d+\.ndjson$/.test(name));
    expect(stores.length).toBeGreaterThan(1);
    const problems: string[] = [];
    for (const store of stores) {
      const dir = join(tempDir(), 'lake');
      cpSync(first, dir, { recursive: true });
      // Deleted by hand, or expired by a lifecycle rule that spared the Parquet beside it.
      rmSync(join(dir, '_newsstats', 'links', store));
      await sync(1, new LocalLake(dir));
      // The lost store's links that the service no longer lists are lost with it: none held to compare.
      for (const problem of await lakeProblems(dir, new Set())) problems.push(`${store} lost: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('fetches the lost links again though the run that emptied their partition was stopped before its state said so', async () => {
    const first = join(tempDir(), 'lake');
    await sync(0, new LocalLake(first));
    const held = await linkKeys(first);
    const stores = readdirSync(join(first, '_newsstats', 'links')).filter((name) => /^week=\d+\.ndjson$/.test(name));
    const problems: string[] = [];
    for (const store of stores) {
      const dir = join(tempDir(), 'lake');
      cpSync(first, dir, { recursive: true });
      rmSync(join(dir, '_newsstats', 'links', store));
      const partition = `links/${store.slice(0, -'.ndjson'.length)}/part-0.parquet`;
      // Stopped at the state's write after the emptied partition: the empty store has landed.
      await expect(sync(0, new StoppingLake(dir, (path, earlier) => path === STATE_FILE && earlier.includes(partition)))).rejects.toThrow(/ENOSPC/);
      await sync(0, new LocalLake(dir));
      for (const problem of await lakeProblems(dir, held)) problems.push(`${store} lost: ${problem}`);
    }
    expect(problems).toEqual([]);
  });
});

/**
 * A folder lake whose merge store of the first links partition a merge writes never lands (still on its
 * way when the process was killed: a partition and its store are published side by side, and either
 * may land first), and which stops at the write after that partition.
 */
class StoreNeverLandingLake extends LocalLake {
  #dropped: string | undefined;
  #partitionLanded = false;
  override async write(path: string, content: Produce | Chunks): Promise<void> {
    if (this.#partitionLanded) throw new Error('ENOSPC: no space left on device');
    if (this.#dropped === undefined && /^_newsstats\/links\/week=\d+\.ndjson$/.test(path)) {
      this.#dropped = path;
      return;
    }
    if (this.#dropped !== undefined && path === `links/${this.#dropped.slice('_newsstats/links/'.length, -'.ndjson'.length)}/part-0.parquet`) this.#partitionLanded = true;
    return super.write(path, content);
  }
}

describe('a sync killed after a links partition landed and before its merge store did', () => {
  it('leaves no link in that partition that is in no merge store, once the next runs have finished the merge', async () => {
    const dir = join(tempDir(), 'lake');
    await expect(sync(0, new StoreNeverLandingLake(dir))).rejects.toThrow(/ENOSPC/);
    // A run that fetches no links finishes the stopped merge; a week later the links are dated anew.
    await sync(0, new LocalLake(dir), { streams: ['people'] });
    const afterFinish = await lakeProblems(dir, new Set());
    await sync(1, new LocalLake(dir));
    expect({ afterFinish, aWeekLater: await lakeProblems(dir, new Set()) }).toEqual({ afterFinish: [], aWeekLater: [] });
  });
});
