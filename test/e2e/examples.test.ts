/**
 * Every example that `--help` shows, and every example in the README's command table, runs as
 * written against the sandbox: neither can drift from what the commands accept. Examples that need a shell (pipes, redirections, variables), a
 * foreground server or a login to a real host are checked by their own tests instead.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/run/registry.js';
import { REPO, runCliOnTerminal, runCliWithHome, splitExample, tempDir, useLoggedSandbox } from './harness.js';

const NEEDS_A_SHELL = /[|<>$]/;
const RUN_ELSEWHERE = [/^sandbox\b/, /^auth login\b/];


const examples: string[] = [];
for (const entry of COMMANDS) {
  const noun = (await entry.load()).default;
  for (const verb of noun.verbs) examples.push(...verb.examples);
}
/** The README's command table ends each row with an example: `newsstats ...` (pipes escaped as \\|). */
const readmeExamples = readFileSync(join(REPO, 'README.md'), 'utf8')
  .split('\n')
  .map((line) => /\| `newsstats ([^`]+)` \|\s*$/.exec(line)?.[1]?.replaceAll('\\|', '|'))
  .filter((example): example is string => example !== undefined);
examples.push(...readmeExamples.filter((example) => !examples.includes(example)));

const runnable = examples.filter((example) => !NEEDS_A_SHELL.test(example) && !RUN_ELSEWHERE.some((pattern) => pattern.test(example)));

describe('help examples', () => {
  const logged = useLoggedSandbox();

  it('every verb of every noun shows at least one example', async () => {
    for (const entry of COMMANDS) {
      const noun = (await entry.load()).default;
      for (const verb of noun.verbs) expect(verb.examples.length, `${entry.name} ${verb.name}`).toBeGreaterThan(0);
    }
    expect(readmeExamples.length).toBeGreaterThan(25);
    expect(runnable.length).toBeGreaterThan(60);
  });

  /** A home of its own for each example, whose profiles name a service as `config get` expects. */
  function homeWithProfiles(): string {
    const home = tempDir();
    mkdirSync(join(home, 'config', 'newsstats'), { recursive: true });
    const profile = { 'base-url': 'https://stats.example.com' };
    writeFileSync(join(home, 'config', 'newsstats', 'config.json'), JSON.stringify({ profiles: { default: profile, staging: profile } }));
    return home;
  }

  // One after another: the CLI and the sandbox share this thread, so running examples at once saves
  // nothing and stretches each toward the test timeout (a sync example took 30 s on a busy machine).
  describe('run as written against the sandbox', () => {
    it.each(runnable)('newsstats %s', async (example) => {
      const args = splitExample(example);
      const home = homeWithProfiles();
      // Charts draw on a terminal only, so those examples get one; the rest run in a directory of
      // their own, where their --output files land.
      const result = args.includes('chart')
        ? await runCliOnTerminal(args, { env: { ...logged.env }, home })
        : await runCliWithHome(home, args, { env: { ...logged.env }, cwd: tempDir() });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      // Notes (a cleared cache, a removed key) may go to stderr; errors and warnings may not.
      expect(result.stderr).not.toMatch(/error|warning/i);
    });
  });
});
