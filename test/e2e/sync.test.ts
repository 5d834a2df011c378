/**
 * `newsstats sync` against the sandbox over real HTTP: partitions read back with DuckDB and compared
 * row for row with `people top`; a second run makes no request; --refresh rewrites one week; a run
 * killed with SIGKILL at several points and resumed ends byte-identical to one never interrupted;
 * partitions that fail are left for the next run, exit 7, under several failure patterns.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { duckRows, duckTypes, readParquet, sqlText } from '../duckdb.js';
import { rawGet, readLog, runCli, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';

// The sandbox's clock is the real one here: the local clock then agrees on the current week, as it
// would in use, and a run with nothing to fetch asks nothing at all.
const NOW = new Date();
const CURRENT = isoWeekOf(NOW);
const LAST = addWeeks(CURRENT, -1);
const SINCE = addWeeks(LAST, -2);
const WEEKS = [SINCE, addWeeks(SINCE, 1), LAST];
const SMALL = ['--since', String(SINCE), '--depth', '12', '--top', '2', '--links-limit', '3'];

let server: RunningSandbox;
let log: string;
let env: Record<string, string>;
beforeAll(async () => {
  log = join(tempDir('newsstats-log-'), 'requests.jsonl');
  server = await sandbox({ now: NOW, logFile: log });
  env = sandboxEnv(server);
});
afterAll(async () => {
  await server?.close();
});

/** The state less the times its partitions were taken: what two runs at different moments share. */
function stateWithoutTimes(text: string): string {
  const state = JSON.parse(text) as { streams: Record<string, { taken?: Record<string, string> }> };
  for (const stream of Object.values(state.streams)) if (stream.taken) stream.taken = Object.fromEntries(Object.keys(stream.taken).map((week) => [week, 'T']));
  return JSON.stringify(state);
}

/** Every file under a folder, by relative path, with its bytes (the state's without its times). */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else if (name === '_newsstats_sync.json') files.set(relative(dir, child), Buffer.from(stateWithoutTimes(readFileSync(child, 'utf8'))));
      else files.set(relative(dir, child), readFileSync(child));
    }
  };
  walk(dir);
  return files;
}

function expectSameFiles(actual: Map<string, Buffer>, expected: Map<string, Buffer>): void {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [path, bytes] of expected) expect(actual.get(path)!.equals(bytes), path).toBe(true);
}

let reference: { dir: string; files: Map<string, Buffer> } | undefined;

/** One uninterrupted run of SMALL into a fresh folder: what every resumed run must equal. */
async function referenceRun() {
  if (!reference) {
    const dir = join(tempDir(), 'lake');
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect([result.code, result.stdout]).toEqual([0, '']);
    reference = { dir, files: snapshot(dir) };
  }
  return reference;
}

