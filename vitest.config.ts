import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first: the spawned tests run bin/newsstats.cjs, which loads it.
    globalSetup: ['test/global-setup.ts'],
    // Almost every test runs the CLI in-process now, but files still wait on sockets, tmux and the
    // few real processes: three files at once on two cores took 42 s against 48 s with two and 46 s
    // with four (Node 24, quiet machine, one run each, `npm run bench:suite -- --workers N`; README,
    // Development).
    maxWorkers: 3,
    // Worker threads start faster and share more than forked processes; nothing in-process needs a
    // process of its own (no chdir, no signal handlers: main() gets them only from the real process).
    pool: 'threads',
    // Files in one worker share the loaded modules instead of importing src/ afresh for each file: a
    // third of the suite's CPU (149 s against 219 s with --isolate; README, Development). Safe here:
    // main() keeps no module state between runs, the tests that edit process.env restore it, and
    // a shuffled run (--sequence.shuffle) passes.
    isolate: false,
    // Transformed test and source files kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by content: an edited file is transformed again): vitest's "transform" time went from 9.8 s
    // to 2.4 s on the second run.
    experimental: { fsModuleCache: true },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
