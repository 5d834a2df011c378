#!/usr/bin/env node
// The node:http floor for `bench:sync`: the very requests a sync made (read from the sandbox's log, in
// order), replayed at the same concurrency over keep-alive connections, every body read and parsed.
// What any Node program fetching the same data pays; it leaves out all sync adds (retries, exact
// digits, Parquet, the state, fsync).
//   node bench/sync-replay.mjs URL KEY CONCURRENCY < paths.txt
import { Agent, get } from 'node:http';
import { readFileSync } from 'node:fs';

const [url, key, concurrency] = process.argv.slice(2);
const paths = readFileSync(0, 'utf8').split('\n').filter((line) => line !== '');
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });

function fetchOne(path) {
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

let next = 0;
async function worker() {
  while (next < paths.length) await fetchOne(paths[next++]);
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
agent.destroy();
