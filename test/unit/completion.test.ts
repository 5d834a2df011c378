import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import completionCommand from '../../src/cli/commands/completion.js';
import { bashScript } from '../../src/cli/completion/bash.js';
import { fishScript } from '../../src/cli/completion/fish.js';
import { COMPLETED_WEEK_SPECS, completionScript, loadCompletionTree, SHELLS } from '../../src/cli/completion/index.js';
import { buildCompletionTree, type CompletionTree } from '../../src/cli/completion/tree.js';
import { zshScript } from '../../src/cli/completion/zsh.js';
import { UsageError } from '../../src/cli/run/errors.js';
import { HELP_TOPIC_NAMES } from '../../src/cli/help/topics.js';
import { globalOptions } from '../../src/cli/flags/global.js';
import { COMMANDS, loadNoun } from '../../src/cli/run/registry.js';
import { OUTPUT_FORMATS } from '../../src/output/formats.js';
import type { VerbInvocation } from '../../src/cli/run/spec.js';

/** A verb that is only listed, never run. */
const stubInvoke = (): VerbInvocation => ({ view: undefined, validate: () => async () => undefined });

function hasShell(shell: string): boolean {
  return spawnSync(shell, ['-c', 'exit 0'], { stdio: 'ignore' }).status === 0;
}

const HAS_ZSH = hasShell('zsh');
const HAS_FISH = hasShell('fish');

let tree: CompletionTree;
let directory: string;
const scriptPaths: Record<string, string> = {};

