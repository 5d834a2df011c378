#!/usr/bin/env node
// One query (`people top --weeks last4 --format json`) with undici as the CLI loads it: its dispatchers
// from their own files (not its index), bundled into one CommonJS file with the build's patches, and
// run with Node's compile cache (bench/query.mjs bundles this file; query-undici.mjs is undici as it
// comes). Byte-identical output: what any undici program pays, the floor of newsstats on undici.
//   node bench/query-dispatcher.mjs URL KEY   (or its bundle, which bench/query.mjs writes)
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import { setFlagsFromString } from 'node:v8';

Object.assign(Dispatcher.prototype, api);
// As the CLI runs undici (src/cli/run/dependencies.ts): its WebAssembly parser is not optimised in the
// background, which would cost more than the rest of the query.
setFlagsFromString('--wasm-tiering-budget=2147483647');
const [url, key] = process.argv.slice(2);
const agent = new Agent({ keepAliveTimeout: 10_000 });

async function getJson(path) {
  const { statusCode, body } = await agent.request({ origin: url, path, method: 'GET', headers: { 'x-api-key': key, accept: 'application/json' } });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
  return JSON.parse(text);
}

// No top-level await: the bundle is CommonJS, as dist/ is.
void (async () => {
  const week = await getJson('/api/data/weeks/current');
  const top = await getJson(`/api/data/people/top?startWeek=${week.last4StartWeek}&endWeek=${week.currentWeek}`);
  process.stdout.write(`${JSON.stringify(top, null, 2)}\n`);
  await agent.close();
})();
