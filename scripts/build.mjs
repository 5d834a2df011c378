#!/usr/bin/env node
// Builds dist/: one bundled module per entry, so a command loads a handful of files instead of ~30
// (the module loader was 22 ms of a one-query run), and declarations for the library entry.
// Nouns, renderers and the sandbox stay behind dynamic imports: code splitting turns each into a
// chunk loaded only when a run needs it.
//   npm run build     (node scripts/build.mjs; tsc writes the .d.ts files)
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';

/**
 * Two top-level requires in our dependencies load Node modules a run almost never uses: undici's
 * HTTP/2 client (node:http2, about 8 ms), needed only when a server negotiates HTTP/2, which newsstats
 * never offers; and commander's node:child_process, needed only for executable subcommands, which
 * newsstats has none of. Each is deferred to its first use. Should a new version word them
 * differently, the build warns and leaves that file as it is.
 */
const deferredRequires = [
  {
    file: /node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    eager: "const connectH2 = require('./client-h2.js')",
    lazy: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
  },
  {
    file: /node_modules[\\/]commander[\\/]lib[\\/]command\.js$/,
    eager: "const childProcess = require('node:child_process');",
    lazy: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
];

const deferRequires = {
  name: 'defer-requires',
  setup(pluginBuild) {
    for (const { file, eager, lazy } of deferredRequires) {
      pluginBuild.onLoad({ filter: file }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (source.includes(eager)) return { contents: source.replace(eager, lazy), loader: 'js' };
        return { contents: source, loader: 'js', warnings: [{ text: `\`${eager}\` not found: left as it is` }] };
      });
    }
  },
};

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
  plugins: [deferRequires],
  // exceljs stays in node_modules: bundled, its old dependencies' `new Buffer()` would no longer be
  // inside node_modules and Node would print a deprecation warning on every xlsx export. It is loaded
  // only for -f xlsx, so bundling would save nothing at start-up.
  external: ['exceljs', 'exceljs/*'],
  // Bundled CommonJS (undici, commander) calls require() only for Node's built-ins, and ESM has no
  // require. getBuiltinModule gives them without loading node:module and a CommonJS loader per chunk.
  banner: { js: 'const require = (id) => process.getBuiltinModule(id);' },
});
