#!/usr/bin/env node
// Startup cost of the CLI, as ratios to `node -e 0` measured in the same run (these machines are
// noisy; a ratio taken side by side is stable where milliseconds are not).
//
//   npm run bench:startup [-- --runs 30]
//
// Each command is run alternately with the baseline so both see the same machine load. Reports the
// median wall time and the median ratio. Needs the build (npm install runs it).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(repo, 'bin', 'newsstats.cjs');
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 30;
const home = mkdtempSync(join(tmpdir(), 'newsstats-bench-'));
const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };

const cases = [
  ['newsstats --version', [bin, '--version']],
  ['newsstats --help', [bin, '--help']],
  ['newsstats config path', [bin, 'config', 'path']],
  ['newsstats people top --help', [bin, 'people', 'top', '--help']],
];

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

// Warm the file system cache so the first case is not penalised.
for (let warm = 0; warm < 3; warm += 1) for (const [, args] of cases) timeOnce(args);

console.log(`startup, ${runs} runs each, Node ${process.version}, baseline \`node -e 0\``);
console.log('| command | median ms | baseline ms | ratio |');
console.log('|---|---:|---:|---:|');
for (const [label, args] of cases) {
  const commandTimes = [];
  const baselineTimes = [];
  const ratios = [];
  for (let run = 0; run < runs; run += 1) {
    const baseline = timeOnce(['-e', '0']);
    const command = timeOnce(args);
    baselineTimes.push(baseline);
    commandTimes.push(command);
    ratios.push(command / baseline);
  }
  console.log(`| \`${label}\` | ${median(commandTimes).toFixed(1)} | ${median(baselineTimes).toFixed(1)} | ${median(ratios).toFixed(2)}x |`);
}
