#!/usr/bin/env node
// Thin on purpose: load the built entry and run it against this process. Everything else lives in src/cli/run/main.ts.
// CommonJS, as dist/ is: an ES module here would start Node's ES module loader (about 4 ms) for nothing.
'use strict';

// Two answers need nothing of dist/cli and are given here, before anything loads, written to fd 1
// directly (creating process.stdout, a stream over the pipe or terminal, costs more than the answer):
// - `newsstats --version`: package.json holds the version (test/unit/api/version.test.ts keeps
//   src/shared/version.ts equal to it);
// - `newsstats`, `newsstats --help` and `newsstats NOUN [VERB] --help` when stdout is no terminal:
//   the text commander would print, written into dist/help/ by the build (scripts/static-help.mjs;
//   test/build/static-help.test.ts keeps it equal to main()'s). Commander, the command tree and the
//   noun's module cost about 0.8x of `node -e 0` on Node 24 and 26 (docs/performance.md, "Start-up
//   machinery"; NEWSSTATS_NO_STARTUP_MACHINERY=1 turns it off).
// Should the first write fail (a closed pipe, a full disk), main() answers instead and reports it as
// every other run does.
const words = process.argv.slice(2);
if (!answered(words)) run();

function answered(words) {
  if (words.length === 1 && (words[0] === '--version' || words[0] === '-V')) {
    return !mayBeClosedStdout(require('node:fs').fstatSync(1)) && written(`${require('../package.json').version}\n`);
  }
  const help = staticHelp(words);
  return help !== undefined && written(help);
}

/**
 * stdout is /dev/null open for reading and writing: what Node leaves where the shell closed it (`>&-`),
 * and the write would succeed with the answer lost. main() tells that from a parent program's discarded
 * stdout and says so (src/cli/run/closed-stdout.ts). A pipe, a file or a terminal costs the one fstat.
 */
function mayBeClosedStdout(stat) {
  const fs = require('node:fs');
  if (!stat.isCharacterDevice() || stat.rdev !== fs.statSync('/dev/null').rdev) return false;
  try {
    return (Number.parseInt(/^flags:\s*([0-7]+)$/m.exec(fs.readFileSync('/proc/self/fdinfo/1', 'utf8'))[1], 8) & 3) === 2;
  } catch {
    return false; // not Linux: as main() there, the answer is written
  }
}

/**
 * The help `words` ask for, as dist/help/ holds it, or undefined when main() must lay it out
 * (NEWSSTATS_NO_STARTUP_MACHINERY=1 always leaves it to main(): docs/performance.md).
 */
function staticHelp(words) {
  if (process.env.NEWSSTATS_NO_STARTUP_MACHINERY) return undefined;
  const last = words.at(-1);
  const command = words.length === 0 ? [] : last === '--help' || last === '-h' ? words.slice(0, -1) : undefined;
  if (command === undefined || command.length > 2 || !command.every((word) => /^[a-z][a-z0-9-]*$/.test(word))) return undefined;
  const fs = require('node:fs');
  try {
    // At a terminal commander wraps help at its width. Only a character device can be one, so the
    // common pipe or file answers without loading node:tty.
    const stat = fs.fstatSync(1);
    if (stat.isCharacterDevice() && (require('node:tty').isatty(1) || mayBeClosedStdout(stat))) return undefined;
    return helpText(`${['newsstats', ...command].join('.')}.txt`);
  } catch {
    return undefined; // no such command: main() says so
  }
}

/** A file of dist/help/ (the standalone executable carries them inside it: scripts/build-exe.mjs). */
function helpText(file) {
  return require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'dist', 'help', file), 'utf8');
}

/** Writes all of `text` to fd 1; false when nothing could be written (main() then answers). */
function written(text) {
  const fs = require('node:fs');
  const bytes = Buffer.from(text);
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += fs.writeSync(1, bytes, offset);
    } catch (error) {
      if (offset === 0) return false;
      // Part of it is out: a reader that went away ends the run quietly, as main() does (exit 0);
      // a pipe another process made non-blocking is waited on; anything else is main()'s to report.
      if (error.code === 'EPIPE') return true;
      if (error.code !== 'EAGAIN') return false;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
  return true;
}

/** A file of dist/ missing or cut off mid-write: what a build in progress leaves. */
function beingRebuilt(error, dist) {
  const inDist = (text) => typeof text === 'string' && text.includes(dist);
  if (error.code === 'ENOENT' || error.code === 'MODULE_NOT_FOUND') return inDist(error.path) || inDist(error.message);
  return error instanceof SyntaxError && inDist(error.stack);
}

/**
 * Ctrl-C, kill or a closed terminal while dist/ loads, before the run listens for signals itself
 * (src/cli/run/lifecycle.ts): without a listener Node would die of it saying nothing, and `sync` or
 * `tap` killed at that moment would leave an orchestrator no line. Nothing has been fetched or written
 * yet, so one line says so and the exit code is the one a later signal gives (130, 143, 129). Once the
 * run adds a listener of its own, these only step aside: a signal the run no longer listens for (a
 * second Ctrl-C during its clean-up) ends the process as Node's default does. A signal during Node's
 * own start, before this file runs, still ends it with no line (docs/sync.md).
 */
function reportSignalsWhileLoading() {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let handedOver = false;
  const onSignal = (signal) => {
    if (!handedOver) {
      try {
        require('node:fs').writeSync(2, `newsstats: interrupted by ${signal} as it started; nothing was fetched or written\n`);
      } finally {
        process.exit(128 + require('node:os').constants.signals[signal]);
      }
    }
    if (process.listenerCount(signal) > 1) return; // the run's own listener has it
    for (const each of signals) process.off(each, onSignal);
    process.kill(process.pid, signal);
  };
  const watch = (event) => {
    if (!signals.includes(event)) return;
    handedOver = true;
    process.off('newListener', watch);
  };
  for (const signal of signals) process.on(signal, onSignal);
  process.on('newListener', watch);
}

function run() {
  reportSignalsWhileLoading();
  // dist/ is loaded with V8 code caches made after a run (bin/code-cache.cjs), in a folder that is the
  // user's alone; without one, by Node's require. `newsstats cache ...` never loads through the caches:
  // `cache clear` must work whatever they hold.
  const { cacheDirectory, loadDist } = require('./code-cache.cjs');
  const directory = words.includes('cache') ? undefined : cacheDirectory(process.env, process.getuid?.());
  const dist = require('node:path').join(__dirname, '..', 'dist');
  let entry;
  try {
    entry = directory === undefined ? require('../dist/cli/main.js') : loadDist(require('node:path').join(dist, 'cli', 'main.js'), { dist, directory, words });
  } catch (error) {
    if (!beingRebuilt(error, dist)) throw error;
    // `git pull && npm install` rebuilds dist/ in place: a run in those seconds finds it incomplete (#31).
    // The same words as src/cli/exit-codes.ts, for a file of dist/ missing later in the run.
    process.stderr.write('error: newsstats is being rebuilt (its dist/ folder is incomplete, as during npm install or npm run build); run it again in a moment\n');
    process.exitCode = 1;
    return;
  }
  const { main, processIo } = entry;

  // SIGUSR1 would open Node's inspector on 127.0.0.1:9229 (anyone on the machine who can signal us
  // could then run code with our key): a listener of our own replaces Node's (Node 20, 24 and 26 alike;
  // --disable-sigusr1 is not in Node 20, and a shebang cannot pass it). The signal is then ignored.
  process.on('SIGUSR1', () => {});

  main(process.argv, processIo(process)).then((code) => {
    process.exitCode = code;
  });
}
