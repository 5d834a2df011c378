#!/usr/bin/env node
// The node:http floor for the export benchmark: the same requests as
// `newsstats export country-stats -f csv` at the same concurrency over keep-alive connections,
// writing the same CSV to stdout (the benchmark checks it is byte for byte the same). What any Node
// program doing this work pays; it leaves out everything the CLI adds (retries, timeouts, exact digits).
//   node bench/floor-http-export.mjs URL KEY START END TOP CONCURRENCY
import { Agent, get } from 'node:http';

const [url, key, startWeek, endWeek, top, concurrency] = process.argv.slice(2);
const agent = new Agent({ keepAlive: true, maxSockets: Number(concurrency) });
const window = `startWeek=${startWeek}&endWeek=${endWeek}`;
const columns = ['countryId', 'countryName', 'countryIso', 'mentions', 'articles', 'population', 'gdp', 'persistence', 'localDominance', 'reach', 'power', 'sentiment'];

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

const cell = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const ranking = await getJson(`/api/data/people/top?${window}&limit=${top}`);
const results = new Array(ranking.length);
let next = 0;
let written = 0;
let out = `rank,fullName,personHash,startWeek,endWeek,${columns.join(',')}\n`;
async function worker() {
  while (next < ranking.length) {
    const index = next++;
    const person = ranking[index];
    results[index] = await getJson(`/api/data/people/${encodeURIComponent(person.personHash)}/country-stats?${window}`);
    // Rows go out in rank order, as soon as every earlier person's are out.
    for (; results[written] !== undefined; written += 1) {
      const { rank, fullName, personHash } = ranking[written];
      const stats = results[written];
      for (const country of stats.countries) {
        out += [rank, fullName, personHash, stats.startWeek, stats.endWeek, ...columns.map((column) => country[column])].map(cell).join(',') + '\n';
      }
      results[written] = null;
    }
    if (out.length > 65536) {
      process.stdout.write(out);
      out = '';
    }
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
process.stdout.write(out);
agent.destroy();
