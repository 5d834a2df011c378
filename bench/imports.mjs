#!/usr/bin/env node
// What each library costs to load, two ways, each in a fresh process that times its own load, beside
// the same process loading a module Node has already loaded (node:stream):
//   as installed   import() of the package from node_modules (ES module loader, many files)
//   as bundled     require() of the package bundled into one CommonJS file, as dist/ holds it
// The CLI loads these lazily, each only on the runs that use it (docs/dependencies.md).
// Runs alternate; medians.
//
//   npm run bench:imports [-- --runs 20]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { withoutHttp2 } from '../scripts/build.mjs';
import { home, median, numberFlag, repo } from './lib.mjs';

const runs = numberFlag('--runs', 20);
const imports = {
  'node:stream (baseline)': 'node:stream',
  'commander (every command)': 'commander',
  'undici dispatchers (every request)': 'undici/lib/dispatcher/agent.js',
  'lossless-json (every request)': 'lossless-json',
  'csv-stringify (-f csv)': 'csv-stringify',
  'cli-table3 (tables at a terminal)': 'cli-table3',
  'conf (config and auth writes)': 'conf',
  'exceljs streaming writer (-f xlsx)': 'exceljs/lib/stream/xlsx/workbook-writer.js',
  'exceljs package entry (never loaded)': 'exceljs',
};
/** Not bundled by scripts/build.mjs (it says why), or never loaded at all: no bundled figure. */
const unbundled = new Set(['exceljs', 'exceljs/lib/stream/xlsx/workbook-writer.js']);

function timedLoad(script, inputType) {
  const result = spawnSync(process.execPath, [`--input-type=${inputType}`, '-e', script], { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return Number(result.stdout);
}

const installed = (specifier) =>
  timedLoad(`const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`, 'module');

/**
 * What require() loads for the bundled figure: each package bundled into one CommonJS file, as
 * scripts/build.mjs bundles it (same plugin); a built-in as it is, the floor.
 */
const bundles = {};
for (const [name, specifier] of Object.entries(imports)) {
  if (unbundled.has(specifier)) continue;
  if (specifier.startsWith('node:')) {
    bundles[name] = specifier;
    continue;
  }
  bundles[name] = join(home, `bundle-${Object.keys(bundles).length}.cjs`);
  await build({ stdin: { contents: `module.exports = require(${JSON.stringify(specifier)});`, resolveDir: repo }, outfile: bundles[name], bundle: true, format: 'cjs', platform: 'node', target: 'node20.19', logLevel: 'error', plugins: [withoutHttp2] });
}
const bundled = (name) =>
  timedLoad(`const t = performance.now(); require(${JSON.stringify(bundles[name])}); process.stdout.write(String(performance.now() - t));`, 'commonjs');

const times = Object.fromEntries(Object.keys(imports).map((name) => [name, { installed: [], bundled: [] }]));
for (let run = 0; run < runs; run += 1) {
  for (const [name, specifier] of Object.entries(imports)) {
    times[name].installed.push(installed(specifier));
    if (name in bundles) times[name].bundled.push(bundled(name));
  }
}
console.log(`load cost, ${runs} fresh processes each, medians, Node ${process.version}`);
console.log('| library (when newsstats loads it) | as installed, import() ms | bundled, require() ms |');
console.log('|---|---:|---:|');
for (const [name, { installed: a, bundled: b }] of Object.entries(times)) {
  console.log(`| ${name} | ${median(a).toFixed(1)} | ${b.length > 0 ? median(b).toFixed(1) : 'not bundled'} |`);
}
