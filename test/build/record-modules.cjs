// Preloaded by test/build/startup-modules.test.ts (node -r): at exit, writes to $NEWSSTATS_RECORD_MODULES
// the files the run loaded through require() and the public built-in modules loaded in the process.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const builtins = process.moduleLoadList
    .filter((entry) => entry.startsWith('NativeModule ') && !entry.includes('internal/'))
    .map((entry) => entry.slice('NativeModule '.length));
  writeFileSync(process.env.NEWSSTATS_RECORD_MODULES, JSON.stringify({ files: Object.keys(require.cache), builtins }));
});
