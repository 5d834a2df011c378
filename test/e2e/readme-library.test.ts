/**
 * The README's library example, taken from the README itself, runs against the sandbox as a
 * consumer would run it: `import ... from 'newsstats'` resolved through a node_modules link to this
 * package, so the package's exports map is exercised as well. Every example's types are checked by
 * `npm run typecheck` (scripts/readme-examples.mjs), with the library's source in the same run.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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
    // TypeScript's transpiler, not esbuild's transformSync: that one keeps a worker thread and a service
    // process of its own in this test worker, and a shuffled run of the suite hung after it.
    const { outputText } = ts.transpileModule(pointed, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
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
