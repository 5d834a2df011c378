/**
 * dist/help/ (scripts/static-help.mjs): bin/newsstats.cjs prints these files for a piped `--help`
 * without loading commander, so each must be exactly what main() prints for that command line, and
 * every noun and verb must have one (test/global-setup.ts builds dist/ from the current src/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { helpCommandLines, staticHelpFile } from '../../scripts/static-help.mjs';
import { COMMANDS, loadNoun } from '../../src/cli/run/registry.js';
import { REPO, runCli, spawnCli } from '../e2e/harness.js';

const HELP = join(REPO, 'dist', 'help');
const lines = await helpCommandLines(COMMANDS, loadNoun);

describe('dist/help: the piped --help of every command, written by the build', () => {
  it('has one file for the program, each noun and each named verb, and no other', () => {
    expect(lines).toContainEqual([]);
    expect(lines).toContainEqual(['people', 'top']);
    expect(lines).toContainEqual(['weeks']);
    expect(readdirSync(HELP).sort()).toEqual(lines.map(staticHelpFile).sort());
  });

  // Another environment than the build's (a profile, colour forced, a width): piped help ignores them all.
  const env = { NEWSSTATS_PROFILE: 'work', NEWSSTATS_BASE_URL: 'http://127.0.0.1:9', FORCE_COLOR: '1', COLUMNS: '40' };
  it.each(lines.map((words) => [words.join(' ') || '(the program)', words]))('%s: equals what main() prints', async (_name, words) => {
    const result = await runCli([...(words as string[]), '--help'], { env });
    expect(result.code).toBe(0);
    expect(readFileSync(join(HELP, staticHelpFile(words as string[])), 'utf8')).toBe(result.stdout);
  });

  it('bin/newsstats.cjs prints it for --help, -h and no words at all, exit 0; other command lines still reach commander', async () => {
    // Spawned: these answers come from bin/newsstats.cjs itself, before main() loads; one run per branch of it.
    const top = readFileSync(join(HELP, 'newsstats.people.top.txt'), 'utf8');
    expect(await spawnCli(['people', 'top', '--help'])).toMatchObject({ code: 0, stdout: top, stderr: '' });
    expect(await spawnCli(['people', 'top', '-h'])).toMatchObject({ code: 0, stdout: top, stderr: '' });
    expect(await spawnCli([])).toMatchObject({ code: 0, stdout: readFileSync(join(HELP, 'newsstats.txt'), 'utf8') });
    for (const words of [['people', 'nope', '--help'], ['--sandbox', '--help'], ['people', 'top', '--help', '-q']]) {
      const { code, stdout, stderr } = await runCli(words);
      expect(await spawnCli(words)).toMatchObject({ code, stdout, stderr });
    }
  });
});
