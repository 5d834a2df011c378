#!/usr/bin/env node
/**
 * Peak memory and time to parse one large answer, newsstats' parser (src/api/json.ts) against
 * lossless-json's, each in a fresh process so neither sees the other's garbage. Prints the ratio.
 *
 *   npm run bench:parse [-- MiB]      (default 15, just under the default --max-response-mb)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadSource } from './lib.mjs';

const mib = Number(process.argv[2] ?? 15);
const script = fileURLToPath(import.meta.url);

if (process.argv[3] === '--child') {
  const which = process.argv[4];
  const item = JSON.stringify({ countryId: 1, countryName: 'x'.repeat(200), countryIso: 'XX', score: 1.50 });
  const text = `[${Array(Math.floor((mib * 1024 * 1024) / (item.length + 1))).fill(item).join(',')}]`;
  const { parseJson } = await loadSource('api/json.ts');
  const { parse: losslessParse } = await import('lossless-json');
  const parse = which === 'newsstats' ? (body) => parseJson(body, 'lossless') : (body) => losslessParse(body);
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const value = parse(text);
  const ms = performance.now() - started;
  // Parsing is synchronous and RSS seldom shrinks: read right after, it holds the peak.
  const peak = process.memoryUsage().rss;
  process.stdout.write(JSON.stringify({ rows: value.length, ms, growthMb: (peak - before) / 1048576 }));
} else {
  const run = (which) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', script, String(mib), '--child', which], { encoding: 'utf8' }));
  const ours = run('newsstats');
  const theirs = run('lossless-json');
  const line = (name, r) => `${name.padEnd(14)} ${r.rows} rows  ${r.ms.toFixed(0).padStart(6)} ms  +${r.growthMb.toFixed(0).padStart(5)} MB RSS`;
  console.log(`parsing a ${mib} MiB answer (lossless numbers)`);
  console.log(line('newsstats', ours));
  console.log(line('lossless-json', theirs));
  console.log(`memory: ${(theirs.growthMb / ours.growthMb).toFixed(1)}x less, time: ${(theirs.ms / ours.ms).toFixed(1)}x faster`);
}
