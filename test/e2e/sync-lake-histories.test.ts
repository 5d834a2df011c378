/**
 * Randomised lake histories (#33): a lake synced again and again as a team's would be, each run drawn
 * at random (its weeks back, the streams it adds, --include-current, --refresh, the clock a week on),
 * half of them killed with SIGKILL or SIGTERM after a random number of files, in a folder and in
 * object storage (s3rver behind the suite's front: conditional writes, each PUT whole). Then one run
 * that finishes, and the lake is read whole by DuckDB: no row twice, every link in the week its
 * mentionDate names, the state and the files agreeing, no lock or temporary file left. The other lake
 * tests each walk one path; this one walks their combinations. A history that fails names its seed
 * and its runs: NEWSSTATS_HISTORY_SEED=<seed> replays it (the kills land where the files say, so the
 * same runs, though not always the same moments); NEWSSTATS_HISTORY_SHOW=1 prints every history.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addWeeks } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { sandboxEnv, spawnCli, tempDir } from './harness.js';
import { W, download, parquetFiles, stateOf, useLakeServers } from './lake-fixture.js';

const servers = useLakeServers();

/** The query of every run: each stream's options the same whatever streams a run adds. */
const QUERY = ['--depth', '5', '--top', '2', '--links-limit', '4'];
const WEEKLY = ['rankings', 'country_stats', 'links'];
const STREAMS = [...WEEKLY, 'countries', 'sources', 'people'];
/** The earliest week any run asks for: the finishing run asks from it, so no week a run began is left out. */
const EARLIEST = addWeeks(W, -5);

/** A small deterministic generator (LCG), so a seed replays a history's choices. */
function randomFrom(seed: number): () => number {
  let state = seed % 2147483648;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Every file under a folder, by path relative to it. */
function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else found.push(relative(dir, child));
    }
  };
  walk(dir);
  return found;
}

async function expectAWholeLake(dir: string, story: string): Promise<void> {
  const keys: Record<string, string> = { rankings: 'week, personHash', country_stats: 'week, personHash, countryId', links: 'personHash, articleHash' };
  for (const [stream, key] of Object.entries(keys)) {
    const repeated = await duckRows(`SELECT ${key}, count(*) AS n FROM read_parquet(${sqlText(join(dir, stream, '*', '*.parquet'))}, hive_partitioning = true) GROUP BY ALL HAVING count(*) > 1`);
    expect(repeated, `${stream} rows twice\n${story}`).toEqual([]);
  }
  // yearweek: the ISO year and week, as newsstats numbers weeks.
  const misplaced = await duckRows(`SELECT week, mentionDate FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))}, hive_partitioning = true) WHERE week <> yearweek(timezone('UTC', mentionDate)) LIMIT 3`);
  expect(misplaced, `links outside the week their mentionDate names\n${story}`).toEqual([]);
  const [whole] = await duckRows(`SELECT count(*) AS n FROM read_parquet(${sqlText(join(dir, '**', '*.parquet'))}, hive_partitioning = true, union_by_name = true)`);
  expect(Number(whole!.n), story).toBeGreaterThan(0);

  const files = filesUnder(dir);
  const state = stateOf(dir);
  for (const stream of WEEKLY) {
    const entry = state.streams[stream]!;
    const known = new Set([...Object.keys(entry.taken ?? {}), ...(entry.partial ?? []).map(String)]);
    const inLake = files.flatMap((path) => new RegExp(`^${stream}/week=(\\d+)/part-0\\.parquet$`).exec(path)?.[1] ?? []);
    for (const week of Object.keys(entry.taken ?? {})) expect(inLake, `${stream} week ${week} recorded, absent\n${story}`).toContain(week);
    for (const week of inLake) expect(known.has(week), `${stream} week ${week} in the lake, not in the state\n${story}`).toBe(true);
  }
  expect(files.filter((path) => path.endsWith('.lock') || /\.tmp|held\.ndjson/.test(path)), story).toEqual([]);
}

