import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// npm run test:exe: the single executable (build/newsstats, or NEWSSTATS_EXE) where it differs from the
// installed package, such as --jq's worker started from assets inside it (test/exe/*.check.ts).
// Apart from `npm test` because the executable takes half a minute to build and is 150 MiB; CI builds
// it and runs this (.ci/run).
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/exe/**/*.check.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
