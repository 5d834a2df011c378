#!/usr/bin/env node
// Thin on purpose: load the built entry and run it against this process. Everything else lives in src/cli/main.ts.
// CommonJS, as dist/ is: an ES module here would start Node's ES module loader (about 4 ms) for nothing.
'use strict';
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
