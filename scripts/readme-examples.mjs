#!/usr/bin/env node
// The README's library examples as TypeScript files, for `npm run typecheck` to check with the
// library's own source: every ```ts block under "## The library" and in docs/library.md becomes
// build/readme-examples/example-N.ts (git-ignored, as build/ is), which tsconfig.json includes, `import ... from
// 'newsstats'` resolved to src/index.ts by its "paths". One compiler run checks the library and the
// examples together; a test would load TypeScript and the library's types a second time (3-5 s).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLES_FOLDER = join(ROOT, 'build', 'readme-examples');

/** The ```ts blocks of a Markdown text, in order. */
const tsBlocks = (text) => [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);

/**
 * Every ```ts block under "## The library" in README.md, then every one in docs/library.md (the
 * reference the README links to), in order: the README's first block is the one a reader meets first.
 */
export function readmeLibraryExamples() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## The library');
  if (start < 0) throw new Error('README.md has no "## The library" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = tsBlocks(section);
  if (blocks.length === 0) throw new Error('no ```ts block under "## The library" in README.md');
  return [...blocks, ...tsBlocks(readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8'))];
}

/** Writes the examples afresh (a removed block leaves no file behind). */
function writeReadmeExamples() {
  rmSync(EXAMPLES_FOLDER, { recursive: true, force: true });
  mkdirSync(EXAMPLES_FOLDER, { recursive: true });
  readmeLibraryExamples().forEach((source, index) => {
    // `export {}`: each example is a module of its own, as in a consumer's project.
    writeFileSync(join(EXAMPLES_FOLDER, `example-${index + 1}.ts`), `${source}export {};\n`);
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeReadmeExamples();
