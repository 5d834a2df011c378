// Preloaded (NODE_OPTIONS=--require) by test/e2e/signal-while-loading.test.ts: sends this process
// SIGTERM as bin/newsstats.cjs requires its loader, before any of dist/ is read. With
// SIGNAL_WHILE_LOADING_DELAY_MAIN set, main() also starts a turn of the event loop later, as a run
// that waited for something before listening for signals itself would.
'use strict';
const Module = require('node:module');
const original = Module.prototype.require;

function delayed(entry) {
  if (!process.env.SIGNAL_WHILE_LOADING_DELAY_MAIN) return entry;
  const { main } = entry;
  return { ...entry, main: (...args) => new Promise((resolve) => setImmediate(resolve)).then(() => main(...args)) };
}

Module.prototype.require = function (id) {
  if (id === './code-cache.cjs') {
    process.kill(process.pid, 'SIGTERM');
    const loader = original.call(this, id);
    return { ...loader, loadDist: (...args) => delayed(loader.loadDist(...args)) };
  }
  if (id === '../dist/cli/main.js') return delayed(original.call(this, id));
  return original.apply(this, arguments);
};
