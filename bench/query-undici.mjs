#!/usr/bin/env node
// One query (`people top --weeks last4 --format json`) with a minimal undici script, printing
// byte-identical output: what undici costs as it is, without the CLI around it.
//   node bench/query-undici.mjs URL KEY
import { Agent, request } from 'undici';

const [url, key] = process.argv.slice(2);
const dispatcher = new Agent();

async function getJson(path) {
  const { statusCode, body } = await request(url + path, { dispatcher, headers: { 'x-api-key': key, accept: 'application/json' } });
  if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
  return JSON.parse(await body.text());
}

const week = await getJson('/api/data/weeks/current');
const top = await getJson(`/api/data/people/top?startWeek=${week.last4StartWeek}&endWeek=${week.currentWeek}`);
process.stdout.write(`${JSON.stringify(top, null, 2)}\n`);
await dispatcher.close();