beforeAll(async () => {
  // The countries a user's cache would hold (completion.ts reads them from there).
  tree = await loadCompletionTree({ nouns: () => Promise.all(COMMANDS.map(loadNoun)), globalOptions }, ['germany', 'ghana', 'india']);
  directory = mkdtempSync(join(tmpdir(), 'newsstats-completion-'));
  for (const shell of SHELLS) {
    scriptPaths[shell] = join(directory, `newsstats.${shell}`);
    writeFileSync(scriptPaths[shell]!, completionScript(shell, tree));
  }
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function noun(name: string) {
  const found = tree.nouns.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no noun ${name}`);
  return found;
}

function verb(nounName: string, verbName: string) {
  const found = noun(nounName).verbs.find((candidate) => candidate.name === verbName);
  if (!found) throw new Error(`no verb ${nounName} ${verbName}`);
  return found;
}

describe('the completion tree', () => {
  it('has every noun of the command table, in order', () => {
    expect(tree.nouns.map((entry) => entry.name)).toEqual(COMMANDS.map((entry) => entry.name));
  });

  it('has the verbs and options of each noun', () => {
    expect(noun('people').verbs.map((entry) => entry.name)).toEqual(expect.arrayContaining(['top', 'trend', 'list', 'get']));
    const topOptions = verb('people', 'top').options.flatMap((option) => option.names);
    expect(topOptions).toEqual(expect.arrayContaining(['--weeks', '--start', '--end', '--per-week', '--sort', '--limit']));
  });

  it('has the global options with their choices, and help and version', () => {
    const format = tree.globalOptions.find((option) => option.names.includes('--format'));
    expect(format).toMatchObject({ names: ['-f', '--format'], takesValue: true, choices: [...OUTPUT_FORMATS] });
    const names = tree.globalOptions.flatMap((option) => option.names);
    expect(names).toEqual(expect.arrayContaining(['--fields', '--no-header', '-o', '--output', '--sandbox', '-h', '--help', '-V', '--version']));
    expect(tree.globalOptions.find((option) => option.names.includes('--output'))?.valueIsFile).toBe(true);
    expect(tree.globalOptions.find((option) => option.names.includes('--sandbox'))?.takesValue).toBe(false);
  });

  it('has the choices of enumerated options', () => {
    expect(verb('people', 'top').options.find((option) => option.names.includes('--sort'))?.choices).toEqual(['mentions', 'dominance']);
    expect(verb('people', 'trend').options.find((option) => option.names.includes('--metric'))?.choices).toContain('globalSentiment');
  });

  it('has the words of positional arguments: shells, help topics and command paths, config keys', () => {
    expect(verb('completion', '').arguments?.first).toEqual(['bash', 'zsh', 'fish']);
    const help = verb('help', '').arguments;
    expect(help?.first).toEqual(expect.arrayContaining([...HELP_TOPIC_NAMES, 'people', 'countries']));
    expect(help?.secondAfter?.people).toEqual(expect.arrayContaining(['top', 'trend']));
    expect(verb('config', 'set').arguments?.first).toEqual(expect.arrayContaining(['base-url', 'timeout']));
  });

  it('offers the week specs after --weeks', async () => {
    const tree = await loadCompletionTree({ nouns: () => Promise.all(COMMANDS.map(loadNoun)), globalOptions });
    const top = tree.nouns.find((noun) => noun.name === 'people')!.verbs.find((verb) => verb.name === 'top')!;
    expect(top.options.find((option) => option.names.includes('--weeks'))?.choices).toEqual(['current', 'last4', 'last12', 'complete4', 'complete12']);
  });

  it('refuses a word that cannot be one shell word', () => {
    expect(() =>
      buildCompletionTree({
        program: 'newsstats',
        nouns: [{ name: 'x', summary: '', verbs: [{ name: 'y', summary: '', examples: [], options: () => [new Option('--z <v>').choices(['a b'])], invoke: stubInvoke }] }],
        globalOptions: [],
      }),
    ).toThrow(/one shell word/);
  });
});

describe.each(SHELLS)('the %s script', (shell) => {
  it('names every noun, the people verbs, their options and the choices', () => {
    const script = completionScript(shell, tree);
    for (const entry of COMMANDS) expect(script).toContain(entry.name);
    for (const word of ['top', 'trend', '--weeks', '--per-week', 'format', 'mentions dominance', ...OUTPUT_FORMATS]) {
      expect(script).toContain(word);
    }
  });
});

describe('syntax', () => {
  it('bash -n accepts the bash script', () => {
    const result = spawnSync('bash', ['-n', scriptPaths.bash!], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!HAS_ZSH)('zsh -n accepts the zsh script', () => {
    const result = spawnSync('zsh', ['-n', scriptPaths.zsh!], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!HAS_FISH)('fish -n accepts the fish script', () => {
    const result = spawnSync('fish', ['-n', scriptPaths.fish!], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('quotes descriptions: quotes, $() and backticks are text, never run', () => {
    const hostile = `it's "quoted" $(touch ${join(directory, 'pwned')}) \`touch ${join(directory, 'pwned')}\` \\ end`;
    const hostileTree = buildCompletionTree({
      program: 'newsstats',
      nouns: [{ name: 'x', summary: hostile, verbs: [{ name: 'y', summary: hostile, examples: [], options: () => [new Option('--z <v>', hostile)], invoke: stubInvoke }] }],
      globalOptions: [new Option('--g', hostile)],
    });
    const checks: Array<[string, (tree: CompletionTree) => string, boolean]> = [
      ['bash', bashScript, true],
      ['zsh', zshScript, HAS_ZSH],
      ['fish', fishScript, HAS_FISH],
    ];
    for (const [shell, generate, available] of checks) {
      if (!available) continue;
      const path = join(directory, `hostile.${shell}`);
      writeFileSync(path, generate(hostileTree));
      const check = spawnSync(shell, ['-n', path], { encoding: 'utf8' });
      expect(check.status, `${shell}: ${check.stderr}`).toBe(0);
      const source = shell === 'zsh' ? `compdef() { : }; source ${path}` : `source ${path}`;
      const sourced = spawnSync(shell, ['-c', source], { encoding: 'utf8' });
      expect(sourced.status, `${shell}: ${sourced.stderr}`).toBe(0);
    }
    expect(spawnSync('test', ['-e', join(directory, 'pwned')]).status).not.toBe(0);
  });
});

