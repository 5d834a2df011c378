#!/usr/bin/env node
// A 200-person country-stats export, four ways in one run, against the sandbox on loopback:
//   newsstats export country-stats --top 200 (concurrency 4, CSV to stdout)
//   node:http floor: the same requests at the same concurrency writing the same CSV
//     (bench/floor-http-export.mjs; checked byte for byte): what any Node program pays
//   undici floor: the same requests with undici, parsed with JSON.parse, writing nothing
//     (bench/floor-undici.mjs): what undici itself costs
//   the sequential curl loop a user would otherwise write (bench/curl-loop.sh)
// Runs alternate so all see the same machine; medians, and ratios paired run by run.
// The sandbox runs twice: with no added latency (loopback, so process start-up dominates), and
// with 20 ms a request, closer to a real service across a network.
//
//   npm run bench:export [-- --runs 5 --top 200]
import { join } from 'node:path';
import { bin, interleave, KEY, numberFlag, repo, startSandbox, timed } from './lib.mjs';

const runs = numberFlag('--runs', 5);
const top = String(numberFlag('--top', 200));
const concurrency = '4';
const [startWeek, endWeek] = ['202644', '202647'];
const node = process.execPath;

async function measure(latency) {
  const { url, stop } = await startSandbox(latency);
  const ways = {
    newsstats: () =>
      timed(node, [bin, 'export', 'country-stats', '--top', top, '--start', startWeek, '--end', endWeek, '--concurrency', concurrency, '-f', 'csv', '-q'], {
        NEWSSTATS_BASE_URL: url,
        NEWSSTATS_API_KEY: KEY,
      }),
    'node:http floor': () => timed(node, [join(repo, 'bench', 'floor-http-export.mjs'), url, KEY, startWeek, endWeek, top, concurrency]),
    'undici floor': () => timed(node, [join(repo, 'bench', 'floor-undici.mjs'), url, KEY, startWeek, endWeek, top, concurrency]),
    'curl loop': () => timed('bash', [join(repo, 'bench', 'curl-loop.sh'), url, KEY, startWeek, endWeek, top]),
  };
  if (!ways.newsstats().stdout.equals(ways['node:http floor']().stdout)) throw new Error('the node:http floor does not write what newsstats writes');
  const result = interleave(ways, runs, 'node:http floor');
  stop();
  return result;
}

console.log(`export of ${top} people's country stats, ${runs} runs each, concurrency ${concurrency}, Node ${process.version}`);
console.log('| sandbox latency | newsstats ms | node:http floor ms | undici floor ms | curl loop ms | newsstats / node:http | newsstats / undici | curl loop / newsstats |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const latency of [0, 20]) {
  const m = await measure(latency);
  const ns = m.newsstats;
  console.log(
    `| ${latency} ms | ${ns.ms.toFixed(0)} | ${m['node:http floor'].ms.toFixed(0)} | ${m['undici floor'].ms.toFixed(0)} | ${m['curl loop'].ms.toFixed(0)} | ` +
      `${ns.ratio.toFixed(2)}x | ${(ns.ratio / m['undici floor'].ratio).toFixed(2)}x | ${(m['curl loop'].ms / ns.ms).toFixed(2)}x |`,
  );
}
