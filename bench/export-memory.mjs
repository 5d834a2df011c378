#!/usr/bin/env node
// Peak memory (RSS) of `export links --limit 250` in every format that streams, for a small and a
// large export, each a process of its own against the sandbox, in one run:
//   csv, tsv, json, ndjson    written to a file with -o (atomic: a temporary file renamed at the end)
//   table, piped              stdout to a pipe, so the table is tab-separated with no layout
// Streaming holds a bounded window of rows, so the peak should not grow with the export's size.
// Runs alternate between formats; the median of each is printed with its growth from the smallest.
// --node, repeated, measures each Node given (a path, or a major for the npm registry's node package).
// --bin, repeated, alternates builds (another checkout's bin/newsstats.cjs, built), run by run, so a
// change is compared with its parent under the same load; --cpu prints CPU time (perf's task-clock,
// all threads) in place of wall time.
//
//   npm run bench:export-memory [-- --runs 3 --top 50,480 --formats csv,table --node 20 --node 24 --node 26]
//   npm run bench:export-memory -- --runs 7 --top 480 --formats csv --node 24 --bin /tmp/parent/bin/newsstats.cjs --bin bin/newsstats.cjs --cpu
import { join, resolve } from 'node:path';
import { bin, home, interleave, KEY, nodesFromArgs, numberFlag, repeatedFlag, startSandbox, timed } from './lib.mjs';

const runs = numberFlag('--runs', 3);
const listFlag = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1].split(',') : fallback;
};
const tops = listFlag('--top', ['50', '480']).map(Number);
const formats = listFlag('--formats', ['csv', 'tsv', 'json', 'ndjson', 'table']);
const nodes = nodesFromArgs();
const givenBins = repeatedFlag('--bin').map((path) => resolve(path));
const bins = givenBins.length > 0 ? givenBins : [bin];
const binLabel = (path) => (bins.length > 1 ? ` ${path}` : '');
const { url, stop } = await startSandbox();

const exportLinks = (node, build, top, format) => () => {
  const args = [build, 'export', 'links', '--top', String(top), '--weeks', 'last4', '--limit', '250', '-f', format, '-q'];
  if (format !== 'table') args.push('-o', join(home, `links-${top}.${format}`));
  return timed(node, args, { NEWSSTATS_BASE_URL: url, NEWSSTATS_API_KEY: KEY });
};

const peaks = {};
for (const top of tops) {
  const ways = Object.fromEntries(nodes.flatMap(({ path, label }) => bins.flatMap((build) => formats.map((format) => [`${label}${binLabel(build)} ${format}`, exportLinks(path, build, top, format)]))));
  peaks[top] = interleave(ways, runs, `${nodes[0].label}${binLabel(bins[0])} ${formats[0]}`);
}
stop();

console.log(`peak RSS of export links --limit 250 --weeks last4, median of ${runs} runs (in brackets: ${process.argv.includes('--cpu') ? 'CPU' : 'wall'} time)`);
console.log(`| Node | people | ${formats.map((format) => (format === 'table' ? 'table (piped)' : `${format} (-o)`)).join(' | ')} |`);
console.log(`|---|---:|${formats.map(() => '---:').join('|')}|`);
for (const { label: nodeLabel } of nodes) {
  for (const build of bins) {
    const label = `${nodeLabel}${binLabel(build)}`;
    for (const top of tops) {
      const cells = formats.map((format) => {
        const { rssMiB, ms } = peaks[top][`${label} ${format}`];
        const growth = top === tops[0] ? '' : `, ${((rssMiB / peaks[tops[0]][`${label} ${format}`].rssMiB - 1) * 100).toFixed(0)}%`;
        return `${rssMiB.toFixed(0)} MiB${growth} (${(ms / 1000).toFixed(2)} s)`;
      });
      console.log(`| ${label} | ${top} | ${cells.join(' | ')} |`);
    }
  }
}
