#!/usr/bin/env node
// A year of weekly data as a cron job would fetch it, against the sandbox in its own process, in one run:
//   sync      `newsstats sync DIR --streams rankings,country_stats --depth 200 --top 100` over the
//             52 completed weeks before the sandbox's current week: Parquet partitions
//   again     the same sync run a second time: what a weekly cron run costs when nothing is new
//   csv       the same data exported as CSV the way a cron job does it today: one `people top
//             --per-week --limit 200 -o rankings.csv` and one `export country-stats --top 100
//             --weeks W -o cs-W.csv` per week (53 processes)
// Printed: requests (the sandbox's request log), wall seconds, peak RSS (GNU time; for csv the largest
// of its processes), bytes on disk, and sync's time as a ratio of the CSV export's.
//
//   npm run bench:sync [-- --weeks 52 --depth 200 --top 100]
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bin, home, KEY, numberFlag, timed } from './lib.mjs';

const weeks = numberFlag('--weeks', 52);
const depth = numberFlag('--depth', 200);
const top = numberFlag('--top', 100);
const NOW = '2026-11-22'; // the sandbox's current week is 202647: the year is 202547..202646
const log = join(home, 'requests.jsonl');

function startLoggedSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--now', NOW, '--key', KEY, '--log', log], { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').once('data', (line) => resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') }));
    child.once('error', reject);
  });
}

const requestCount = () => {
  try {
    return readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '').length;
  } catch {
    return 0;
  }
};

/** Requests logged while `run` ran (the log is appended as answers go out: wait for it to settle). */
async function counted(run) {
  const before = requestCount();
  const result = run();
  let count = requestCount();
  for (let settled = 0; settled < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = requestCount();
    settled = now === count ? settled + 1 : 0;
    count = now;
  }
  return { ...result, requests: count - before };
}

function bytesUnder(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.size;
  return readdirSync(path).reduce((total, name) => total + bytesUnder(join(path, name)), 0);
}

// ISO week arithmetic from the built library itself (the package imports itself by name).
const { addWeeks } = await import('newsstats');
const weekList = (first, count) => Array.from({ length: count }, (_, index) => addWeeks(first, index));

const { url, stop } = await startLoggedSandbox();
const env = { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: KEY };
const last = 202646;
const since = addWeeks(last, -(weeks - 1));
const lake = join(home, 'lake');
const csvDir = join(home, 'csv');
rmSync(lake, { recursive: true, force: true });
mkdirSync(csvDir, { recursive: true });

const syncArgs = [bin, 'sync', lake, '--since', String(since), '--streams', 'rankings,country_stats', '--depth', String(depth), '--top', String(top), '-q'];
const sync = await counted(() => timed(process.execPath, syncArgs, env));
const again = await counted(() => timed(process.execPath, syncArgs, env));

const csv = await counted(() => {
  const runs = [timed(process.execPath, [bin, 'people', 'top', '--weeks', `${since}..${last}`, '--per-week', '--limit', String(depth), '-q', '-o', join(csvDir, 'rankings.csv')], env)];
  for (const week of weekList(since, weeks)) {
    runs.push(timed(process.execPath, [bin, 'export', 'country-stats', '--top', String(top), '--weeks', String(week), '-q', '-o', join(csvDir, `cs-${week}.csv`)], env));
  }
  return { ms: runs.reduce((total, run) => total + run.ms, 0), rssMiB: Math.max(...runs.map((run) => run.rssMiB)), processes: runs.length };
});
stop();

const row = (name, result, bytes) =>
  `| ${name} | ${result.requests} | ${(result.ms / 1000).toFixed(1)} s | ${result.rssMiB.toFixed(0)} MiB | ${bytes === undefined ? '' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`} |`;
console.log(`${weeks} weeks (${since}..${last}): rankings to depth ${depth}, country stats of the top ${top}; Node ${process.version}`);
console.log('| run | requests | wall | peak RSS | on disk |');
console.log('|---|---:|---:|---:|---:|');
console.log(row('sync (Parquet)', sync, bytesUnder(lake)));
console.log(row('sync again (nothing new)', again));
console.log(row(`CSV export (${csv.processes} processes)`, csv, bytesUnder(csvDir)));
console.log(`sync / CSV export: ${(sync.ms / csv.ms).toFixed(2)}x the time, ${(sync.requests / csv.requests).toFixed(2)}x the requests`);
