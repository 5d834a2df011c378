import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first: the spawned tests run bin/newsstats.cjs, which loads it.
    globalSetup: ['test/global-setup.ts'],
    // End-to-end tests run the CLI in-process against a sandbox per file; a few spawn it. Much of a
    // file's time is spent waiting on sockets, so two files run at once even on two cores (vitest's
    // default there is one: cores - 1).
    maxWorkers: 2,
    // Worker threads start faster and share more than forked processes; nothing in-process needs a
    // process of its own (no chdir, no signal handlers: main() gets them only from the real process).
    pool: 'threads',
    // Files in one worker share the loaded modules instead of importing src/ afresh for each file: a
    // third of the suite's CPU (149 s against 219 s with --isolate; README, Development). Safe here:
    // main() keeps no module state between runs, the tests that edit process.env restore it, and
    // a shuffled run (--sequence.shuffle) passes.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
