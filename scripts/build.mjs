#!/usr/bin/env node
// Builds dist/: one bundled module per entry, so a command loads a handful of files instead of ~30
// (the module loader was 22 ms of a one-query run), and declarations for the library entry.
// Nouns, renderers and the sandbox stay behind dynamic imports: code splitting turns each into a
// chunk loaded only when a run needs it.
//   npm run build     (node scripts/build.mjs; tsc writes the .d.ts files)
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: [
    'src/cli/main.ts', // what bin/newsstats.js loads
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
  target: 'node20.19',
  keepNames: true,
  logLevel: 'warning',
  // Bundled CommonJS (undici, commander) calls require() only for Node's built-ins, and ESM has no
  // require. getBuiltinModule gives them without loading node:module and a CommonJS loader per chunk.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
});
