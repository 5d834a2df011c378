/**
 * docs/commands.md is the command reference, generated from the command tree by `npm run
 * docs:commands` (scripts/commands-doc.mjs): it must hold exactly what main() prints for every
 * command line's piped `--help`, so a flag added, renamed or described anew cannot leave it behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandsMarkdown } from '../../scripts/commands-doc.mjs';
import { helpCommandLines } from '../../scripts/static-help.mjs';
import { COMMANDS, loadNoun } from '../../src/cli/run/registry.js';
import { REPO, runCli } from '../e2e/harness.js';

describe('docs/commands.md, the command reference', () => {
  it('equals the help main() prints for the program, every noun and every verb (npm run docs:commands rewrites it)', async () => {
    const helps: Array<[string[], string]> = [];
    for (const words of await helpCommandLines(COMMANDS, loadNoun)) {
      const result = await runCli([...words, '--help'], { env: {} });
      expect(result.code, words.join(' ')).toBe(0);
      helps.push([words, result.stdout]);
    }
    expect(helps.map(([words]) => words.join(' '))).toContain('people top');
    const page = readFileSync(join(REPO, 'docs', 'commands.md'), 'utf8');
    expect(page, 'docs/commands.md is out of date: run npm run docs:commands').toBe(commandsMarkdown(helps));
  });
});
