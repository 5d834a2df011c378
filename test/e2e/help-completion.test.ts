import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bin = join(repo, 'bin/newsstats.js');
let home: string;

beforeAll(() => {
  if (!existsSync(join(repo, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  // A home of its own, so no user config or cache is read.
  home = mkdtempSync(join(tmpdir(), 'newsstats-help-e2e-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

function newsstats(...args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('newsstats help', () => {
  it('help weeks prints the weeks topic', () => {
    const { code, stdout, stderr } = newsstats('help', 'weeks');
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('last4');
    expect(stdout).toContain('202553');
    expect(stdout).toContain('YYYYWW..YYYYWW');
  });

  it('help exit-codes lists every code', () => {
    const { code, stdout } = newsstats('help', 'exit-codes');
    expect(code).toBe(0);
    for (const exitCode of [0, 1, 2, 3, 4, 5, 130]) expect(stdout).toMatch(new RegExp(`^ +${exitCode} +\\S`, 'm'));
  });

  it('help alone lists the topics', () => {
    const { code, stdout } = newsstats('help');
    expect(code).toBe(0);
    expect(stdout).toContain('environment');
    expect(stdout).toContain('newsstats --help');
  });

  it('help people top prints the command\'s --help', () => {
    const { code, stdout } = newsstats('help', 'people', 'top');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: newsstats people top');
    expect(stdout).toBe(newsstats('people', 'top', '--help').stdout);
  });

  it('help nonsense exits 2 with one line on stderr', () => {
    const { code, stdout, stderr } = newsstats('help', 'nonsense');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderrLines(stderr)).toHaveLength(1);
    expect(stderr).toContain('exit-codes');
  });
});

describe('newsstats completion', () => {
  it('completion bash prints a script bash accepts, which completes verbs', () => {
    const { code, stdout, stderr } = newsstats('completion', 'bash');
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

  it('completion zsh and fish print their scripts', () => {
    expect(newsstats('completion', 'zsh').stdout).toMatch(/^#compdef newsstats\n/);
    expect(newsstats('completion', 'fish').stdout).toContain('complete -c newsstats');
  });

  it('completion powershell exits 2 naming the shells', () => {
    const { code, stdout, stderr } = newsstats('completion', 'powershell');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderrLines(stderr)).toHaveLength(1);
    expect(stderr).toContain('bash, zsh, fish');
  });
});
