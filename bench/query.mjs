#!/usr/bin/env node
// One query, `newsstats people top --weeks last4 --format json` (two requests), against a warm sandbox
// on loopback, beside what else could make the same two requests and print the same bytes:
//   node -e 0            the start-up of any Node program: the baseline of every ratio
//   node:http script     the floor for a Node program (bench/query-http.mjs)
//   undici script        undici as it is, without the CLI (bench/query-undici.mjs)
//   curl + jq            what a shell user would run (bench/query-curl.sh), when both are installed
// Runs alternate, one warm-up round first; medians of wall time, of the ratio to `node -e 0` taken
// run by run, and of peak RSS (GNU time).
//
//   npm run bench:query [-- --runs 30]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bin, interleave, KEY, numberFlag, repo, startSandbox, timed } from './lib.mjs';

const runs = numberFlag('--runs', 30);
const { url, stop } = await startSandbox();
const node = process.execPath;
const ways = {
  'node -e 0': () => timed(node, ['-e', '0']),
  newsstats: () => timed(node, [bin, 'people', 'top', '--weeks', 'last4', '--format', 'json'], { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: KEY }),
  'node:http script': () => timed(node, [join(repo, 'bench', 'query-http.mjs'), url, KEY]),
  'undici script': () => timed(node, [join(repo, 'bench', 'query-undici.mjs'), url, KEY]),
};
const haveCurlJq = ['curl', 'jq'].every((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0);
if (haveCurlJq) ways['curl + jq'] = () => timed('bash', [join(repo, 'bench', 'query-curl.sh'), url, KEY]);

// Every way must print what newsstats prints, or the comparison is not of the same work.
const expected = ways.newsstats().stdout;
for (const [name, way] of Object.entries(ways)) {
  if (name !== 'node -e 0' && !way().stdout.equals(expected)) throw new Error(`${name} does not print what newsstats prints`);
}

const result = interleave(ways, runs, 'node -e 0');
stop();
console.log(`one query (people top --weeks last4 --format json, ${expected.length} bytes), ${runs} runs each, Node ${process.version}`);
if (!haveCurlJq) console.log('(curl or jq is not installed: that row is left out)');
console.log('| command | median ms | vs `node -e 0` | vs newsstats | peak RSS MiB |');
console.log('|---|---:|---:|---:|---:|');
for (const [name, { ms, ratio, rssMiB }] of Object.entries(result)) {
  console.log(`| ${name} | ${ms.toFixed(1)} | ${ratio.toFixed(2)}x | ${(ms / result.newsstats.ms).toFixed(2)}x | ${rssMiB.toFixed(0)} |`);
}
