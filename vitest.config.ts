import { setFlagsFromString } from 'node:v8';
import { defineConfig } from 'vitest/config';

/**
 * V8 tuned for throughput in the test process and its worker threads (the processes the tests start
 * are not: they run as users run them). The suite runs a little of a great deal of code, and V8's
 * optimising compilers spent about 10 s of a 65 s run (Node 24, `perf record -a`) compiling it in
 * background threads, for code that seldom ran again. Efficiency mode, which Chrome gives background
 * tabs, puts off TurboFan and uses fewer threads; Node 20's V8 (11.3) has no such mode, and a 4x
 * interrupt budget puts off optimising there. Either is 0.92x the suite's CPU in paired runs on Node
 * 20, 24 and 26 (README, Development). Both are read as code runs, so setting them now reaches the
 * workers, and safely: flags that change the garbage collector's threads (`--single-threaded`) crash
 * a running isolate. SUITE_V8_FLAGS replaces them, or with an empty value turns them off, to compare
 * (`npm run bench:suite -- --v8-flags`).
 */
const NODE_20_INTERRUPT_BUDGET = 67_584; // V8 11.3's default (`node --v8-options`)
const V8_FLAGS = process.env.SUITE_V8_FLAGS ?? (Number(process.versions.v8.split('.')[0]) >= 12 ? '--efficiency-mode' : `--interrupt-budget=${4 * NODE_20_INTERRUPT_BUDGET}`);
if (V8_FLAGS !== '') setFlagsFromString(V8_FLAGS);

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
