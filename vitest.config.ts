import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first: the spawned tests run bin/newsstats.cjs, which loads it.
    globalSetup: ['test/global-setup.ts'],
    // Four files at once on two cores: a file spends over half its time waiting (on sockets, timers,
    // tmux and the processes it starts), and a busy machine shares its cores by thread. Beside two
    // CPU hogs four took 51.3 s against 54.8 s with three (Node 24), 53.0 s against 55.8 s (Node 20)
    // and 47.3 s against 53.1 s (Node 26), two runs each, alternating; quiet, four were as fast or
    // faster in all pairs but one early Node 26 pair. Two use the least CPU (0.87x) but were the
    // slowest, quiet and busy (README, Development; `npm run bench:suite -- --workers N`).
    maxWorkers: 4,
    // Each worker is a process of its own, not a thread of vitest's. With worker threads, Node 20 at
    // times aborted the whole run as it ended (exit 134, "Aborted", after every file had passed: once
    // in CI, once in about fifteen local runs), and a thread torn down while a native addon (DuckDB)
    // still has work in hand aborts Node every time. A process is ended with a signal instead, so
    // nothing left at a worker's end can change the run's verdict; a crash while tests run still
    // fails them. It is faster too: quiet, 32.9 s and 30.2 s against 35.9 s and 36.6 s with threads,
    // alternating, Node 20 (docs/development.md, "Processes, not threads").
    pool: 'forks',
    // Files in one worker share the loaded modules instead of importing src/ afresh for each file: a
    // third of the suite's CPU (149 s against 219 s with --isolate; README, Development). Safe here:
    // main() keeps no module state between runs, the tests that edit process.env restore it, and
    // a shuffled run (--sequence.shuffle) passes.
    isolate: false,
    // Transformed test and source files kept on disk between runs (node_modules/.experimental-vitest-cache,
    // keyed by content: an edited file is transformed again): vitest's "transform" time went from 9.8 s
    // to 2.4 s on the second run.
    experimental: { fsModuleCache: true },
    // A bound for a test that hangs, not a judge of speed: a test's verdict may not depend on the
    // machine's load. At 30 s, the code cache's hostile test (six runs of the CLI a case, four cases
    // at once) timed out on Node 26 beside two CPU hogs on a machine whose `node -e 0` takes 95 ms,
    // where each case took 25-31 s. A test that checks that something ends at once sets its own
    // shorter bound.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
