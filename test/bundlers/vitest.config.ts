import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// npm run test:bundlers: a consumer of the built library bundled by esbuild, Rollup and webpack and run
// (test/bundlers/consumers.check.ts). Apart from `npm test` because Rollup and webpack take seconds each; CI runs both (.ci/run).
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/bundlers/**/*.check.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
