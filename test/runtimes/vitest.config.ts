import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// npm run test:runtimes: the built library run by Deno, Bun and workerd (Cloudflare Workers) against the
// sandbox, each answer compared with Node's (test/runtimes/runtimes.check.ts). Apart from `npm test`
// because it installs three runtimes (about 600 MB) from the npm registry; CI runs it (.ci/run).
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '../..'),
    include: ['test/runtimes/**/*.check.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