describe('randomised lake histories, killed at random and finished', () => {
  const seed = Number(process.env.NEWSSTATS_HISTORY_SEED ?? Date.now() % 1_000_000);

  for (const where of ['a folder', 'object storage']) {
    it(`${where}: read whole by DuckDB, each row once, in its week, the state and the files agreeing`, async () => {
      const random = randomFrom(seed + (where === 'a folder' ? 0 : 1));
      for (let history = 0; history < 2; history += 1) {
        const prefix = `history-${process.pid}-${seed}-${history}`;
        const lake = where === 'a folder' ? join(tempDir(), 'lake') : `s3://lake/${prefix}`;
        const progress = () => (where === 'a folder'
          ? parquetFiles(lake)
          : servers.s3.requests.filter((line) => line.startsWith(`PUT /lake/${prefix}/`) && line.includes('.parquet')).length);
        const story = [`seed ${seed}, ${where}, history ${history}:`];
        let server = servers.during;
        for (let run = 0, runs = 3 + Math.floor(random() * 4); run < runs; run += 1) {
          if (server === servers.during && random() < 0.3) server = servers.after;
          const streams = STREAMS.filter(() => random() < 0.6);
          const args = ['sync', lake, '--since', String(addWeeks(W, -1 - Math.floor(random() * 5))), '--streams', (streams.length > 0 ? streams : WEEKLY).join(','), ...QUERY];
          if (random() < 0.3) args.push('--include-current');
          if (random() < 0.15) args.push('--refresh', String(addWeeks(W, server === servers.after ? -Math.floor(random() * 3) : -1 - Math.floor(random() * 2))));
          const kill = random() < 0.5 ? { signal: random() < 0.7 ? 'SIGKILL' as const : 'SIGTERM' as const, after: 1 + Math.floor(random() * 8) } : undefined;
          const start = progress();
          const result = await spawnCli(args, {
            env: { ...sandboxEnv(server), ...servers.s3.env },
            onSpawn: kill && ((child) => {
              const poll = setInterval(() => {
                if (progress() - start < kill.after) return;
                clearInterval(poll);
                child.kill(kill.signal);
              }, 1);
              child.on('close', () => clearInterval(poll));
            }),
          });
          story.push(`  ${server === servers.during ? 'during' : 'after '} ${args.slice(2).join(' ')}${kill ? ` (${kill.signal} after ${kill.after} files)` : ''}: ${result.code ?? result.signal} ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
          // A run not killed ends well. One killed had finished (0), or ends with its line (143), or
          // by SIGKILL; a SIGTERM after its last line, while Node exits, is its status too (docs/sync.md).
          const finished = /^sync: (wrote|up to date)/m.test(result.stderr);
          if (kill === undefined) expect(result.code, story.join('\n')).toBe(0);
          else expect(result.code === 0 || result.code === 143 || result.signal === 'SIGKILL' || (result.signal === 'SIGTERM' && finished), story.join('\n')).toBe(true);
        }
        const finishing = await spawnCli(['sync', lake, '--since', String(EARLIEST), '--streams', WEEKLY.join(','), ...QUERY], { env: { ...sandboxEnv(server), ...servers.s3.env } });
        story.push(`  finishing: ${finishing.code} ${finishing.stderr.trim()}`);
        expect(finishing.code, story.join('\n')).toBe(0);
        if (process.env.NEWSSTATS_HISTORY_SHOW) console.log(story.join('\n'));
        await expectAWholeLake(where === 'a folder' ? lake : await download(servers, prefix), story.join('\n'));
      }
      // About a dozen runs: 4-10 s alone, more beside the rest of the suite (44 s beside two CPU
      // hogs on a machine whose `node -e 0` takes 80 ms): a bound for a hang, well above that.
    }, 300_000);
  }
});
