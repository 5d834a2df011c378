#!/usr/bin/env node
// Thin on purpose: load the built entry and run it against this process. Everything else lives in src/cli/main.ts.
// CommonJS, as dist/ is: an ES module here would start Node's ES module loader (about 4 ms) for nothing.
'use strict';
const { main, processIo } = require('../dist/cli/main.js');

main(process.argv, processIo(process)).then((code) => {
  process.exitCode = code;
});
