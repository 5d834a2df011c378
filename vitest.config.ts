import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn the CLI and a sandbox per file; two cores run two files at a time.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
