#!/usr/bin/env node
// What a sync spends between an answer's text and its rows (#33 item 6), without the wire or the
// writing: the very answers of bench:sync's wire sync (25 weeks of rankings, country_stats and links,
// depth 100, top 20: 637 requests), captured once from the sandbox, then read in fresh processes, cold
// as a 1-second sync mostly is: each body decoded, parsed with exact numbers (lossless, as the CLI
// reads) and checked against the contract, what the client does with every answer.
// Printed: CPU milliseconds (user + system) of that work alone, the median of --runs (9) processes a
// Node. Compare builds by running it in each worktree, alternately.
//   npm run bench:sync-answers [-- --runs 9 --node 24 --node 26]
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL, URLSearchParams } from 'node:url';

const CHILD = '--child';
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[2] === CHILD) {
  // One measured reading, in this fresh process; the modules are loaded before the clock starts.
  const capture = process.argv[3];
  const dist = pathToFileURL(join(repo, 'dist', 'esm')).href;
  const { decodeBody, parseJsonBody } = await import(`${dist}/api/core/response.js`);
  const { checkResponseShape, endpointFor } = await import(`${dist}/api/validate.js`);
  const { answers } = JSON.parse(readFileSync(capture, 'utf8'));
  const bodies = answers.map(({ body }) => Buffer.from(body));
  const endpoints = answers.map(({ path }) => endpointFor(path));
  const at = { status: 200, url: 'bench', attempts: 1, headers: {} };
  const before = process.cpuUsage();
  for (let index = 0; index < answers.length; index++) {
    const data = parseJsonBody(decodeBody(bodies[index]).text, 'lossless', at, 'bench-key');
    checkResponseShape(endpoints[index], answers[index].path, data);
  }
  const cpu = process.cpuUsage(before);
  console.log(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 }));
  process.exit(0);
}

// The parent alone: lib.mjs makes this run's temporary folder as it loads.
const { bin, benchEnv, home, KEY, median, nodesFromArgs, numberFlag } = await import('./lib.mjs');
const runs = numberFlag('--runs', 9);
const log = join(home, 'requests.jsonl');
const lake = join(home, 'lake');

const sandbox = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--now', '2026-11-22', '--key', KEY, '--log', log], { stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout.setEncoding('utf8').once('data', (line) => resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') }));
  child.once('error', reject);
});
const env = { ...benchEnv, NEWSSTATS_BASE_URL: sandbox.url, NEWSSTATS_API_KEY: KEY };
const synced = spawnSync(process.execPath, [bin, 'sync', lake, '--since', '202622', '--streams', 'rankings,country_stats,links', '--depth', '100', '--top', '20', '--concurrency', '4', '-q'], { env, stdio: 'inherit' });
if (synced.status !== 0) throw new Error(`the sync to capture from exited ${synced.status}`);
const answers = [];
for (const line of readFileSync(log, 'utf8').split('\n').filter((entry) => entry.trim() !== '')) {
  const { path, query } = JSON.parse(line);
  const search = new URLSearchParams(query).toString();
  const response = await fetch(`${sandbox.url}${path}${search === '' ? '' : `?${search}`}`, { headers: { 'x-api-key': KEY } });
  answers.push({ path, body: await response.text() });
}
sandbox.stop();
const capture = join(home, 'answers.json');
writeFileSync(capture, JSON.stringify({ answers }));
const characters = answers.reduce((total, { body }) => total + body.length, 0);
console.log(`${answers.length} answers (${(characters / 1024 / 1024).toFixed(1)} M characters); CPU ms, median of ${runs} fresh processes`);
console.log('| Node | decode, exact parse, contract check |');
console.log('|---|---:|');
for (const node of nodesFromArgs()) {
  const samples = [];
  for (let run = 0; run < runs; run++) {
    const child = spawnSync(node.path, [join(repo, 'bench', 'sync-answers.mjs'), CHILD, capture], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    samples.push(JSON.parse(child.stdout).cpuMs);
  }
  console.log(`| ${node.version} | ${median(samples).toFixed(1)} |`);
}
