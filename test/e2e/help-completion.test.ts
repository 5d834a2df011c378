import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS, loadNoun } from '../../src/cli/run/registry.js';
import { runCli, runCliWithHome, sandbox, sandboxEnv, tempDir } from './harness.js';

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

  it('--country completes the countries cached for the profile, read when the script is made, never requested', async () => {
    const userHome = tempDir('newsstats-completion-countries-');
    const server = await sandbox();
    const env = sandboxEnv(server);
    const bashCompletes = (script: string, typed: string) => {
      const path = join(userHome, 'newsstats.bash');
      writeFileSync(path, script);
      const program = `source '${path}'; COMP_WORDS=(newsstats people top --country ${typed}); COMP_CWORD=4; _newsstats; echo "\${COMPREPLY[*]}"`;
      return spawnSync('bash', ['-c', program], { encoding: 'utf8' }).stdout.trim();
    };
    try {
      // Nothing cached yet: no country words (completion never asks the service for them).
      const before = await runCliWithHome(userHome, ['completion', 'bash'], { env });
      expect(before.code).toBe(0);
      expect(bashCompletes(before.stdout, 'ger')).toBe('');
      expect((await runCliWithHome(userHome, ['countries', 'list', '-f', 'json'], { env })).code).toBe(0);
    } finally {
      await server.close();
    }
    // The service is gone: the script is made from the cache alone.
    const after = await runCliWithHome(userHome, ['completion', 'bash'], { env });
    expect(after.code).toBe(0);
    expect(bashCompletes(after.stdout, 'ger')).toBe('germany');
  });

  it('a config file that cannot be read costs the country words, never the script', async () => {
    const userHome = tempDir('newsstats-completion-config-');
    mkdirSync(join(userHome, 'config', 'newsstats'), { recursive: true });
    writeFileSync(join(userHome, 'config', 'newsstats', 'config.json'), '{not json');
    const result = await runCliWithHome(userHome, ['completion', 'bash']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('complete -F _newsstats newsstats');
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

/** Every --help there is: newsstats, each noun, each verb (#18: nine example lines ran past 80 columns). */
async function everyHelp(): Promise<Array<{ path: string[]; text: string }>> {
  const paths: string[][] = [[]];
  for (const entry of COMMANDS) {
    const noun = await loadNoun(entry);
    paths.push([noun.name], ...noun.verbs.filter((verbSpec) => verbSpec.name !== '').map((verbSpec) => [noun.name, verbSpec.name]));
  }
  return Promise.all(paths.map(async (path) => ({ path, text: (await newsstats(...path, '--help')).stdout })));
}

/** The examples of a help text as a shell reads them: continuation lines joined, comments left out. */
function examplesOf(help: string): string[] {
  const section = help.split('\nExamples:\n')[1] ?? '';
  return section.replace(/ \\\n {6}/g, ' ').split('\n').filter((line) => line.startsWith('  $ ')).map((line) => line.slice(4));
}

describe('help examples', () => {
  it('every line of every command\'s --help fits 80 columns, examples included', async () => {
    const helps = await everyHelp();
    expect(helps.length).toBeGreaterThan(40);
    for (const { path, text } of helps) {
      for (const line of text.split('\n')) expect(line.length, `newsstats ${path.join(' ')} --help: ${line}`).toBeLessThanOrEqual(80);
    }
  });

  it('a long example continues with " \\" and reads back as the verb declares it', async () => {
    const help = (await newsstats('people', 'top', '--help')).stdout;
    expect(help).toContain('  $ newsstats people top --weeks 202636..202647 --per-week --limit 10 \\\n      --format csv --output panel.csv\n');
    const verbs = (await loadNoun(COMMANDS.find((entry) => entry.name === 'people')!)).verbs;
    expect(examplesOf(help)).toEqual(verbs.find((verbSpec) => verbSpec.name === 'top')!.examples.map((example) => `newsstats ${example}`));
  });

  it('the completion install lines make the folder first; a comment goes above its example', async () => {
    const help = (await newsstats('completion', '--help')).stdout;
    expect(examplesOf(help)).toEqual([
      'mkdir -p ~/.local/share/bash-completion/completions && newsstats completion bash > ~/.local/share/bash-completion/completions/newsstats',
      'newsstats completion zsh > "${fpath[1]}/_newsstats"',
      'mkdir -p ~/.config/fish/completions && newsstats completion fish > ~/.config/fish/completions/newsstats.fish',
    ]);
    expect((await newsstats('sandbox', '--help')).stdout).toContain(
      '  # answers with nulls, unknown fields and extreme values the contract allows\n  $ newsstats sandbox --port 0 --wild --seed 7\n',
    );
  });

  it('auth login --help: a line that pipes into newsstats is not prefixed with another newsstats', async () => {
    const examples = examplesOf((await newsstats('auth', 'login', '--help')).stdout);
    expect(examples).toContain('printf %s "$KEY" | newsstats --profile staging auth login --with-key');
    for (const example of examples) expect(example).not.toMatch(/newsstats .*newsstats|^newsstats printf/);
  });
});
