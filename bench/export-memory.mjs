#!/usr/bin/env node
// Live heap during a bulk export, streaming (csv) against buffering (a table, which must hold every
// row to lay it out), for a small and a large export, in one run against the sandbox.
//
//   npm run bench:export-memory     (node --expose-gc bench/export-memory.mjs)
//
// The export runs in this process (the CLI's main()), and a timer forces a full GC every 100 ms and
// records heapUsed: the live heap, not what the collector has yet to reclaim. Streaming output holds
// a bounded window of rows, so its peak should not grow with the export; a buffered table's should.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc (npm run bench:export-memory does)');
  process.exit(2);
}
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await import(join(repo, 'dist', 'cli', 'main.js'));

const server = spawn(process.execPath, [join(repo, 'bin', 'newsstats.js'), 'sandbox', '--port', '0', '--now', '2026-11-22'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((resolve) => server.stdout.setEncoding('utf8').once('data', (line) => resolve(line.trim())));
process.env.NEWSSTATS_BASE_URL = url;
process.env.NEWSSTATS_API_KEY = 'sandbox';
const home = mkdtempSync(join(tmpdir(), 'newsstats-bench-'));
process.env.XDG_CONFIG_HOME = join(home, 'config');
process.env.XDG_CACHE_HOME = join(home, 'cache');

async function peakLiveHeap(top, format) {
  const output = join(home, `export-${top}.${format}`);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    globalThis.gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 100);
  const argv = ['node', 'newsstats', 'export', 'links', '--top', String(top), '--weeks', 'last4', '--limit', '250', '-f', format, '-q', '-o', output];
  const code = await main(argv);
  clearInterval(sampler);
  if (code !== 0) throw new Error(`export failed with ${code}`);
  return (peak - before) / 2 ** 20;
}

console.log(`live heap above the idle baseline during export links --limit 250, Node ${process.version}`);
console.log('| people | csv (streamed) MB | table (buffered) MB |');
console.log('|---:|---:|---:|');
for (const top of [50, 200, 480]) {
  const streamed = await peakLiveHeap(top, 'csv');
  const buffered = await peakLiveHeap(top, 'table');
  console.log(`| ${top} | ${streamed.toFixed(1)} | ${buffered.toFixed(1)} |`);
}
server.kill('SIGTERM');
