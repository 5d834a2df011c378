#!/usr/bin/env node
// Live heap of a streamed xlsx export against the same export as csv, in one run against the sandbox:
// an xlsx sheet is committed row by row through exceljs's WorkbookWriter, so its peak should stay
// flat as the export grows, as csv's does. (bench:export-memory measures the other formats the same way.)
//
//   npm run bench:xlsx-memory     (node --expose-gc bench/xlsx-memory.mjs)
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  console.error('run with --expose-gc (npm run bench:xlsx-memory does)');
  process.exit(2);
}
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main, processIo } = await import(join(repo, 'dist', 'cli', 'main.js'));

const server = spawn(process.execPath, [join(repo, 'bin', 'newsstats.cjs'), 'sandbox', '--port', '0', '--now', '2026-11-22'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((resolve) => server.stdout.setEncoding('utf8').once('data', (line) => resolve(line.trim())));
Object.assign(process.env, { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: 'sandbox' });
const home = mkdtempSync(join(tmpdir(), 'newsstats-bench-'));
Object.assign(process.env, { XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') });

async function peakLiveHeap(top, format) {
  const output = join(home, `links-${top}.${format}`);
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    globalThis.gc();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 100);
  const started = performance.now();
  const code = await main(['node', 'newsstats', 'export', 'links', '--top', String(top), '--weeks', 'last4', '--limit', '250', '-q', '-o', output], processIo(process));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (code !== 0) throw new Error(`export failed with ${code}`);
  return { mb: (peak - before) / 2 ** 20, seconds, bytes: statSync(output).size };
}

console.log(`live heap above the idle baseline during export links --limit 250, Node ${process.version}`);
console.log('| people | csv MB | xlsx MB | xlsx/csv heap | xlsx/csv time | file size xlsx/csv |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const top of [50, 480]) {
  const csv = await peakLiveHeap(top, 'csv');
  const xlsx = await peakLiveHeap(top, 'xlsx');
  console.log(`| ${top} | ${csv.mb.toFixed(1)} | ${xlsx.mb.toFixed(1)} | ${(xlsx.mb / csv.mb).toFixed(2)} | ${(xlsx.seconds / csv.seconds).toFixed(2)} | ${(xlsx.bytes / csv.bytes).toFixed(2)} |`);
}
server.kill('SIGTERM');
