/**
 * The lake as a data engineer's tools see it (#33): read whole by DuckDB with one glob; a links row in
 * exactly one partition (its mentionDate's week), once, whatever order weeks are synced in; streams
 * added over time with their own options, a changed query refused with the way out; --plan sends
 * nothing; --summary and the state say what was taken and when; links asked once a person a run.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planTasks } from '../../src/sync/plan.js';
import { emptyState, withPartitionTaken } from '../../src/sync/state.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { REPO, readLog, runCli, sandbox, sandboxEnv, spawnCli, tempDir, useLoggedSandbox } from './harness.js';
import { files } from './lake-fixture.js';

const NOW = new Date();
const CURRENT = isoWeekOf(NOW);
const LAST = addWeeks(CURRENT, -1);
const SINCE = addWeeks(LAST, -3);
const OPTIONS = ['--depth', '6', '--top', '2', '--links-limit', '4'];

/** A sandbox on today's clock, logging every request (the tests count what a refused run sent). */
const logged = useLoggedSandbox({ now: NOW });

async function sync(dir: string, ...args: string[]) {
  const result = await runCli(['sync', dir, ...args], { env: logged.env });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

describe('the lake', () => {
  it('is read whole by DuckDB with one glob, and a links row is in one partition only: its mentionDate\'s week', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(dir, '--since', String(SINCE), ...OPTIONS);
    const all = await duckRows(`SELECT regexp_extract(filename, '/([a-z_]+)/week=', 1) AS stream, count(*) AS n FROM read_parquet(${sqlText(join(dir, '**', '*.parquet'))}, hive_partitioning = true, union_by_name = true, filename = true) GROUP BY ALL ORDER BY stream`);
    expect(all.map((row) => row.stream)).toEqual(['countries', 'country_stats', 'links', 'people', 'rankings', 'sources']);
    const links = sqlText(join(dir, 'links', '*', '*.parquet'));
    const repeated = await duckRows(`SELECT personHash, articleHash, count(*) AS n FROM read_parquet(${links}, hive_partitioning = true) GROUP BY ALL HAVING count(*) > 1`);
    expect(repeated).toEqual([]);
    const elsewhere = await duckRows(`SELECT week, mentionDate FROM read_parquet(${links}, hive_partitioning = true) WHERE week <> yearweek(mentionDate)::BIGINT AND mentionDate IS NOT NULL`);
    expect(elsewhere).toEqual([]);
    const total = await duckRows(`SELECT count(*) AS n FROM read_parquet(${links})`);
    expect(Number(total[0]!.n)).toBeGreaterThan(0);
  });

  it('backfills in any order hold the same links, once each, byte for byte', async () => {
    const forward = join(tempDir(), 'lake');
    await sync(forward, '--since', String(SINCE), '--streams', 'links', ...OPTIONS);
    const shuffled = join(tempDir(), 'lake');
    await sync(shuffled, '--since', String(LAST), '--streams', 'links', ...OPTIONS);
    await sync(shuffled, '--since', String(addWeeks(SINCE, 2)), '--streams', 'links', ...OPTIONS);
    await sync(shuffled, '--since', String(SINCE), '--streams', 'links', ...OPTIONS);
    await sync(shuffled, '--since', String(SINCE), '--streams', 'links', '--refresh', String(addWeeks(SINCE, 1)), ...OPTIONS);
    const want = files(forward, 'links');
    const got = files(shuffled, 'links');
    expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [path, bytes] of want) expect(got.get(path)!.equals(bytes), path).toBe(true);
  });

  it('backfills of week ranges (--since/--until), shuffled and overlapping, hold the lake of one run, byte for byte', async () => {
    const whole = join(tempDir(), 'lake');
    await sync(whole, '--since', String(SINCE), ...OPTIONS);
    const ranges = join(tempDir(), 'lake');
    const week = (offset: number) => String(addWeeks(SINCE, offset));
    const weeks = (dir: string) => Object.fromEntries(Object.entries((JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: Record<string, { weeks?: number[] }> }).streams).map(([stream, entry]) => [stream, entry.weeks]));
    const held = new Set<number>();
    for (const [since, until] of [[2, 3], [0, 0], [1, 2], [0, 1]] as const) {
      await sync(ranges, '--since', week(since), '--until', week(until), ...OPTIONS);
      for (let offset = since; offset <= until; offset++) held.add(addWeeks(SINCE, offset));
      // Each run holds its range and no more.
      expect(weeks(ranges).rankings).toEqual([...held].sort((a, b) => a - b));
    }
    const want = files(whole);
    const got = files(ranges);
    const data = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => !path.startsWith('_newsstats_sync')).sort();
    expect(data(got)).toEqual(data(want));
    for (const path of data(want)) expect(got.get(path)!.equals(want.get(path)!), path).toBe(true);
    expect(weeks(ranges)).toEqual(weeks(whole));
  });

  it('refuses an --until after the last completed week, or before --since, in one line', async () => {
    const dir = join(tempDir(), 'lake');
    const before = (await readLog(logged.log)).length;
    const reversed = await runCli(['sync', dir, '--since', String(LAST), '--until', String(SINCE)], { env: logged.env });
    expect(reversed.code).toBe(2);
    expect(reversed.stderr.trim()).toBe(`error: --since ${LAST} is after --until ${SINCE}`);
    expect((await readLog(logged.log)).length).toBe(before);
    const current = await runCli(['sync', dir, '--until', String(CURRENT)], { env: logged.env });
    expect(current.code).toBe(2);
    expect(current.stderr.trim()).toBe(`error: --until ${CURRENT} is not a completed week (the service's current week is ${CURRENT})`);
    expect(existsSync(join(dir, 'rankings'))).toBe(false);
  });

  it('streams are added over time with their own options; a changed query is refused with the way out', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(dir, '--since', String(LAST), '--streams', 'rankings', '--depth', '12');
    await sync(dir, '--since', String(LAST), '--streams', 'links', '--top', '3', '--links-limit', '2');
    const before = (await readLog(logged.log)).length;
    const changed = await runCli(['sync', dir, '--since', String(LAST), '--streams', 'links', '--top', '4', '--links-limit', '2'], { env: logged.env });
    expect(changed.code).toBe(2);
    expect(changed.stderr.trim()).toMatch(/holds links with top 3 \(now 4\): give the same options, leave those streams out \(--streams\), or sync into a new folder$/);
    expect((await readLog(logged.log)).length).toBe(before);
    const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: Record<string, { query: Record<string, unknown>; taken: Record<string, string> }> };
    expect(state.streams.rankings!.query).toEqual({ depth: 12 });
    expect(state.streams.links!.query).toEqual({ linksLimit: 2, top: 3 });
    for (const taken of Object.values(state.streams.rankings!.taken)) expect(taken).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('asks for a person\'s links once a run, and writes the lake byte for byte as asking each week\'s top does', async () => {
    const args = ['--since', String(SINCE), '--streams', 'links', '--top', '4', '--links-limit', '3', '--concurrency', '2'];
    const linksAsked = async (env: Record<string, string>) => {
      const dir = join(tempDir(), 'lake');
      const before = (await readLog(logged.log)).length;
      const result = await runCli(['sync', dir, ...args], { env });
      expect(result.code, result.stderr).toBe(0);
      const paths = (await readLog(logged.log)).slice(before).map((entry) => entry.path).filter((path) => path.endsWith('/links'));
      const lake = files(dir);
      const state = JSON.parse(lake.get('_newsstats_sync.json')!.toString('utf8')) as { streams: { links: { taken: Record<string, string> } } };
      state.streams.links.taken = Object.fromEntries(Object.keys(state.streams.links.taken).map((week) => [week, 'T']));
      lake.set('_newsstats_sync.json', Buffer.from(JSON.stringify(state)));
      return { paths, lake };
    };
    const once = await linksAsked(logged.env);
    const everyWeek = await linksAsked({ ...logged.env, NEWSSTATS_SYNC_LINKS_EVERY_WEEK: '1' });
    // Some person is in more than one week's top (else nothing here tests the reuse) ...
    expect(everyWeek.paths.length).toBe(4 * 4);
    expect(new Set(everyWeek.paths).size).toBeLessThan(everyWeek.paths.length);
    // ... and is asked once: one request a person.
    expect(once.paths.length).toBe(new Set(everyWeek.paths).size);
    expect(new Set(once.paths).size).toBe(once.paths.length);
    expect([...once.lake.keys()].sort()).toEqual([...everyWeek.lake.keys()].sort());
    for (const [path, bytes] of everyWeek.lake) expect(once.lake.get(path)!.equals(bytes), path).toBe(true);
    // The plan's count is the most a run asks (the week, then every top person new each week): the run asked less.
    const plan = await sync(join(tempDir(), 'lake'), ...args, '--plan');
    expect(plan.stdout).toMatch(/^plan: 4 fetches, at most 21 requests, /m);
    expect(plan.stdout).toContain(`fetch links week=${SINCE} (up to 4 requests after the week's ranking, none for a person whose links this run already has)`);
  });

  it('--plan says what would be fetched, with request counts, and sends nothing; --summary tells what a run did', async () => {
    const dir = join(tempDir(), 'lake');
    const before = (await readLog(logged.log)).length;
    const plan = await sync(dir, '--since', String(SINCE), '--streams', 'rankings,country_stats', '--plan', ...OPTIONS);
    expect((await readLog(logged.log)).length).toBe(before);
    // Nothing written either: not even the lake's folder.
    expect(existsSync(dir)).toBe(false);
    expect(plan.stdout).toContain(`fetch rankings week=${SINCE} (the week's ranking), write rankings/week=${SINCE}/part-0.parquet`);
    // A new lake: the run asks the service's week first, and the plan counts that request too.
    expect(plan.stdout).toMatch(/^plan: 8 fetches, at most 13 requests, current week \d{6} \(assumed from the state and the local clock; a run asks the service for it first: 1 of these requests\), .*; nothing sent$/m);
    // --dry-run, the name other tools give it, is the same plan.
    const dryRun = await sync(dir, '--since', String(SINCE), '--streams', 'rankings,country_stats', '--dry-run', ...OPTIONS);
    expect(dryRun.stdout).toBe(plan.stdout);
    expect((await readLog(logged.log)).length).toBe(before);
    expect(existsSync(dir)).toBe(false);
    const summaryFile = join(tempDir(), 'summary.json');
    await sync(dir, '--since', String(SINCE), '--streams', 'rankings,country_stats', '--summary', summaryFile, ...OPTIONS);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { outcome: string; written: unknown[]; requests: number; currentWeek: number };
    expect(summary).toMatchObject({ outcome: 'ok', currentWeek: CURRENT });
    expect(summary.written).toHaveLength(8);
    expect(summary.requests).toBeGreaterThan(0);
    // "At most", as the plan said: the week, 4 rankings, 2 people's country stats a week.
    expect(summary.requests).toBe(13);
    // The lake now knows the service's week: a plan in the same week says a run would not ask it.
    const again = await sync(dir, '--since', String(SINCE), '--streams', 'rankings,country_stats', '--plan', ...OPTIONS);
    expect(again.stdout).toMatch(/^plan: 0 fetches, at most 0 requests, current week \d{6} \(assumed from the state and the local clock; not asked\), /m);
  });

  it('--summary into a folder that does not exist is refused before any request (exit 6), as --output is', async () => {
    const dir = join(tempDir(), 'lake');
    const before = (await readLog(logged.log)).length;
    const result = await runCli(['sync', dir, '--since', String(SINCE), '--streams', 'rankings', '--summary', join(tempDir(), 'missing', 'summary.json'), ...OPTIONS], { env: logged.env });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/^error: cannot write to .*summary\.json: the directory .*missing does not exist \(ENOENT\)$/m);
    expect((await readLog(logged.log)).length).toBe(before);
    expect(existsSync(dir)).toBe(false);
  });

  it('--summary naming one of the lake\'s own files (its state) is refused before any request: the state stays', async () => {
    const dir = join(tempDir(), 'lake');
    await sync(dir, '--since', String(LAST), '--streams', 'rankings', ...OPTIONS);
    const state = readFileSync(join(dir, '_newsstats_sync.json'));
    const before = (await readLog(logged.log)).length;
    for (const inside of ['_newsstats_sync.json', join('rankings', 'summary.json')]) {
      const result = await runCli(['sync', dir, '--since', String(LAST), '--streams', 'rankings', '--summary', join(dir, inside), ...OPTIONS], { env: logged.env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/^error: --summary .* is one of the lake's own files in /m);
    }
    expect(readFileSync(join(dir, '_newsstats_sync.json')).equals(state)).toBe(true);
    expect((await readLog(logged.log)).length).toBe(before);
    // Beside the lake's own files, the account is the user's to keep there.
    await sync(dir, '--since', String(LAST), '--streams', 'rankings', '--summary', join(dir, 'last-run.json'), ...OPTIONS);
    expect(JSON.parse(readFileSync(join(dir, 'last-run.json'), 'utf8'))).toMatchObject({ outcome: 'ok' });
  });

  it('--plan needs no API key, and matches a country\'s name against the cached countries list only: nothing sent', async () => {
    const dir = join(tempDir(), 'lake');
    const cache = tempDir();
    const env = { ...logged.env, XDG_CACHE_HOME: cache };
    const before = (await readLog(logged.log)).length;
    const plan = (...args: string[]) => runCli(['sync', dir, '--since', String(SINCE), '--streams', 'rankings', '--plan', ...args, ...OPTIONS], { env });
    const keyless = await runCli(['sync', dir, '--since', String(SINCE), '--streams', 'rankings', '--plan', ...OPTIONS], { env: { ...env, NEWSSTATS_API_KEY: undefined, NEWSSTATS_BASE_URL: undefined } });
    expect(keyless.code, keyless.stderr).toBe(0);
    expect(keyless.stdout).toMatch(/^plan: 4 fetches, .*; nothing sent$/m);
    expect((await plan('--country', '276')).code).toBe(0);
    // A name is matched against the list `countries list` caches; with none cached the plan says so.
    const uncached = await plan('--country', 'germany');
    expect(uncached.code).toBe(2);
    expect(uncached.stderr).toMatch(/^error: --plan sends nothing, and no countries list is cached to match the country's name against\nhint: .*newsstats countries list/);
    expect((await readLog(logged.log)).length).toBe(before);
    expect((await runCli(['countries', 'list'], { env })).code).toBe(0);
    const cached = (await readLog(logged.log)).length;
    const named = await plan('--country', 'germany');
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe(keyless.stdout);
    expect((await plan('--country', 'narnia')).stderr).toMatch(/^error: --plan sends nothing, and the country named is not in the cached countries list$/m);
    expect((await readLog(logged.log)).length).toBe(cached);
    expect(existsSync(dir)).toBe(false);
  });

  /** A sync of rankings against a slow sandbox, sent `signal` once a partition has landed. */
  async function syncSignalledAfterAPartition(dir: string, signal: NodeJS.Signals, summaryFile: string) {
    const slow = await sandbox({ now: NOW, latencyMs: 150 });
    try {
      // A process of its own: the signal is the point.
      return await spawnCli(['sync', dir, '--since', String(addWeeks(LAST, -11)), '--streams', 'rankings', '--depth', '3', '--concurrency', '1', '--summary', summaryFile], {
        env: sandboxEnv(slow),
        onSpawn: (child) => {
          const poll = setInterval(() => {
            // A partition has landed (its file renamed into place), not merely its folder been made.
            if (existsSync(join(dir, 'rankings')) && readdirSync(join(dir, 'rankings')).some((week) => existsSync(join(dir, 'rankings', week, 'part-0.parquet')))) {
              clearInterval(poll);
              child.kill(signal);
            }
          }, 5);
          child.on('close', () => clearInterval(poll));
        },
      });
    } finally {
      await slow.close();
    }
  }

  it('SIGTERM ends a run with one line saying what was kept, the lock removed, exit 143; --summary lists the same partitions', async () => {
    const dir = join(tempDir(), 'lake');
    const summaryFile = join(tempDir(), 'summary.json');
    const result = await syncSignalledAfterAPartition(dir, 'SIGTERM', summaryFile);
    expect(result.code, result.stderr).toBe(143);
    const line = /^sync: interrupted: (\d+) partitions? written this run (?:are|is) kept in .*; the next run fetches what is missing$/.exec(result.stderr.trim());
    expect(line, result.stderr).not.toBeNull();
    expect(existsSync(join(dir, '_newsstats_sync.lock'))).toBe(false);
    // The account an orchestrator reads says what the line says, and what the lake holds.
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { outcome: string; currentWeek: number; requests: number; planned: unknown[]; written: Array<{ stream: string; week: number }> };
    expect(summary).toMatchObject({ outcome: 'interrupted', currentWeek: CURRENT });
    expect(summary.planned).toHaveLength(12);
    expect(summary.requests).toBeGreaterThan(0);
    expect(summary.written).toHaveLength(Number(line![1]));
    // The signal came after a partition had landed; each one the account names is in the lake.
    expect(summary.written.length).toBeGreaterThan(0);
    for (const { stream, week } of summary.written) expect(existsSync(join(dir, stream, `week=${week}`, 'part-0.parquet')), `${stream} ${week}`).toBe(true);
  });

  it('SIGKILL leaves --summary saying `running`, never an earlier run\'s account', async () => {
    const summaryFile = join(tempDir(), 'summary.json');
    writeFileSync(summaryFile, JSON.stringify({ outcome: 'ok', written: [] }));
    const result = await syncSignalledAfterAPartition(join(tempDir(), 'lake'), 'SIGKILL', summaryFile);
    expect(result.signal ?? result.code, result.stderr).toBe('SIGKILL');
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({ outcome: 'running', written: [] });
  });

  it('SIGTERM while links wait for their merge removes their scratch file with the lock', async () => {
    const slow = await sandbox({ now: NOW, latencyMs: 100 });
    const dir = join(tempDir(), 'lake');
    const links = join(dir, '_newsstats', 'links');
    const held = () => (existsSync(links) ? readdirSync(links).filter((name) => name.startsWith('.held.ndjson.newsstats-sync-')) : []);
    let seen = false;
    try {
      const result = await spawnCli(['sync', dir, '--since', String(addWeeks(LAST, -11)), '--streams', 'links', '--top', '2', '--links-limit', '3', '--concurrency', '1'], {
        env: sandboxEnv(slow),
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (held().length > 0) {
              seen = true;
              clearInterval(poll);
              child.kill('SIGTERM');
            }
          }, 5);
          child.on('close', () => clearInterval(poll));
        },
      });
      expect(seen).toBe(true);
      expect(result.code, result.stderr).toBe(143);
      expect(held()).toEqual([]);
      expect(existsSync(join(dir, '_newsstats_sync.lock'))).toBe(false);
    } finally {
      await slow.close();
    }
  });

  it("docs/recipes.md's DuckDB queries of a local lake run as written against one", async () => {
    const dir = join(tempDir(), 'lake');
    await sync(dir, '--since', String(LAST), ...OPTIONS);
    const recipes = readFileSync(join(REPO, 'docs', 'recipes.md'), 'utf8');
    const block = /### DuckDB\n\n```sql\n([\s\S]*?)```/.exec(recipes)![1]!;
    // Statements as written, less the comments; those on object storage need a bucket (and httpfs).
    const statements = block.split(';').map((text) => text.replace(/--.*$/gm, '').trim()).filter((text) => text !== '' && !/s3:\/\/|httpfs|SECRET/.test(text));
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const statement of statements) await duckRows(statement.replaceAll("'lake/", sqlText(`${dir}/`).slice(0, -1)));
  });

  it('a partial week written with --include-current is fetched whole once the week has ended', () => {
    const state = withPartitionTaken(emptyState({ depth: 6 }), 'rankings', CURRENT, '2026-01-01T00:00:00Z', true);
    const tasks = planTasks(state, addWeeks(CURRENT, 1), { streams: ['rankings'], since: addWeeks(CURRENT, 1) });
    expect(tasks).toEqual([{ stream: 'rankings', week: CURRENT }]);
  });
});
