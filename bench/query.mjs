#!/usr/bin/env node
// One query, `newsstats people top --weeks last4 --format json` (two requests), against a warm sandbox
// on loopback, on each Node given, beside what else could make the same two requests and print the
// same bytes:
//   node -e 0            the start-up of any Node program: the baseline of every ratio
//   node:http script     the floor for a Node program (bench/query-http.mjs)
//   undici script        undici as it is, without the CLI (bench/query-undici.mjs)
//   dispatcher script    undici as the CLI loads it: its dispatchers bundled as dist/ bundles them,
//                        with the compile cache (bench/query-dispatcher.mjs): the floor on undici
//   curl + jq            what a shell user would run (bench/query-curl.sh), when both are installed
//   executable           the standalone executable (npm run build:exe), with --exe PATH
//   another version      a built checkout of another commit (git worktree add DIR COMMIT; npm ci;
//                        npm run build), with --against DIR: before/after figures in one run
// Every command runs in turn, run by run, after two warm-up rounds; medians of wall time, of ratios
// taken run by run, and of peak RSS (GNU time).
//
//   npm run bench:query [-- --runs 30] [-- --node PATH|MAJOR ...] [-- --exe build/newsstats] [-- --against DIR] [-- --cold] [-- --cpu]
//
// --cold gives every newsstats run an empty cache folder (a cron job in a fresh container); --cpu
// compares CPU time (Linux perf's task-clock) instead of wall time, for a machine shared with other jobs.
//
// --node, repeated, names each Node to measure: a path, or a major version for the npm registry's node
// package (`--node 24 --node 26`); without it, the Node running this. The sandbox runs on this Node.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { withoutHttp2 } from '../scripts/build.mjs';
import { bin, cacheEnv, cold, home, KEY, median, nodesFromArgs, numberFlag, pairedRatio, repo, sampleRuns, startSandbox, table, timed } from './lib.mjs';

const runs = numberFlag('--runs', 30);
const exeFlag = process.argv.indexOf('--exe');
const exe = exeFlag > 0 ? process.argv[exeFlag + 1] : undefined;
const againstFlag = process.argv.indexOf('--against');
const against = againstFlag > 0 ? process.argv[againstFlag + 1] : undefined;
const nodes = nodesFromArgs();
const { url, stop } = await startSandbox();
const query = ['people', 'top', '--weeks', 'last4', '--format', 'json'];
const apiEnv = { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: KEY };

// The dispatcher script as dist/ would hold it: one CommonJS file, Node's HTTP/2 module left out as the CLI's build leaves it.
const dispatcherScript = join(home, 'query-dispatcher.cjs');
await build({ entryPoints: [join(repo, 'bench', 'query-dispatcher.mjs')], outfile: dispatcherScript, bundle: true, format: 'cjs', platform: 'node', target: 'node20.19', plugins: [withoutHttp2], logLevel: 'warning' });
const dispatcherEnv = { NODE_COMPILE_CACHE: join(home, 'dispatcher-compile-cache') };

const ways = {};
for (const { path, label } of nodes) {
  ways[`${label}: node -e 0`] = () => timed(path, ['-e', '0']);
  ways[`${label}: newsstats`] = () => timed(path, [bin, ...query], cacheEnv(apiEnv));
  ways[`${label}: node:http script`] = () => timed(path, [join(repo, 'bench', 'query-http.mjs'), url, KEY]);
  ways[`${label}: undici script`] = () => timed(path, [join(repo, 'bench', 'query-undici.mjs'), url, KEY]);
  ways[`${label}: dispatcher script`] = () => timed(path, [dispatcherScript, url, KEY], dispatcherEnv);
  if (against) ways[`${label}: other version`] = () => timed(path, [join(against, 'bin', 'newsstats.cjs'), ...query], cacheEnv(apiEnv));
}
if (exe) ways.executable = () => timed(exe, query, cacheEnv(apiEnv));
const haveCurlJq = ['curl', 'jq'].every((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0);
if (haveCurlJq) ways['curl + jq'] = () => timed('bash', [join(repo, 'bench', 'query-curl.sh'), url, KEY]);

// Every way must print what newsstats prints, or the comparison is not of the same work.
const expected = ways[`${nodes[0].label}: newsstats`]().stdout;
for (const [name, way] of Object.entries(ways)) {
  if (!name.endsWith('node -e 0') && !way().stdout.equals(expected)) throw new Error(`${name} does not print what newsstats prints`);
}

const samples = sampleRuns(ways, runs);
stop();
const ms = (name) => median(samples[name].map((sample) => sample.ms));
const rss = (name) => median(samples[name].map((sample) => sample.rssMiB));
const ratio = (a, b) => `${pairedRatio(samples[a], samples[b]).toFixed(2)}x`;
const perNode = (cell) => nodes.map(({ label }) => cell(label));

console.log(`one query (people top --weeks last4 --format json, ${expected.length} bytes), ${runs} runs each; ratios paired run by run${cold ? '; every newsstats run with an empty cache folder' : ''}${process.argv.includes('--cpu') ? '; CPU time (task-clock), not wall time' : ''}`);
console.log(table(['figure', ...perNode((label) => label)], [
  ['`node -e 0` ms', ...perNode((label) => ms(`${label}: node -e 0`).toFixed(1))],
  ['newsstats ms', ...perNode((label) => ms(`${label}: newsstats`).toFixed(1))],
  ['newsstats / `node -e 0`', ...perNode((label) => ratio(`${label}: newsstats`, `${label}: node -e 0`))],
  ['newsstats / node:http script', ...perNode((label) => ratio(`${label}: newsstats`, `${label}: node:http script`))],
  ['node:http script / `node -e 0`', ...perNode((label) => ratio(`${label}: node:http script`, `${label}: node -e 0`))],
  ['undici script / `node -e 0`', ...perNode((label) => ratio(`${label}: undici script`, `${label}: node -e 0`))],
  ['dispatcher script / node:http script', ...perNode((label) => ratio(`${label}: dispatcher script`, `${label}: node:http script`))],
  ['newsstats / dispatcher script', ...perNode((label) => ratio(`${label}: newsstats`, `${label}: dispatcher script`))],
  ...(against ? [['newsstats / the version at --against', ...perNode((label) => ratio(`${label}: newsstats`, `${label}: other version`))], ['peak RSS MiB: the version at --against', ...perNode((label) => rss(`${label}: other version`).toFixed(0))]] : []),
  ['peak RSS MiB: `node -e 0`', ...perNode((label) => rss(`${label}: node -e 0`).toFixed(0))],
  ['peak RSS MiB: newsstats', ...perNode((label) => rss(`${label}: newsstats`).toFixed(0))],
  ['peak RSS MiB: node:http script', ...perNode((label) => rss(`${label}: node:http script`).toFixed(0))],
  ['peak RSS MiB: undici script', ...perNode((label) => rss(`${label}: undici script`).toFixed(0))],
  ['peak RSS MiB: dispatcher script', ...perNode((label) => rss(`${label}: dispatcher script`).toFixed(0))],
]));
const last = nodes.at(-1).label;
if (exe) console.log(`executable: ${ms('executable').toFixed(1)} ms, ${ratio('executable', `${last}: newsstats`)} the installed package on ${last}, ${rss('executable').toFixed(0)} MiB peak RSS`);
if (haveCurlJq) console.log(`curl + jq: ${ms('curl + jq').toFixed(1)} ms, ${ratio('curl + jq', `${last}: newsstats`)} newsstats on ${last}, ${rss('curl + jq').toFixed(0)} MiB peak RSS`);
else console.log('(curl or jq is not installed: that row is left out)');