/** COMPREPLY after completing the last word of `words` (the cursor at its end). */
function bashComplete(words: string[]): string[] {
  const quoted = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const program = `source '${scriptPaths.bash}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _newsstats; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', program], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter((line) => line !== '');
}

describe('bash completes', () => {
  it('the nouns', () => {
    expect(bashComplete(['newsstats', ''])).toEqual(COMMANDS.map((entry) => entry.name));
  });

  it('the verbs of a noun: newsstats people t → top trend', () => {
    expect(bashComplete(['newsstats', 'people', 't'])).toEqual(['top', 'trend']);
  });

  it('the choices of an option: newsstats people top --sort → mentions dominance', () => {
    expect(bashComplete(['newsstats', 'people', 'top', '--sort', ''])).toEqual(['mentions', 'dominance']);
  });

  it('global option values anywhere, also after "=" (bash splits --format=csv at =)', () => {
    expect(bashComplete(['newsstats', '-f', ''])).toEqual([...OUTPUT_FORMATS]);
    expect(bashComplete(['newsstats', 'people', 'top', '--format', '=', 'c'])).toEqual(['csv', 'chart']);
    expect(bashComplete(['newsstats', '--format', '='])).toEqual([...OUTPUT_FORMATS]);
  });

  it('options of the verb and the global ones, skipping option values on the way', () => {
    const options = bashComplete(['newsstats', '--format', 'csv', 'people', 'top', '--limit', '5', '--']);
    expect(options).toEqual(expect.arrayContaining(['--weeks', '--per-week', '--sort', '--format', '--output']));
    expect(options).not.toContain('--metric');
    // "countries" after "people" is people's verb, not the countries noun.
    expect(bashComplete(['newsstats', 'people', 'countries', '--w'])).toEqual(['--weeks']);
  });

  it('positional words: shells, help topics and paths, config keys', () => {
    expect(bashComplete(['newsstats', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    expect(bashComplete(['newsstats', 'help', 'e'])).toEqual(expect.arrayContaining(['exit-codes', 'environment', 'export']));
    expect(bashComplete(['newsstats', 'help', 'people', 't'])).toEqual(['top', 'trend']);
    expect(bashComplete(['newsstats', 'config', 'get', 'base'])).toEqual(['base-url']);
    expect(bashComplete(['newsstats', 'people', 'get', ''])).toEqual([]);
  });
});

/** What each shell must offer for the values users type most (#31: none were offered but --format's). */
const VALUE_CASES = {
  weeks: { words: ['people', 'top', '--weeks', ''], offered: [...COMPLETED_WEEK_SPECS] },
  format: { words: ['people', 'top', '--format', 'c'], offered: ['csv', 'chart'] },
  country: { words: ['people', 'top', '--country', 'g'], offered: ['germany', 'ghana'] },
  fromCountry: { words: ['people', 'movers', '--from-country', 'in'], offered: ['india'] },
  // --fields takes the command's own fields, each after the last comma, what comes before kept.
  fields: { words: ['people', 'top', '--fields', 'rank,fu'], offered: ['rank,fullName'] },
  fieldsOfAnother: { words: ['countries', 'list', '--fields', 'countryI'], offered: ['countryId', 'countryIso'] },
  // The fields of the view with every flag at its default: --no-context not given, so the context fields.
  fieldsAtDefaults: { words: ['people', 'links', '--fields', 'articleU'], offered: ['articleUrl'] },
} as const;

describe('bash completes option values', () => {
  it.each(Object.entries(VALUE_CASES))('%s', (_name, { words, offered }) => {
    expect(bashComplete(['newsstats', ...words]).sort()).toEqual([...offered].sort());
  });

  it('--fields=… in one word keeps the option and the fields before the cursor', () => {
    expect(bashComplete(['newsstats', 'people', 'top', '--fields=rank,fu'])).toEqual(['--fields=rank,fullName']);
  });
});

describe.skipIf(!HAS_FISH)('fish completes', () => {
  function fishComplete(line: string): string[] {
    const result = spawnSync('fish', ['--no-config', '-c', `source '${scriptPaths.fish}'; complete -C '${line}'`], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter((entry) => entry !== '').map((entry) => entry.split('\t')[0]!);
  }

  it('verbs, option choices and global options', () => {
    expect(fishComplete('newsstats people t')).toEqual(['top', 'trend']);
    expect(fishComplete('newsstats people top --sort ').sort()).toEqual(['dominance', 'mentions']);
    expect(fishComplete('newsstats -f ').sort()).toEqual([...OUTPUT_FORMATS].sort());
    expect(fishComplete('newsstats people countries --w')).toEqual(['--weeks']);
    expect(fishComplete('newsstats help people ')).toEqual(expect.arrayContaining(['top', 'trend']));
  });

  it.each(Object.entries(VALUE_CASES))('option values: %s', (_name, { words, offered }) => {
    expect(fishComplete(['newsstats', ...words].join(' ')).sort()).toEqual([...offered].sort());
  });
});

describe.skipIf(!HAS_ZSH)('zsh completes', () => {
  /** Runs _newsstats with the completion builtins stubbed to print what they were offered. */
  function zshComplete(words: string[]): string[] {
    const quoted = words.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
    const stubs = [
      'compdef() { : }',
      '_describe() { local name=${@[-1]}; print -rl -- ${${(P)name}%%:*} }',
      // Only the words offered, whatever options come before -a (a list's -qS ,).
      'compadd() { while (( $# )) && [[ $1 != -a ]]; do shift; done; (( $# )) && print -rl -- ${(P)2} }',
      '_files() { print -r -- "<files>" }',
      '_message() { : }',
      'compset() { : }',
    ].join('\n');
    const program = `${stubs}\nsource '${scriptPaths.zsh}'\nwords=(${quoted}); CURRENT=${words.length}\n_newsstats`;
    const result = spawnSync('zsh', ['-f', '-c', program], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    return result.stdout.split('\n').filter((line) => line !== '');
  }

  it('nouns, verbs, option choices, options and files', () => {
    expect(zshComplete(['newsstats', ''])).toEqual(COMMANDS.map((entry) => entry.name));
    expect(zshComplete(['newsstats', 'people', ''])).toEqual(expect.arrayContaining(['top', 'trend']));
    expect(zshComplete(['newsstats', 'people', 'top', '--sort', ''])).toEqual(['mentions', 'dominance']);
    expect(zshComplete(['newsstats', 'people', 'top', '--'])).toEqual(expect.arrayContaining(['--weeks', '--per-week', '--format']));
    expect(zshComplete(['newsstats', '-o', ''])).toEqual(['<files>']);
  });

  // The stubs offer every candidate: zsh itself keeps those matching what is typed (after compset's
  // prefix, the fields before the last comma).
  it.each(Object.entries(VALUE_CASES))('option values: %s', (_name, { words, offered }) => {
    expect(zshComplete(['newsstats', ...words])).toEqual(expect.arrayContaining(offered.map((word) => word.split(',').at(-1))));
  });
});

describe('newsstats completion <shell>', () => {
  const [spec] = completionCommand.verbs;

  it('refuses an unknown shell, naming the valid ones', () => {
    expect(() => spec!.invoke({ args: ['powershell'], flags: {} }).validate()).toThrow(UsageError);
    expect(() => spec!.invoke({ args: ['powershell'], flags: {} }).validate()).toThrow(/bash, zsh, fish/);
  });

  it('returns the script as text (main writes it to stdout)', async () => {
    const ctx = { commands: { nouns: () => Promise.all(COMMANDS.map(loadNoun)), globalOptions }, globals: { cache: false } };
    const output = await spec!.invoke({ args: ['bash'], flags: {} }).validate()(ctx as never);
    expect(output).toEqual({ text: expect.stringContaining('complete -F _newsstats newsstats') });
  });
});
