#!/usr/bin/env node
// What `newsstats mcp` costs a client that starts it: start-up to the answer of `initialize`, and
// start-up plus one tool call (rank_people, 20 people of last4), each a fresh process against a
// sandbox in a process of its own, as ratios to `node -e 0` (the floor) measured in the same run, run
// by run; beside them the CLI's own `people top` for the same question. Also what the server loads:
// the dist/ files and bytes an mcp run requires, against a query's (test/build/record-modules.cjs).
//
//   npm run bench:mcp [-- --runs 20] [-- --node PATH|MAJOR ...]
//
// Needs the build (npm install runs it).
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, bin, home, KEY, median, nodesFromArgs, numberFlag, pairedRatio, repo, sampleRuns, startSandbox, table, timed } from './lib.mjs';

const runs = numberFlag('--runs', 20);
const nodes = nodesFromArgs();
const server = await startSandbox();
const env = { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY };

const message = (object) => `${JSON.stringify({ jsonrpc: '2.0', ...object })}\n`;
const initialize = message({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })
  + message({ method: 'notifications/initialized' });
const toolCall = message({ id: 2, method: 'tools/call', params: { name: 'rank_people', arguments: { weeks: 'last4', limit: 20 } } });

/** A fresh `newsstats mcp` fed `input` (stdin then ends, so it answers and exits), timed to its exit. */
function mcpRun(node, input, expectIds) {
  const started = process.hrtime.bigint();
  const result = spawnSync(node, [bin, 'mcp'], { env: { ...benchEnv, ...env }, input, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const ids = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line)).filter((answer) => !answer.result?.isError).map((answer) => answer.id);
  if (result.status !== 0 || String(ids) !== String(expectIds)) throw new Error(`mcp: exit ${result.status}, answers ${ids}: ${result.stderr}`);
  return { ms, rssMiB: NaN, stdout: '' };
}

const ways = {};
for (const { path, label } of nodes) {
  ways[`${label}: node -e 0`] = () => timed(path, ['-e', '0']);
  ways[`${label}: mcp, initialize`] = () => mcpRun(path, initialize, [1]);
  ways[`${label}: mcp, initialize + rank_people`] = () => mcpRun(path, initialize + toolCall, [1, 2]);
  ways[`${label}: people top -f json`] = () => timed(path, [bin, 'people', 'top', '--weeks', 'last4', '--limit', '20', '-f', 'json'], env);
}

try {
  const samples = sampleRuns(ways, runs);
  const ms = (name) => median(samples[name].map((sample) => sample.ms));
  console.log(`newsstats mcp, ${runs} runs each; each Node against its own \`node -e 0\`, ratios paired run by run`);
  console.log(table(['figure', ...nodes.map(({ label }) => label)], [
    ['`node -e 0` ms', ...nodes.map(({ label }) => ms(`${label}: node -e 0`).toFixed(1))],
    ...['mcp, initialize', 'mcp, initialize + rank_people', 'people top -f json'].map((name) => [
      `${name} / \`node -e 0\``,
      ...nodes.map(({ label }) => `${pairedRatio(samples[`${label}: ${name}`], samples[`${label}: node -e 0`]).toFixed(2)}x (${ms(`${label}: ${name}`).toFixed(1)} ms)`),
    ]),
  ]));

  // What each loads from dist/: the SDK and zod are in chunks only an mcp run requires.
  const loaded = (args, input) => {
    const record = join(home, 'loaded.json');
    spawnSync(process.execPath, ['-r', join(repo, 'test', 'build', 'record-modules.cjs'), bin, ...args], { env: { ...benchEnv, ...env, NEWSSTATS_RECORD_MODULES: record }, input, encoding: 'utf8' });
    return JSON.parse(readFileSync(record, 'utf8')).files.filter((file) => file.startsWith(join(repo, 'dist')));
  };
  const mcp = loaded(['mcp'], initialize + toolCall);
  const query = loaded(['people', 'top', '--weeks', 'last4', '--limit', '20', '-f', 'json']);
  const kib = (files) => (files.reduce((sum, file) => sum + statSync(file).size, 0) / 1024).toFixed(0);
  const onlyMcp = mcp.filter((file) => !query.includes(file));
  console.log(`\ndist/ loaded: mcp (initialize + rank_people) ${mcp.length} files, ${kib(mcp)} KiB; people top -f json ${query.length} files, ${kib(query)} KiB; only by mcp: ${onlyMcp.length} files, ${kib(onlyMcp)} KiB`);
} finally {
  server.stop();
}
