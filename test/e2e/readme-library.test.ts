/**
 * The README's library example, taken from the README itself, runs against the sandbox as a
 * consumer would run it: `import ... from 'newsstats'` resolved through a node_modules link to this
 * package, so the package's exports map is exercised as well. Every example's types are checked by
 * `npm run typecheck` (scripts/readme-examples.mjs), with the library's source in the same run.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stop as stopEsbuild, transform } from 'esbuild';
import { readmeLibraryExamples } from '../../scripts/readme-examples.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { REPO, sandbox, spawnAndCollect, tempDir } from './harness.js';

describe('the README library example', () => {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await sandbox({ key: 'readme-example-key' });
  });
  afterAll(async () => {
    await server?.close();
    // esbuild's service process ends with its last user, so nothing of it outlives this file.
    await stopEsbuild();
  });

  it('the README shows the library in more than one example, each importing it by name', () => {
    const examples = readmeLibraryExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) expect(example).toMatch(/^import \{[^}]+\} from 'newsstats';$/m);
  });

  it('runs as written, pointed at the sandbox', async () => {
    const source = readmeLibraryExamples()[0]!;
    expect(source).toContain("from 'newsstats'");
    // The one change: the example's placeholder host becomes the sandbox.
    const pointed = source.replace('https://stats.example.com', server.url);
    // esbuild's asynchronous transform (a service process; transformSync would add a worker thread to
    // this test worker, and a shuffled run hung after it once), not TypeScript's transpileModule: loading
    // TypeScript cost this file 0.6 s of CPU on Node 24 and 1.05 s on Node 20.
    const { code: outputText } = await transform(pointed, { loader: 'ts', format: 'esm', target: 'es2022' });
    const consumer = tempDir('newsstats-consumer-');
    mkdirSync(join(consumer, 'node_modules'));
    symlinkSync(REPO, join(consumer, 'node_modules', 'newsstats'), 'dir');
    writeFileSync(join(consumer, 'example.mjs'), outputText);

    // Asynchronously: the sandbox answering the example lives in this process.
    const run = await spawnAndCollect(process.execPath, ['example.mjs'], { PATH: process.env.PATH ?? '', NEWSSTATS_API_KEY: 'readme-example-key' }, { cwd: consumer });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // It prints how many countries mentioned the top person by dominance: a positive count.
    expect(Number(run.stdout.trim())).toBeGreaterThan(0);
  });
});
