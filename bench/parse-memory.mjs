#!/usr/bin/env node
/**
 * Time and memory to parse one answer with exact numbers, each parser in a fresh process (a CLI run
 * parses cold) so none sees another's garbage:
 *   newsstats        parseJson (src/shared/exact-json/parse.ts): JSON.parse up to JSON_PARSE_MAX_CHARS, else slicing
 *   JSON.parse path  marking the numbers JSON.parse would change, then JSON.parse
 *   slicing path     slicing.ts, which slices strings out of the text
 *   lossless-json    what newsstats used before both
 * The answer is a ranking (the shape of /people/top) of each size. Runs alternate; medians of
 * `--runs` runs (default 5) are printed, a table per size.
 *
 *   npm run bench:parse [-- 0.25,1,15 --runs 5]    (MiB; 15 is just under the default --max-response-mb)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadSource, median, numberFlag } from './lib.mjs';

const script = fileURLToPath(import.meta.url);
const parsers = ['newsstats', 'JSON.parse path', 'slicing path', 'lossless-json'];

/** A ranking of about `mib` MiB, rows shaped as the service sends them. */
function rankingText(mib) {
  const row = (rank) => JSON.stringify({
    rank, personHash: `rhys-thistlewood-${(rank % 65536).toString(16).padStart(4, '0')}`, fullName: 'Rhys Thistlewood',
    mentionCount: 1000 + rank, dominance: 0.1234, sentiment: -0.4485, reach: 12.5, power: 3.25, persistence: 4,
    fromCountryId: 44, fromCountryName: 'United Kingdom',
  }).replace('"sentiment":-0.4485', '"sentiment":-0.4480'); // a trailing zero JSON.parse would drop
  const rows = [];
  for (let size = 0, rank = 1; size < mib * 1024 * 1024; rank += 1) {
    rows.push(row(rank));
    size += rows.at(-1).length + 1;
  }
  return `[${rows.join(',')}]`;
}

if (process.argv[2] === '--child') {
  const [, , , which, mib] = process.argv;
  const text = rankingText(Number(mib));
  const json = await loadSource('shared/exact-json/parse.ts');
  const { parse: losslessParse } = await import('lossless-json');
  const parse = {
    newsstats: () => json.parseJson(text, 'lossless'),
    'JSON.parse path': () => json.parseWithJsonParse(text, 'lossless'),
    'slicing path': () => json.parseJsonSlicing(text, 'lossless'),
    'lossless-json': () => losslessParse(text),
  }[which];
  gc();
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const value = parse();
  const ms = performance.now() - started;
  // Parsing is synchronous and RSS seldom shrinks: read right after, it holds the peak.
  const peak = process.memoryUsage().rss;
  process.stdout.write(JSON.stringify({ rows: value.length, ms, growthMb: (peak - before) / 1048576, limit: json.JSON_PARSE_MAX_CHARS, chars: text.length }));
} else {
  const sizes = (process.argv[2] === undefined || process.argv[2].startsWith('-') ? '0.25,1,15' : process.argv[2]).split(',').map(Number);
  const runs = numberFlag('--runs', 5);
  const run = (which, mib) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', script, '--child', which, String(mib)], { encoding: 'utf8' }));
  for (const mib of sizes) {
    const samples = Object.fromEntries(parsers.map((which) => [which, []]));
    for (let round = 0; round < runs; round += 1) for (const which of parsers) samples[which].push(run(which, mib));
    const results = Object.fromEntries(parsers.map((which) => [which, {
      ...samples[which][0],
      ms: median(samples[which].map((sample) => sample.ms)),
      growthMb: median(samples[which].map((sample) => sample.growthMb)),
    }]));
    const { chars, limit, rows } = results.newsstats;
    console.log(`\n${mib} MiB ranking (${rows} rows): newsstats takes the ${chars <= limit ? 'JSON.parse' : 'slicing'} path (limit ${limit / 1024} KiB)`);
    console.log('| parser | ms | RSS growth MB | ms vs newsstats |');
    console.log('|---|---:|---:|---:|');
    for (const [name, result] of Object.entries(results)) {
      console.log(`| ${name} | ${result.ms.toFixed(1)} | ${result.growthMb.toFixed(0)} | ${(result.ms / results.newsstats.ms).toFixed(2)}x |`);
    }
  }
}
