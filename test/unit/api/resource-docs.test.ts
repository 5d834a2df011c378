/**
 * Every public method of every resource class carries a doc comment, so a developer's editor shows on
 * hover what the method asks the service and what comes back (the result fields' own docs come from
 * the one schema: src/schema/records.ts). Read from the source text: a method's first declaration
 * (the first of its overloads) must follow a `/** ... *\/` block.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const RESOURCES = join(import.meta.dirname, '..', '..', '..', 'src', 'api', 'resources');
/** A method declared at a class's top level: two spaces, a name (async and generator forms too), its parameters. */
const METHOD = /^ {2}(?:async )?\*?([a-z][A-Za-z]*)\(/;

function undocumentedMethods(file: string): string[] {
  const lines = readFileSync(join(RESOURCES, file), 'utf8').split('\n');
  const seen = new Set<string>();
  const missing: string[] = [];
  lines.forEach((line, index) => {
    const name = METHOD.exec(line)?.[1];
    if (name === undefined || name === 'constructor' || seen.has(name)) return;
    seen.add(name);
    if (!lines[index - 1]?.trim().endsWith('*/')) missing.push(`${file}: ${name}`);
  });
  return missing;
}

describe('the resource methods', () => {
  const files = readdirSync(RESOURCES).filter((file) => file.endsWith('.ts') && file !== 'base.ts');

  it('are found: every resource file declares methods', () => {
    const methods = files.flatMap((file) => readFileSync(join(RESOURCES, file), 'utf8').split('\n').filter((line) => METHOD.test(line) && !line.includes('constructor(')));
    expect(methods.length).toBeGreaterThanOrEqual(20);
  });

  it('each carry a doc comment shown on hover', () => {
    expect(files.flatMap(undocumentedMethods)).toEqual([]);
  });
});
