#!/usr/bin/env node
// The floor for one query: `people top --weeks last4 --format json` with nothing but node:http, printing
// byte-identical output (the sandbox's numbers all survive JSON.parse). What any Node program pays.
//   node bench/query-http.mjs URL KEY
import { Agent, get } from 'node:http';

const [url, key] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true });

function getJson(path) {
  return new Promise((resolve, reject) => {
    get(url + path, { agent, headers: { 'x-api-key': key, accept: 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
        else resolve(JSON.parse(text));
      });
    }).on('error', reject);
  });
}

const week = await getJson('/api/data/weeks/current');
const top = await getJson(`/api/data/people/top?startWeek=${week.last4StartWeek}&endWeek=${week.currentWeek}`);
process.stdout.write(`${JSON.stringify(top, null, 2)}\n`);
agent.destroy();
