/**
 * docs/design.md's "Layout" names every folder of src/ and no folder that is gone, so a reader who
 * starts there finds each part of the code where the page says it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every folder under src/, as `src/a/b/`. */
function folders(relative = 'src'): string[] {
  return readdirSync(join(ROOT, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [`${relative}/${entry.name}/`, ...folders(`${relative}/${entry.name}`)]);
}

/** The code block under "## Layout". */
function layoutBlock(): string {
  const design = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');
  const section = design.slice(design.indexOf('## Layout\n'));
  return section.slice(section.indexOf('```\n') + 4, section.indexOf('\n```', section.indexOf('```\n') + 4));
}

describe('docs/design.md "Layout"', () => {
  const block = layoutBlock();
  // `src/cli/commands/<noun>/` stands for each noun's folder.
  const named = [...block.matchAll(/src\/[\w\-/<>]*\//g)].map((match) => match[0]);
  const isNamed = (folder: string) => named.some((name) => name === folder || (name.includes('<noun>/') && folder.startsWith(name.slice(0, name.indexOf('<noun>/'))) && folder.split('/').length === name.split('/').length));

  it('names every folder of src/', () => {
    expect(folders().filter((folder) => !isNamed(folder))).toEqual([]);
  });

  it('names no folder that src/ does not have', () => {
    const existing = new Set(folders());
    expect(named.filter((name) => !name.includes('<noun>') && !existing.has(name))).toEqual([]);
  });
});
