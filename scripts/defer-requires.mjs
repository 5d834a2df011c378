// An esbuild plugin for scripts/build.mjs (and bench/imports.mjs, so it measures what dist/ holds).
import { readFile } from 'node:fs/promises';

/**
 * Top-level requires in our dependencies that load Node modules a run almost never uses, each deferred
 * to its first use: undici's HTTP/2 client (node:http2, about 8 ms), needed only when a server
 * negotiates HTTP/2, which newsstats never offers; node:http in undici (about 4 ms and 1 MiB on Node 24,
 * with the six modules it loads), read only for its default header size limit (when a client is given
 * none, and the default was changed) and to tell an IncomingMessage from other streams, of which there is none unless node:http was
 * loaded already; and commander's node:child_process, needed only for executable subcommands, which
 * newsstats has none of. Should a new version word them differently, the build warns, which fails it
 * (scripts/build.mjs). Both packages are pinned to exact versions in package.json, and
 * test/build/build.test.ts checks each patch still finds its line.
 */
export const deferredRequires = [
  {
    file: 'undici/lib/dispatcher/client.js',
    eager: "const connectH2 = require('./client-h2.js')",
    lazy: "const connectH2 = (...args) => require('./client-h2.js')(...args)",
  },
  {
    file: 'undici/lib/dispatcher/client.js',
    eager: "const http = require('node:http')",
    // Node's limit is 16 KiB unless --max-http-header-size was given (in NODE_OPTIONS or on the command
    // line): only then is node:http asked.
    lazy: "const http = { get maxHeaderSize () { return [...process.execArgv, ...(process.env.NODE_OPTIONS || '').split(' ')].some((arg) => arg.startsWith('--max-http-header-size')) ? require('node:http').maxHeaderSize : 16384 } }",
  },
  {
    // The test of node:http's limit, made when a client needs the default rather than at load.
    file: 'undici/lib/dispatcher/client.js',
    eager: 'const getDefaultNodeMaxHeaderSize = http &&',
    lazy: 'const getDefaultNodeMaxHeaderSize = () => nodeMaxHeaderSize()()\nconst nodeMaxHeaderSize = () => http &&',
  },
  {
    file: 'undici/lib/core/util.js',
    eager: "const { IncomingMessage } = require('node:http')",
    lazy: "const isIncomingMessage = (constructor) => constructor?.name === 'IncomingMessage' && constructor === require('node:http').IncomingMessage",
  },
  {
    file: 'undici/lib/core/util.js',
    eager: 'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {',
    lazy: 'if (isIncomingMessage(Object.getPrototypeOf(stream).constructor)) {',
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
    for (const file of new Set(deferredRequires.map((patch) => patch.file))) {
      const patches = deferredRequires.filter((patch) => patch.file === file);
      const filter = new RegExp(`node_modules[\\\\/]${file.split('/').map((part) => part.replaceAll('.', '\\.')).join('[\\\\/]')}$`);
      pluginBuild.onLoad({ filter }, async ({ path }) => {
        let contents = await readFile(path, 'utf8');
        const warnings = [];
        for (const { eager, lazy } of patches) {
          if (contents.includes(eager)) contents = contents.replace(eager, lazy);
          else warnings.push({ text: `\`${eager}\` not found: left as it is` });
        }
        return { contents, loader: 'js', warnings };
      });
    }
  },
};