describe('sync', () => {
  it('writes hive partitions that DuckDB reads, row for row the same as people top', async () => {
    const { dir, files } = await referenceRun();
    for (const week of WEEKS) {
      for (const stream of ['rankings', 'country_stats']) expect(files.has(join(stream, `week=${week}`, 'part-0.parquet')), `${stream} ${week}`).toBe(true);
    }
    // Reference tables by the week they were taken: every file of the lake sits under week=, so one glob reads it whole.
    for (const stream of ['people', 'countries', 'sources']) expect(files.has(join(stream, `week=${CURRENT}`, 'part-0.parquet')), stream).toBe(true);
    expect([...files.keys()].filter((path) => path.endsWith('.parquet') && !/^[a-z_]+\/week=\d{6}\/part-0\.parquet$/.test(path))).toEqual([]);
    expect(files.has('_newsstats_sync.lock')).toBe(false);
    expect(files.has(join(`rankings`, `week=${CURRENT}`, 'part-0.parquet'))).toBe(false);

    const glob = sqlText(join(dir, 'rankings', '*', '*.parquet'));
    const types = await duckTypes(`SELECT * FROM read_parquet(${glob}, hive_partitioning = true)`);
    expect(types).toMatchObject({
      rank: 'DECIMAL(38,0)', personHash: 'VARCHAR', mentionCount: 'DECIMAL(38,0)', dominance: 'DOUBLE', birthDate: 'TIMESTAMP WITH TIME ZONE', week: 'BIGINT',
    });
    for (const week of WEEKS) {
      const top = await runCli(['people', 'top', '--weeks', String(week), '--limit', '12', '-f', 'json'], { env });
      const expected = JSON.parse(top.stdout) as Array<Record<string, unknown>>;
      // The sandbox's own answers carry no field beyond the contract: nothing in _extra.
      const rows = await duckRows(`SELECT * EXCLUDE (week, _extra) FROM read_parquet(${glob}, hive_partitioning = true) WHERE week = ${week} AND _extra IS NULL ORDER BY rank`);
      expect(rows.length).toBe(12);
      rows.forEach((row, index) => {
        const want = expected[index]!;
        expect(Object.keys(row)).toEqual(Object.keys(want).filter((key) => key in types));
        for (const [field, value] of Object.entries(row)) {
          const sent = want[field];
          if (types[field] === 'DECIMAL(38,0)') expect(value, field).toBe(String(sent));
          else if (types[field] === 'DOUBLE') expect(value, field).toBe(sent);
          else if (types[field] === 'TIMESTAMP WITH TIME ZONE') expect(value === null ? null : String(value).replace(' ', 'T').replace(/\+00$/, ''), field).toBe(sent);
          else if (Array.isArray(sent)) expect(JSON.parse(String(value)), field).toEqual(sent);
          else expect(value, field).toBe(sent);
        }
      });
    }
    // Links: every articleHash exact, as the API sent it.
    const linkFile = [...files.keys()].find((path) => path.startsWith('links/') && path.endsWith('.parquet'))!;
    const links = await readParquet(join(dir, linkFile));
    const first = links[0]!;
    const raw = await (await fetch(`${server.url}/api/data/people/${String(first.personHash)}/links?limit=3`, { headers: { 'X-Api-Key': server.key } })).text();
    expect(raw).toContain(`"articleHash":${String(first.articleHash)}`);
    const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8'));
    expect(state.streams.rankings.weeks).toEqual(WEEKS);
    expect(state.currentWeek).toBe(CURRENT);
  });

  it('a --since the service has not reached yet: up to date, and one line says why (no completed week of it yet)', async () => {
    const dir = join(tempDir(), 'lake');
    const ahead = addWeeks(CURRENT, 2);
    const summary = join(tempDir(), 'summary.json');
    const result = await runCli(['sync', dir, '--since', String(ahead), '--streams', 'rankings', '--summary', summary], { env });
    expect(result.code, result.stderr).toBe(0);
    const line = `sync: --since ${ahead} is after the last completed week, ${addWeeks(CURRENT, -1)}: no week of it to fetch yet`;
    expect(result.stderr).toContain(`${line}\n`);
    expect(result.stderr).toMatch(/^sync: up to date, 1 request, /m);
    // The same in --summary, for a run with -q.
    expect(JSON.parse(readFileSync(summary, 'utf8'))).toMatchObject({ outcome: 'ok', notes: [line] });
    // The current week with --include-current is a week to fetch: no such line.
    const current = await runCli(['sync', join(tempDir(), 'lake'), '--since', String(CURRENT), '--streams', 'rankings', '--include-current'], { env });
    expect(current.code, current.stderr).toBe(0);
    expect(current.stderr).not.toMatch(/no week of it to fetch yet/);
  });

  it('a lake under /proc (a folder that takes no new one) ends at once: exit 6, one line saying what /proc is', async () => {
    if (!existsSync('/proc/self')) return;
    const result = await runCli(['sync', '/proc/newsstats-lake', ...SMALL], { env });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toBe("error: cannot write to /proc/newsstats-lake: /proc exists but cannot hold a folder: it is the kernel's process file system (proc), not a regular file system (ENOENT)\n");
  }, 15_000);

  it('a links merge journal cut short (empty) or not JSON is refused with the way out, which ends with the same files', async () => {
    const { files } = await referenceRun();
    for (const text of ['', '{"weeks":[2026']) {
      const dir = join(tempDir(), 'lake');
      expect((await runCli(['sync', dir, ...SMALL], { env })).code).toBe(0);
      // Read as "no merge", such a journal left a merge it named unfinished.
      writeFileSync(join(dir, '_newsstats', 'links', 'merging.json'), text);
      const refused = await runCli(['sync', dir, ...SMALL], { env });
      expect(refused.code, text).toBe(2);
      expect(refused.stderr, text).toMatch(new RegExp(`^error: \\S+/_newsstats/links/merging\\.json is ${text === '' ? 'empty: a write to it was cut short' : 'not JSON'}.*: remove the links folders \\(links/ and _newsstats/links/\\) and run again, which fetches every week's links anew\\n$`));
      rmSync(join(dir, 'links'), { recursive: true });
      rmSync(join(dir, '_newsstats', 'links'), { recursive: true });
      expect((await runCli(['sync', dir, ...SMALL], { env })).code, text).toBe(0);
      expectSameFiles(snapshot(dir), files);
    }
  });

  it('a second run makes no request and changes nothing; --refresh fetches one week again', async () => {
    const { dir, files } = await referenceRun();
    const before = (await readLog(log)).length;
    const again = await runCli(['sync', dir, ...SMALL], { env });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/^sync: up to date, 0 requests, /m);
    expect((await readLog(log)).length).toBe(before);
    expectSameFiles(snapshot(dir), files);

    const refresh = await runCli(['sync', dir, ...SMALL, '--refresh', String(SINCE), '--streams', 'rankings'], { env });
    expect(refresh.code).toBe(0);
    const asked = (await readLog(log)).slice(before);
    expect(asked.map((entry) => `${entry.path}?${String(entry.query.startWeek)}`)).toEqual([`/api/data/people/top?${SINCE}`]);
    // One week is one week, not a range of it (#31: `wrote 6 partitions (1 weeks 202645..202645)`).
    expect(refresh.stderr).toMatch(new RegExp(`^sync: wrote 1 partition \\(1 week ${SINCE}\\), 1 request, `, 'm'));
    expectSameFiles(snapshot(dir), files);
  });

  it('refuses a folder synced with another query, before any request', async () => {
    const { dir } = await referenceRun();
    const before = (await readLog(log)).length;
    const result = await runCli(['sync', dir, ...SMALL, '--depth', '20'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/holds rankings with depth 12 \(now 20\): give the same options, leave those streams out \(--streams\), or sync into a new folder/);
    expect((await readLog(log)).length).toBe(before);
  });

  it('killed with SIGKILL at several points, then resumed: byte-identical to a run never interrupted', async () => {
    const { files } = await referenceRun();
    const dir = join(tempDir(), 'lake');
    // Kill after 1 and 6 of the 12 partitions have landed: each resume goes on from there.
    for (const landed of [1, 6]) {
      // A process of its own: SIGKILL, mid-write, is the point.
      const result = await spawnCli(['sync', dir, ...SMALL, '--concurrency', '2'], {
        env,
        onSpawn: (child) => {
          const poll = setInterval(() => {
            const statePath = join(dir, '_newsstats_sync.json');
            const state = existsSync(statePath) ? readFileSync(statePath, 'utf8') : '';
            const count = (state.match(/"\d{6}": "\d{4}-/g) ?? []).length;
            if (count >= landed) {
              clearInterval(poll);
              child.kill('SIGKILL');
            }
          }, 2);
          child.on('close', () => clearInterval(poll));
        },
      });
      expect(result.signal === 'SIGKILL' || result.code === 0, `kill after ${landed}: ${result.stderr}`).toBe(true);
    }
    // Only the kills need a process; the resume that follows them runs in-process.
    const resumed = await runCli(['sync', dir, ...SMALL], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expectSameFiles(snapshot(dir), files);
  });

  /**
   * Requests sent to a flaky sandbox before the sync. The sandbox draws one fault decision per
   * request, in arrival order, from its seed; sending k requests first shifts the failure pattern
   * over the same data. (Another seed would not do: the seed chooses the data too, so a lake synced
   * from a sandbox of seed 4 differs from the reference, of seed 1, in every partition that landed;
   * that, not the lake, was why the test failed with seeds 2 and 4.) These offsets give, at
   * concurrency 1: reference tables failing (0); a week's ranking failing, and so its country stats
   * and links (1, 11); one person's country stats failing under a ranking that landed (4); one
   * person's links failing under a ranking that landed (7).
   */
  const FAULT_OFFSETS = [0, 1, 4, 7, 11];

  it('partitions that fail after retries are left for the next run: exit 7, what landed is the clean run\'s, the rerun converges', async () => {
    const { dir: cleanDir, files } = await referenceRun();
    const failedSeen: string[][] = [];
    for (const offset of FAULT_OFFSETS) {
      const flaky = await sandbox({ now: NOW, failRate: 0.36 });
      const dir = join(tempDir(), 'lake');
      try {
        for (let sent = 0; sent < offset; sent++) await rawGet(flaky, 'weeks/current').catch(() => undefined);
        const first = await runCli(['sync', dir, ...SMALL, '--retries', '0', '--concurrency', '1'], { env: sandboxEnv(flaky) });
        expect(first.code, `offset ${offset}: ${first.stderr}`).toBe(7);
        const failed = /partitions? failed after retries \((.*)\); .*run sync again/.exec(first.stderr);
        expect(failed, first.stderr).not.toBeNull();
        failedSeen.push(failed![1]!.split(', '));
      } finally {
        await flaky.close();
      }
      for (const [path, bytes] of snapshot(dir)) {
        if (!path.endsWith('.parquet')) continue;
        if (!path.startsWith('links/')) {
          // Written from one ranking and one week's answers, whole or not at all: the clean run's bytes.
          expect(bytes.equals(files.get(path)!), `offset ${offset}: ${path}`).toBe(true);
          continue;
        }
        // A links partition holds the links of its mentionDate's week that every week synced so far
        // found: it lands with what the weeks that did not fail found, and grows as the others land
        // (as it does when weeks are backfilled). So its rows are the clean run's, some of them, in
        // the same order; the weeks whose links failed are not recorded, and the rerun fetches them.
        const rowsOf = async (lake: string) => (await readParquet(join(lake, path))).map((row) => JSON.stringify(row));
        const clean = await rowsOf(cleanDir);
        const landed = await rowsOf(dir);
        expect(landed.length, `offset ${offset}: ${path}`).toBeGreaterThan(0);
        expect(landed, `offset ${offset}: ${path}`).toEqual(clean.filter((row) => landed.includes(row)));
      }
      const second = await runCli(['sync', dir, ...SMALL], { env });
      expect(second.code, second.stderr).toBe(0);
      expectSameFiles(snapshot(dir), files);
    }
    // Every failure the lake tells apart happened in at least one run.
    const all = failedSeen.flat();
    const weekOf = (name: string) => / week=(\d+)$/.exec(name)?.[1];
    expect(all.some((name) => !name.includes(' week='))).toBe(true);
    expect(all.some((name) => name.startsWith('rankings '))).toBe(true);
    for (const stream of ['country_stats', 'links']) {
      const alone = failedSeen.some((run) => run.some((name) => name.startsWith(`${stream} `) && !run.includes(`rankings week=${weekOf(name)}`)));
      expect(alone, `${stream} failing under a ranking that landed`).toBe(true);
    }
  });
});
