import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds dist/ first: the spawned tests run bin/newsstats.js, which loads it.
    globalSetup: ['test/global-setup.ts'],
    // End-to-end tests run the CLI in-process against a sandbox per file; a few spawn it. Much of a
    // file's time is spent waiting on sockets, so two files run at once even on two cores (vitest's
    // default there is one: cores - 1).
    maxWorkers: 2,
    // Worker threads start faster and share more than forked processes; nothing in-process needs a
    // process of its own (no chdir, no signal handlers: main() gets them only from the real process).
    pool: 'threads',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
