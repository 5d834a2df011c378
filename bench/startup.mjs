#!/usr/bin/env node
// Startup cost of the CLI on each Node given, as ratios to that Node's own `node -e 0`, all in one run
// (these machines are noisy; a ratio taken side by side is stable where milliseconds are not).
//
//   npm run bench:startup [-- --runs 30] [-- --node PATH|MAJOR ...] [-- --exe build/newsstats] [-- --cold] [-- --cpu]
// (--cold: every run with an empty cache folder; --cpu: CPU time, Linux perf's task-clock, not wall time)
//
// --node, repeated, names each Node to measure: a path, or a major version for the npm registry's node
// package (`--node 24 --node 26`); without it, the Node running this. --exe adds the standalone
// executable (npm run build:exe) beside the installed package run by the last --node, which should be
// the Node it was built on. Every command of every Node runs in turn, run by run, after two warm-up
// rounds; each ratio is the median of ratios taken run by run. Needs the build (npm install runs it).
import { statSync } from 'node:fs';
import { bin, cacheEnv, cold, median, nodesFromArgs, numberFlag, pairedRatio, sampleRuns, table, timed } from './lib.mjs';

const runs = numberFlag('--runs', 30);
const exeFlag = process.argv.indexOf('--exe');
const exe = exeFlag > 0 ? process.argv[exeFlag + 1] : undefined;
const nodes = nodesFromArgs();

const cases = [
  ['newsstats --version', ['--version']],
  ['newsstats --help', ['--help']],
  ['newsstats config path', ['config', 'path']],
  ['newsstats people top --help', ['people', 'top', '--help']],
];

const ways = {};
for (const { path, label } of nodes) {
  ways[`${label}: node -e 0`] = () => timed(path, ['-e', '0']);
  for (const [name, args] of cases) ways[`${label}: ${name}`] = () => timed(path, [bin, ...args], cacheEnv());
}
if (exe) for (const [name, args] of cases) ways[`executable: ${name}`] = () => timed(exe, args);

const samples = sampleRuns(ways, runs);
const ms = (name) => median(samples[name].map((sample) => sample.ms));
const rss = (name) => median(samples[name].map((sample) => sample.rssMiB));

console.log(`startup, ${runs} runs each; each Node against its own \`node -e 0\`, ratios paired run by run${cold ? '; every newsstats run with an empty cache folder' : ''}${process.argv.includes('--cpu') ? '; CPU time (task-clock), not wall time' : ''}`);
console.log(table(['figure', ...nodes.map(({ label }) => label)], [
  ['`node -e 0` ms', ...nodes.map(({ label }) => ms(`${label}: node -e 0`).toFixed(1))],
  ...cases.map(([name]) => [`\`${name}\` / \`node -e 0\``, ...nodes.map(({ label }) => {
    const ratio = pairedRatio(samples[`${label}: ${name}`], samples[`${label}: node -e 0`]);
    return `${ratio.toFixed(2)}x (${ms(`${label}: ${name}`).toFixed(1)} ms)`;
  })]),
  ['peak RSS, `people top --help` MiB', ...nodes.map(({ label }) => rss(`${label}: newsstats people top --help`).toFixed(0))],
]));

if (exe) {
  const { path, label } = nodes.at(-1);
  const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`\nthe executable (${exe}, ${mib(statSync(exe).size)} MiB) against the installed package on ${label} (its node binary ${mib(statSync(path).size)} MiB)`);
  console.log(table(['command', 'executable / installed', 'executable ms', 'installed ms', 'executable peak RSS MiB', 'installed peak RSS MiB'],
    cases.map(([name]) => [`\`${name}\``, `${pairedRatio(samples[`executable: ${name}`], samples[`${label}: ${name}`]).toFixed(2)}x`,
      ms(`executable: ${name}`).toFixed(1), ms(`${label}: ${name}`).toFixed(1), rss(`executable: ${name}`).toFixed(0), rss(`${label}: ${name}`).toFixed(0)])));
}
