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
// Then the wire (#33 item 6): `sync` of --wire-weeks (25) weeks of rankings, country_stats and links at
// depth 100 and top 20, concurrency 4, against bench/sync-replay.mjs replaying the very requests that
// sync made (from the sandbox's log) with node:http at the same concurrency, every body read: the
// median of --runs (3) paired runs, wall and CPU (user + system) ratios, peak RSS (median and largest); and the same
// sync into s3://, a local S3-compatible store (s3rver on loopback), against the local folder.
//
//   npm run bench:sync [-- --weeks 52 --depth 200 --top 100 --wire-weeks 25 --runs 3]
//   npm run bench:sync -- --wire-only --node 24 --node 26   (the wire alone, sync and replay on each Node)
// --node, repeated, runs the wire's sync and replay on each Node named (a path, or a major version for
// the npm registry's node package, as `npx -y node@24` installs it); without it, the Node running this.
// --wire-only leaves out the year, the CSV export and object storage. --store-latency MS delays each
// request to the store by MS, as a real store's round trip does (default 0: loopback).
//   npm run bench:sync -- --weeks 2 --store-latency 40
import { spawn, spawnSync } from 'node:child_process';
import { URLSearchParams } from 'node:url';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bin, benchEnv, home, KEY, median, nodesFromArgs, numberFlag, repo, timed } from './lib.mjs';

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

const wireOnly = process.argv.includes('--wire-only');
const nodes = nodesFromArgs();

if (!wireOnly) {
  const syncArgs = [bin, 'sync', lake, '--since', String(since), '--streams', 'rankings,country_stats', '--depth', String(depth), '--top', String(top), '-q'];
  console.error('bench: sync'); const sync = await counted(() => timed(process.execPath, syncArgs, env));
  const again = await counted(() => timed(process.execPath, syncArgs, env));
  const csv = await counted(() => {
    const runs = [timed(process.execPath, [bin, 'people', 'top', '--weeks', `${since}..${last}`, '--per-week', '--limit', String(depth), '-q', '-o', join(csvDir, 'rankings.csv')], env)];
    for (const week of weekList(since, weeks)) {
      runs.push(timed(process.execPath, [bin, 'export', 'country-stats', '--top', String(top), '--weeks', String(week), '-q', '-o', join(csvDir, `cs-${week}.csv`)], env));
    }
    return { ms: runs.reduce((total, run) => total + run.ms, 0), rssMiB: Math.max(...runs.map((run) => run.rssMiB)), processes: runs.length };
  });
  const row = (name, result, bytes) =>
    `| ${name} | ${result.requests} | ${(result.ms / 1000).toFixed(1)} s | ${result.rssMiB.toFixed(0)} MiB | ${bytes === undefined ? '' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`} |`;
  console.log(`${weeks} weeks (${since}..${last}): rankings to depth ${depth}, country stats of the top ${top}; Node ${process.version}`);
  console.log('| run | requests | wall | peak RSS | on disk |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(row('sync (Parquet)', sync, bytesUnder(lake)));
  console.log(row('sync again (nothing new)', again));
  console.log(row(`CSV export (${csv.processes} processes)`, csv, bytesUnder(csvDir)));
  console.log(`sync / CSV export: ${(sync.ms / csv.ms).toFixed(2)}x the time, ${(sync.requests / csv.requests).toFixed(2)}x the requests`);
  console.log('');
}

console.error('bench: the wire'); const wire = await wireRuns();
console.log(`the wire: ${wire.weeks} weeks of rankings, country_stats and links, depth 100, top 20, concurrency 4: ${wire.requests} requests, ${wire.partitions} partitions; median of ${wire.runs} paired runs (peak RSS: the median, and in brackets the largest: one run's peak moves by up to 8 MiB with when V8's concurrent marking ends)`);
console.log('| Node | sync wall | replay wall | sync / replay, wall | sync CPU | replay CPU | sync / replay, CPU | sync peak RSS | replay peak RSS |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const result of wire.perNode) {
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`| ${result.node.version} | ${s(result.sync.ms)} | ${s(result.replay.ms)} | ${result.wallRatio.toFixed(2)}x | ${s(result.sync.cpuMs)} | ${s(result.replay.cpuMs)} | ${result.cpuRatio.toFixed(2)}x | ${result.sync.peakMiB.toFixed(0)} MiB (${result.sync.largestPeakMiB.toFixed(0)}) | ${result.replay.peakMiB.toFixed(0)} MiB (${result.replay.largestPeakMiB.toFixed(0)}) |`);
}

if (!wireOnly) {
  console.error('bench: s3'); await s3VersusLocal();
  if (s3Result) console.log(`sync to s3:// (s3rver on loopback${s3Result.latency > 0 ? `, ${s3Result.latency} ms a request` : ''}) / sync to a local folder: ${s3Result.ratio.toFixed(2)}x the wall time (${(s3Result.s3 / 1000).toFixed(2)} s against ${(s3Result.local / 1000).toFixed(2)} s)`);
  else console.log('sync to s3://: skipped (s3rver or @aws-sdk/client-s3 is not installed)');
}
for (const dir of wire.lakes) rmSync(dir, { recursive: true, force: true });
stop();

/** A child's wall, CPU (user + system, from GNU time when present) and peak RSS. */
function timedCpu(command, args, env = {}, input) {
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S %M', command, ...args], { env: { ...benchEnv, ...env }, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  const [user, system, rss] = result.stderr.toString().trim().split('\n').at(-1).split(' ').map(Number);
  return { ms, cpuMs: (user + system) * 1000, rssMiB: rss / 1024 };
}

