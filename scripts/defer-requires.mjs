// An esbuild plugin for scripts/build.mjs (and bench/imports.mjs, so it measures what dist/ holds).
import { readFile } from 'node:fs/promises';

/**
 * Two top-level requires in our dependencies load Node modules a run almost never uses: undici's
 * HTTP/2 client (node:http2, about 8 ms), needed only when a server negotiates HTTP/2, which newsstats
 * never offers; and commander's node:child_process, needed only for executable subcommands, which
 * newsstats has none of. Each is deferred to its first use. Should a new version word them
 * differently, the build warns, which fails it (scripts/build.mjs). Both packages are pinned to exact
 * versions in package.json, and test/build/build.test.ts checks each patch still finds its line.
 */
export const deferredRequires = [
  {
    file: 'undici/lib/dispatcher/client.js',
    eager: "const connectH2 = require('./client-h2.js')",
    lazy: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
  },
  {
    file: 'commander/lib/command.js',
    eager: "const childProcess = require('node:child_process');",
    lazy: "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
  },
];

export const deferRequires = {
  name: 'defer-requires',
  setup(pluginBuild) {
    for (const { file, eager, lazy } of deferredRequires) {
      const filter = new RegExp(`node_modules[\\\\/]${file.split('/').map((part) => part.replaceAll('.', '\\.')).join('[\\\\/]')}$`);
      pluginBuild.onLoad({ filter }, async ({ path }) => {
        const source = await readFile(path, 'utf8');
        if (source.includes(eager)) return { contents: source.replace(eager, lazy), loader: 'js' };
        return { contents: source, loader: 'js', warnings: [{ text: `\`${eager}\` not found: left as it is` }] };
      });
    }
  },
};
