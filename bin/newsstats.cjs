#!/usr/bin/env node
// Thin on purpose: load the built entry and run it against this process. Everything else lives in src/cli/main.ts.
// CommonJS, as dist/ is: an ES module here would start Node's ES module loader (about 4 ms) for nothing.
'use strict';

// `newsstats --version` alone answers here, before anything loads: written to fd 1 directly, because
// creating process.stdout (a stream over the pipe or terminal) costs more than the whole answer, about
// 0.15x of `node -e 0` (npm run bench:startup). package.json holds the version (test/unit/api/
// version.test.ts keeps src/version.ts equal to it). Should the write fail (a closed pipe, a full
// disk), main() answers instead and reports it as every other run does.
const words = process.argv.slice(2);
if (!(words.length === 1 && (words[0] === '--version' || words[0] === '-V') && printedVersion())) run();

function printedVersion() {
  try {
    require('node:fs').writeSync(1, `${require('../package.json').version}\n`);
    return true;
  } catch {
    return false;
  }
}

function run() {
  // First, so every file dist/ loads after it is compiled from the cache (bin/compile-cache.cjs).
  require('./compile-cache.cjs').enableCompileCache(require('node:module'), process.env, process.getuid?.());
  const { main, processIo } = require('../dist/cli/main.js');

  // SIGUSR1 would open Node's inspector on 127.0.0.1:9229 (anyone on the machine who can signal us
  // could then run code with our key): a listener of our own replaces Node's (Node 20, 24 and 26 alike;
  // --disable-sigusr1 is not in Node 20, and a shebang cannot pass it). The signal is then ignored.
  process.on('SIGUSR1', () => {});

  main(process.argv, processIo(process)).then((code) => {
    process.exitCode = code;
  });
}