function logLines() {
  try {
    return readFileSync(log, 'utf8').split('\n').filter((line) => line.trim() !== '');
  } catch {
    return [];
  }
}

async function settledLog() {
  let count = logLines().length;
  for (let settled = 0; settled < 3; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = logLines().length;
    settled = now === count ? settled + 1 : 0;
    count = now;
  }
  return logLines();
}

async function wireRuns() {
  const wireWeeks = numberFlag('--wire-weeks', 25);
  const runs = numberFlag('--runs', 3);
  const first = addWeeks(last, -(wireWeeks - 1));
  const args = ['--since', String(first), '--streams', 'rankings,country_stats,links', '--depth', '100', '--top', '20', '--concurrency', '4', '-q'];
  const samples = nodes.map(() => []);
  let requests = 0;
  let partitions = 0;
  // Each run's lake is removed only once every sync of the bench is over (the end of the script): on
  // ext4 without a journal (this project's bench machine) making a file skips every inode freed in
  // the last minute, one by one, so a sync right after the removal of the run before's 370 files and
  // folders paid for it, more with each run (docs/performance.md, "sync", "Files freed a moment
  // before"). A user's sync follows no such removal.
  const lakes = [];
  // Run by run, each Node's sync and then its replay, so all see the same machine load.
  // Two runs before the samples: the first of an install on a Node only makes the code cache's folder,
  // the second writes the caches (bin/code-cache.cjs), the third is the first a user's cron job makes.
  for (let run = 0; run <= runs + 1; run += 1) {
    for (const [index, node] of nodes.entries()) {
      const dir = join(home, `wire-${run}-${index}`);
      lakes.push(dir);
      const before = (await settledLog()).length;
      const sync = timedCpu(node.path, [bin, 'sync', dir, ...args], env);
      const entries = (await settledLog()).slice(before).map((line) => JSON.parse(line));
      const paths = entries.map((entry) => entry.path + (Object.keys(entry.query).length === 0 ? '' : '?' + new URLSearchParams(Object.entries(entry.query).flatMap(([name, value]) => (Array.isArray(value) ? value.map((item) => [name, item]) : [[name, value]]))).toString()));
      requests = paths.length;
      partitions = countParquet(dir);
      const replay = timedCpu(node.path, [join(repo, 'bench', 'sync-replay.mjs'), url, KEY, '4'], {}, paths.join('\n'));
      if (run > 1) samples[index].push({ sync, replay });
    }
  }
  const summary = (list) => ({ ms: median(list.map((s) => s.ms)), cpuMs: median(list.map((s) => s.cpuMs)), peakMiB: median(list.map((s) => s.rssMiB)), largestPeakMiB: Math.max(...list.map((s) => s.rssMiB)) });
  return {
    weeks: wireWeeks,
    runs,
    lakes,
    requests,
    partitions,
    perNode: nodes.map((node, index) => ({
      node,
      sync: summary(samples[index].map((s) => s.sync)),
      replay: summary(samples[index].map((s) => s.replay)),
      wallRatio: median(samples[index].map((s) => s.sync.ms / s.replay.ms)),
      cpuRatio: median(samples[index].map((s) => s.sync.cpuMs / s.replay.cpuMs)),
    })),
  };
}

function countParquet(path) {
  return readdirSync(path, { recursive: true }).filter((name) => String(name).endsWith('.parquet')).length;
}

var s3Result;
async function s3VersusLocal() {
  let S3rver;
  try {
    await import('@aws-sdk/client-s3');
    S3rver = (await import('s3rver')).default;
  } catch {
    return;
  }
  const store = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(home, 's3'), configureBuckets: [{ name: 'lake' }] });
  const { port } = await store.run();
  // --store-latency MS: each request to the store waits MS first, as a real store's round trip does
  // (loopback answers in well under a millisecond, which hides how many round trips a sync waits for).
  const latency = numberFlag('--store-latency', 0);
  const front = latency > 0 ? await delayingFront(port, latency) : undefined;
  const s3env = { ...env, AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${front?.port ?? port}`, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_EC2_METADATA_DISABLED: 'true' };
  const first = addWeeks(last, -(numberFlag('--wire-weeks', 25) - 1));
  const args = ['--since', String(first), '--streams', 'rankings,country_stats,links', '--depth', '100', '--top', '20', '--concurrency', '4', '-q'];
  const ratios = [];
  const times = [];
  for (let run = 0; run < 3; run += 1) {
    const dir = join(home, `local-${run}`);
    rmSync(dir, { recursive: true, force: true });
    const local = await wallOf(process.execPath, [bin, 'sync', dir, ...args], env);
    const remote = await wallOf(process.execPath, [bin, 'sync', `s3://lake/run-${run}`, ...args], s3env);
    ratios.push(remote / local);
    times.push({ local, remote });
  }
  front?.server.close();
  await store.close();
  s3Result = { latency, ratio: median(ratios), s3: median(times.map((t) => t.remote)), local: median(times.map((t) => t.local)) };
}

/** A front of the store on loopback that passes each request on after `ms`. */
async function delayingFront(storePort, ms) {
  const { createServer, request } = await import('node:http');
  const server = createServer((incoming, answer) => {
    setTimeout(() => {
      const upstream = request({ host: '127.0.0.1', port: storePort, method: incoming.method, path: incoming.url, headers: incoming.headers }, (reply) => {
        answer.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(answer);
      });
      upstream.on('error', () => answer.destroy());
      incoming.pipe(upstream);
    }, ms);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: server.address().port };
}

/** A child's wall time, spawned without blocking: the S3 store answering it runs in this process. */
function wallOf(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env: { ...benchEnv, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`${args.join(' ')}: exit ${code}: ${stderr}`))));
  });
}
