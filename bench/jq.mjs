#!/usr/bin/env node
// What --jq costs, against the same query printing JSON, each run in a fresh process against the
// sandbox in its own process: `people top --limit 50` as json, and with --jq '.[].fullName'. Runs
// alternate; medians and the median ratio. The difference is jq's load (jq 1.7 compiled to
// WebAssembly, the jq-web package) and its first filter; runs without --jq never load it.
//
// --exe PATH times that standalone executable (npm run build:exe) instead of the installed package.
//
//   npm run bench:jq [-- --runs 15] [-- --exe build/newsstats]
import { spawnSync } from 'node:child_process';
import { bin, benchEnv, KEY, median, numberFlag, startSandbox } from './lib.mjs';

const runs = numberFlag('--runs', 15);
const exeFlag = process.argv.indexOf('--exe');
const [program, leadingArgs] = exeFlag > 0 ? [process.argv[exeFlag + 1], []] : [process.execPath, [bin]];
const sandbox = await startSandbox();
const env = { ...benchEnv, NEWSSTATS_BASE_URL: sandbox.url, NEWSSTATS_API_KEY: KEY };
const query = [...leadingArgs, 'people', 'top', '--limit', '50'];
const cases = { json: [...query, '-f', 'json'], '--jq': [...query, '--jq', '.[].fullName'] };

function timeOnce(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(program, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const times = { json: [], '--jq': [] };
const ratios = [];
for (let run = 0; run < runs + 2; run += 1) {
  const json = timeOnce(cases.json);
  const jq = timeOnce(cases['--jq']);
  if (run < 2) continue; // warm-up
  times.json.push(json);
  times['--jq'].push(jq);
  ratios.push(jq / json);
}
sandbox.stop();
console.log(`people top --limit 50, ${runs} fresh processes each, medians, ${exeFlag > 0 ? program : `Node ${process.version}`}`);
console.log('| run | median ms |');
console.log('|---|---:|');
for (const [name, values] of Object.entries(times)) console.log(`| ${name} | ${median(values).toFixed(1)} |`);
console.log(`--jq / json, median ratio: ${median(ratios).toFixed(2)}x`);
