#!/usr/bin/env node
// What each piece of start-up machinery buys (docs/performance.md, "Start-up machinery"): one query
// and `--help`, warm and with an empty cache folder, with the machinery as shipped and with each piece
// turned off by its environment variable, against a node:http script making the same requests and
// against `node -e 0`, all in one run, ratios paired run by run.
//
//   as shipped                          the code cache, static help, the parser's tiering budget
//   NODE_COMPILE_CACHE=DIR              Node's own module compile cache instead of ours
//   NODE_DISABLE_COMPILE_CACHE=1        no cache of compiled code at all
//   NEWSSTATS_NO_STARTUP_MACHINERY=1    none of it: no code cache, no static help, V8's own flags
//
//   npm run bench:machinery [-- --runs 10] [-- --node 24 --node 26] [-- --cpu]
//
// Warm runs share a cache folder per variant (after the two warm-up rounds, the caches are written); cold
// runs each get an empty one. --cpu compares CPU time instead of wall time (lib.mjs).
import { join } from 'node:path';
import { bin, home, KEY, median, nodesFromArgs, numberFlag, pairedRatio, repo, sampleRuns, startSandbox, table, timed } from './lib.mjs';

const runs = numberFlag('--runs', 10);
const nodes = nodesFromArgs();
const { url, stop } = await startSandbox();
const query = ['people', 'top', '--weeks', 'last4', '--format', 'json'];
const apiEnv = { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: KEY };
const variants = {
  'as shipped': {},
  "Node's compile cache": { NODE_COMPILE_CACHE: '$CACHE/node-compile-cache' },
  'no code cache': { NODE_DISABLE_COMPILE_CACHE: '1' },
  'no machinery': { NEWSSTATS_NO_STARTUP_MACHINERY: '1' },
};

let fresh = 0;
const ways = {};
for (const { path, label } of nodes) {
  ways[`${label}|node -e 0`] = () => timed(path, ['-e', '0']);
  ways[`${label}|node:http script`] = () => timed(path, [join(repo, 'bench', 'query-http.mjs'), url, KEY]);
  for (const [variant, vars] of Object.entries(variants)) {
    for (const [name, args] of [['query', query], ['--help', ['--help']]]) {
      for (const temperature of ['warm', 'cold']) {
        const warmCache = join(home, `warm-${label}-${variant}`);
        ways[`${label}|${variant}|${name}|${temperature}`] = () => {
          const cache = temperature === 'warm' ? warmCache : join(home, `cold-${fresh++}`);
          const env = { ...apiEnv, XDG_CACHE_HOME: cache };
          for (const [key, value] of Object.entries(vars)) env[key] = value.replace('$CACHE', cache);
          return timed(path, [bin, ...args], env);
        };
      }
    }
  }
}
const samples = sampleRuns(ways, runs);
stop();

const ratio = (a, b) => `${pairedRatio(samples[a], samples[b]).toFixed(2)}x`;
const mib = (name) => median(samples[name].map((sample) => sample.rssMiB)).toFixed(0);
console.log(`start-up machinery, ${runs} runs each, ratios paired run by run${process.argv.includes('--cpu') ? ', CPU time (task-clock)' : ''}`);
for (const { label } of nodes) {
  console.log(`\n${label}`);
  console.log(table(['variant', 'query / node:http, warm', 'query / node:http, empty cache', 'query peak RSS MiB (script)', '`--help` / `node -e 0`, warm', '`--help`, empty cache'],
    Object.keys(variants).map((variant) => {
      const way = (name, temperature) => `${label}|${variant}|${name}|${temperature}`;
      return [variant,
        ratio(way('query', 'warm'), `${label}|node:http script`), ratio(way('query', 'cold'), `${label}|node:http script`),
        `${mib(way('query', 'warm'))} (${mib(`${label}|node:http script`)})`,
        ratio(way('--help', 'warm'), `${label}|node -e 0`), ratio(way('--help', 'cold'), `${label}|node -e 0`)];
    })));
}
