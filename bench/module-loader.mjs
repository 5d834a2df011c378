#!/usr/bin/env node
// Why dist/ is CommonJS (scripts/build.mjs): what Node's two module loaders cost before a program
// does anything. Fresh processes, each loading an entry file that imports or requires N tiny modules
// (one exported constant each), written as ES modules and as CommonJS, beside `node -e 0`. Runs
// alternate; the medians of the ratio to `node -e 0`, taken run by run, are reported, and the cost per
// module is the difference between N modules and none, divided by N.
//
//   npm run bench:module-loader [-- --runs 30 --modules 100]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { home, interleave, numberFlag, timed } from './lib.mjs';

const runs = numberFlag('--runs', 30);
const modules = numberFlag('--modules', 100);
const node = process.execPath;

/** An entry of each format loading `count` modules of that format: `.mjs` imports, `.cjs` requires. */
function writeEntry(format, count) {
  const directory = join(home, `${format}-${count}`);
  mkdirSync(directory, { recursive: true });
  const lines = [];
  for (let index = 0; index < count; index += 1) {
    if (format === 'esm') {
      writeFileSync(join(directory, `m${index}.mjs`), `export const value${index} = ${index};\n`);
      lines.push(`import { value${index} } from './m${index}.mjs';`);
    } else {
      writeFileSync(join(directory, `m${index}.cjs`), `exports.value${index} = ${index};\n`);
      lines.push(`require('./m${index}.cjs');`);
    }
  }
  const entry = join(directory, format === 'esm' ? 'entry.mjs' : 'entry.cjs');
  writeFileSync(entry, `${lines.join('\n')}\n`);
  return entry;
}

const ways = { 'node -e 0': () => timed(node, ['-e', '0']) };
for (const format of ['esm', 'cjs']) {
  for (const count of [0, modules]) {
    const entry = writeEntry(format, count);
    ways[`${format === 'esm' ? 'ES modules' : 'CommonJS'}: entry + ${count}`] = () => timed(node, [entry]);
  }
}
// timed() throws when an entry fails, so no figure is ever the time of an error.
const result = interleave(ways, runs, 'node -e 0');
const baseline = result['node -e 0'].ms;
console.log(`module loaders, ${runs} runs each, ${modules} modules, Node ${process.version}`);
console.log('| entry | median ms | vs `node -e 0` |');
console.log('|---|---:|---:|');
for (const [name, { ms, ratio }] of Object.entries(result)) console.log(`| ${name} | ${ms.toFixed(1)} | ${ratio.toFixed(3)}x |`);
for (const label of ['ES modules', 'CommonJS']) {
  const none = result[`${label}: entry + 0`];
  const many = result[`${label}: entry + ${modules}`];
  const perModule = ((many.ratio - none.ratio) * baseline) / modules;
  console.log(`${label}: the entry costs ${((none.ratio - 1) * baseline).toFixed(1)} ms, each module ${perModule.toFixed(2)} ms`);
}
