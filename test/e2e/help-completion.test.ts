import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './harness.js';

const home = tempDir('newsstats-help-e2e-');

/** In-process, with an isolated home of its own so no user config or cache is read. */
function newsstats(...args: string[]) {
  return runCli(args);
}

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('newsstats help', async () => {
  it('help weeks prints the weeks topic', async () => {
    const { code, stdout, stderr } = await newsstats('help', 'weeks');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('last4');
    expect(stdout).toContain('202553');
    expect(stdout).toContain('YYYYWW..YYYYWW');
  });

  it('help exit-codes lists every code', async () => {
    const { code, stdout } = await newsstats('help', 'exit-codes');
    expect(code).toBe(0);
    for (const exitCode of [0, 1, 2, 3, 4, 5, 130]) expect(stdout).toMatch(new RegExp(`^ +${exitCode} +\\S`, 'm'));
  });

  it('help alone lists the topics', async () => {
    const { code, stdout } = await newsstats('help');
    expect(code).toBe(0);
    expect(stdout).toContain('environment');
    expect(stdout).toContain('newsstats --help');
  });

  it('help people top prints the command\'s --help', async () => {
    const { code, stdout } = await newsstats('help', 'people', 'top');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: newsstats people top');
    expect(stdout).toBe((await newsstats('people', 'top', '--help')).stdout);
  });

  it('help nonsense exits 2 with one line on stderr', async () => {
    const { code, stdout, stderr } = await newsstats('help', 'nonsense');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderrLines(stderr)).toHaveLength(1);
    expect(stderr).toContain('exit-codes');
  });
});

describe('newsstats completion', async () => {
  it('completion bash prints a script bash accepts, which completes verbs', async () => {
    const { code, stdout, stderr } = await newsstats('completion', 'bash');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('complete -F _newsstats newsstats');
    const path = join(home, 'newsstats.bash');
    writeFileSync(path, stdout);
    const completed = spawnSync('bash', ['-c', `source '${path}'; COMP_WORDS=(newsstats people t); COMP_CWORD=2; _newsstats; echo "\${COMPREPLY[*]}"`], {
      encoding: 'utf8',
    });
    expect(completed.stdout.trim()).toBe('top trend');
  });

  it('completion zsh and fish print their scripts', async () => {
    expect((await newsstats('completion', 'zsh')).stdout).toMatch(/^#compdef newsstats\n/);
    expect((await newsstats('completion', 'fish')).stdout).toContain('complete -c newsstats');
  });

  it('completion powershell exits 2 naming the shells', async () => {
    const { code, stdout, stderr } = await newsstats('completion', 'powershell');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderrLines(stderr)).toHaveLength(1);
    expect(stderr).toContain('bash, zsh, fish');
  });
});
