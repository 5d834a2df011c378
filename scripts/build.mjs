#!/usr/bin/env node
// Builds dist/: the CLI, the library and the sandbox bundled with their dependencies (undici,
// commander, cli-table3, csv-stringify, conf, lossless-json; not exceljs, see below), and
// declarations for the library entry.
// Nouns, renderers and the sandbox stay behind dynamic imports: code splitting turns each into a
// chunk loaded only when a run needs it.
//
// The files are CommonJS. On Node 20 the ES module loader costs about 3.5 ms before the first module
// and 0.2 ms a module after it, against 0.1 ms a CommonJS file (npm run bench:module-loader); a query
// loads about 50 chunks. esbuild splits only ES modules, so the split output is turned into CommonJS
// file by file, each import() becoming a require() in a resolved promise, and dist/package.json says
// so. ES module users import the library as before: Node reads the names each file exports.
//   npm run build     (node scripts/build.mjs; tsc writes the .d.ts files)
import { build, transform } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { deferRequires } from './defer-requires.mjs';

const target = 'node20.19';

rmSync('dist', { recursive: true, force: true });
const { outputFiles } = await build({
  entryPoints: [
    'src/cli/main.ts', // what bin/newsstats.cjs loads
    'src/index.ts', // the library: import { NewsStatsClient } from 'newsstats'
    'src/sandbox/server.ts', // bench/sandbox.mjs starts the sandbox directly
    'src/sandbox/data/index.ts',
  ],
  outdir: 'dist',
  outbase: 'src',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  keepNames: true,
  write: false,
  logLevel: 'warning',
  plugins: [deferRequires],
  // exceljs stays in node_modules: bundled, its old dependencies' `new Buffer()` would no longer be
  // inside node_modules and Node would print a deprecation warning on every xlsx export. It is loaded
  // only for -f xlsx, so bundling would save nothing at start-up.
  external: ['exceljs', 'exceljs/*'],
});

await Promise.all(outputFiles.map(async ({ path, text }) => {
  // No import() is left: a chunk loaded later is a require() in a resolved promise.
  const { code } = await transform(text, { format: 'cjs', platform: 'node', target, supported: { 'dynamic-import': false } });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, code);
}));
await writeFile('dist/package.json', `${JSON.stringify({ type: 'commonjs' })}\n`);
