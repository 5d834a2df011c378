#!/usr/bin/env node
// A 200-person country-stats export, three ways in one run, against the sandbox on loopback:
//   newsstats export country-stats --top 200 (concurrency 4, CSV to /dev/null)
//   the sequential curl loop a user would otherwise write (bench/curl-loop.sh)
//   a minimal undici script with the same concurrency: the floor (bench/floor-undici.mjs)
// Runs alternate so all three see the same machine; medians and ratios are printed.
// The sandbox runs twice: with no added latency (loopback, so process start-up dominates), and
// with 20 ms a request, closer to a real service across a network.
//
//   npm run bench:export [-- --runs 5 --top 200]
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(repo, 'bin', 'newsstats.js');
const flag = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};
const runs = flag('--runs', 5);
const top = flag('--top', 200);
const concurrency = 4;
const [startWeek, endWeek] = ['202644', '202647'];
const home = mkdtempSync(join(tmpdir(), 'newsstats-bench-'));

function startSandbox(latency) {
  return new Promise((resolve, reject) => {
    const args = [bin, 'sandbox', '--port', '0', '--now', '2026-11-22', '--key', 'bench-key'];
    if (latency > 0) args.push('--latency', String(latency));
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').once('data', (line) => resolve({ url: line.trim(), child }));
    child.once('error', reject);
  });
}

function timed(command, args, env = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, {
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: result.stdout.length };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(latency) {
  const { url, child } = await startSandbox(latency);
  const ways = {
    newsstats: () =>
      timed(process.execPath, [bin, 'export', 'country-stats', '--top', String(top), '--start', startWeek, '--end', endWeek, '--concurrency', String(concurrency), '-f', 'csv', '-q'], {
        NEWSSTATS_BASE_URL: url,
        NEWSSTATS_API_KEY: 'bench-key',
      }),
    'curl loop': () => timed('bash', [join(repo, 'bench', 'curl-loop.sh'), url, 'bench-key', startWeek, endWeek, String(top)]),
    'undici floor': () => timed(process.execPath, [join(repo, 'bench', 'floor-undici.mjs'), url, 'bench-key', startWeek, endWeek, String(top), String(concurrency)]),
  };
  const times = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  for (const run of Array.from({ length: runs + 1 }, (_, index) => index)) {
    for (const [name, way] of Object.entries(ways)) {
      const { ms } = way();
      if (run > 0) times[name].push(ms); // run 0 warms the sandbox's caches and the file system
    }
  }
  child.kill('SIGTERM');
  const medians = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));
  return medians;
}

console.log(`export of ${top} people's country stats, ${runs} runs each, concurrency ${concurrency}, Node ${process.version}`);
console.log('| sandbox latency | newsstats ms | curl loop ms | undici floor ms | newsstats / floor | curl loop / newsstats |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const latency of [0, 20]) {
  const m = await measure(latency);
  console.log(
    `| ${latency} ms | ${m.newsstats.toFixed(0)} | ${m['curl loop'].toFixed(0)} | ${m['undici floor'].toFixed(0)} | ${(m.newsstats / m['undici floor']).toFixed(2)}x | ${(m['curl loop'] / m.newsstats).toFixed(2)}x |`,
  );
}
