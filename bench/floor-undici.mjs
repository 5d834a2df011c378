#!/usr/bin/env node
// The floor for the export benchmark: the least code that does the same requests with undici at the
// same concurrency, parsing each body with JSON.parse and writing nothing.
//   node bench/floor-undici.mjs URL KEY START END TOP CONCURRENCY
import { Agent, request } from 'undici';

const [url, key, startWeek, endWeek, top, concurrency] = process.argv.slice(2);
const dispatcher = new Agent({ connections: Number(concurrency) });
const headers = { 'x-api-key': key, accept: 'application/json' };

async function getJson(path) {
  const { statusCode, body } = await request(url + path, { headers, dispatcher });
  if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
  return JSON.parse(await body.text());
}

const ranking = await getJson(`/api/data/people/top?startWeek=${startWeek}&endWeek=${endWeek}&limit=${top}`);
let next = 0;
let rows = 0;
async function worker() {
  while (next < ranking.length) {
    const person = ranking[next++];
    const stats = await getJson(`/api/data/people/${encodeURIComponent(person.personHash)}/country-stats?startWeek=${startWeek}&endWeek=${endWeek}`);
    rows += stats.countries.length;
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await dispatcher.close();
process.stdout.write(`${rows}\n`);
