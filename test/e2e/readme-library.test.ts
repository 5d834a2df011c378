/**
 * The README's library example, taken from the README itself, runs against the sandbox as a
 * consumer would run it: `import ... from 'newsstats'` resolved through a node_modules link to this
 * package, so the package's exports map is exercised as well.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { REPO, sandbox, spawnAndCollect, tempDir } from './harness.js';

/** Every ```ts block under "## The library", in order. */
function readmeLibraryExamples(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const start = readme.indexOf('## The library');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!);
  if (blocks.length === 0) throw new Error('no ```ts block under "## The library" in README.md');
  return blocks;
}

function readmeLibraryExample(): string {
  return readmeLibraryExamples()[0]!;
}

describe('the README library example', () => {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await sandbox({ key: 'readme-example-key' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs as written, pointed at the sandbox', async () => {
    const source = readmeLibraryExample();
    expect(source).toContain("from 'newsstats'");
    // The one change: the example's placeholder host becomes the sandbox.
    const pointed = source.replace('https://stats.example.com', server.url);
    const { outputText } = ts.transpileModule(pointed, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
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

  it('every typed example compiles, strict, against the library\'s own types', () => {
    const examples = readmeLibraryExamples();
    expect(examples.length).toBeGreaterThanOrEqual(2);
    const folder = tempDir('newsstats-readme-types-');
    const files = examples.map((source, index) => {
      const file = join(folder, `example-${index + 1}.ts`);
      writeFileSync(file, source);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      typeRoots: [join(REPO, 'node_modules', '@types')],
      // `import ... from 'newsstats'` as a consumer writes it, resolved to this checkout's source.
      paths: { newsstats: [join(REPO, 'src', 'index.ts')] },
    });
    // The examples' own errors (what a consumer's tsc would report); the library's source is checked by
    // npm run typecheck, with its own declarations for undici's internals.
    const diagnostics = files.flatMap((file) => {
      const source = program.getSourceFile(file)!;
      return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    });
    const problems = diagnostics.map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName.replace(folder, 'README')}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});
