/**
 * main() builds in full only the verb being run (its options, examples and action); the noun's other
 * verbs are listed by name and summary. Where the word after the noun names no verb, every verb is
 * built, so commander can list them and suggest the one meant.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../e2e/harness.js';

describe('the command tree main() builds', () => {
  it('runs the verb named after the noun, global options with values before it or not', async () => {
    for (const args of [['people', 'top'], ['-f', 'json', 'people', 'top'], ['people', '--format', 'json', 'top']]) {
      const { code, stdout, stderr } = await runCli(['--sandbox', '-q', ...args, '--weeks', 'last4', '--limit', '2', '--format', 'json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toHaveLength(2);
    }
  });

  it('still suggests the verb meant, and lists every verb with its arguments for the noun', async () => {
    const misspelt = await runCli(['people', 'tpo']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain('top');
    const listed = await runCli(['people', '--help']);
    expect(listed.stdout).toMatch(/links \[options\] <personHash>/);
    expect(listed.stdout).toMatch(/top \[options\]/);
  });
});
