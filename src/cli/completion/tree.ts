/**
 * The command tree as plain data for the completion script generators: nouns, verbs, options and
 * the words each position accepts. Built from the same NounSpecs and global options that main.ts
 * registers with commander, so a new verb or flag is completed without touching this code.
 */
import type { Option } from 'commander';
import type { AnyVerbSpec, NounSpec } from '../run/spec.js';

export interface CompletionOption {
  /** As declared, e.g. '-f, --format <format>'. */
  flags: string;
  /** Every spelling, short first: ['-f', '--format']. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** The only values the option accepts (commander's .choices()). */
  choices?: string[];
  /** The value is a path, so the shell completes file names (e.g. --output <file>). */
  valueIsFile?: boolean;
  /** The value is a comma-separated list of these words (--fields): the part after the last comma completes. */
  list?: string[];
}

/** Words offered for a command's positional arguments. */
export interface CompletionArguments {
  /** For the first positional argument. */
  first: string[];
  /** For the second, by the value of the first (`help people <TAB>` offers people's verbs). */
  secondAfter?: Record<string, string[]>;
}

export interface CompletionVerb {
  /** '' for a noun that is itself the command (weeks, api, completion). */
  name: string;
  summary: string;
  options: CompletionOption[];
  /** Global options whose value this command completes with words of its own (--fields: its fields). */
  narrowed?: CompletionOption[];
  arguments?: CompletionArguments;
}

export interface CompletionNoun {
  name: string;
  summary: string;
  verbs: CompletionVerb[];
}

export interface CompletionTree {
  program: string;
  /** Accepted by every command, before or after the noun. */
  globalOptions: CompletionOption[];
  nouns: CompletionNoun[];
}

/** Commander adds these to every command itself, so they are not among the declared options. */
const BUILT_IN_OPTIONS: readonly CompletionOption[] = [
  { flags: '-h, --help', names: ['-h', '--help'], description: 'display help for command', takesValue: false },
  { flags: '-V, --version', names: ['-V', '--version'], description: 'output the version number', takesValue: false },
];

/** A completion word must survive the shells' word splitting unquoted. */
const SAFE_WORD = /^[\w.,:@%+=/-]+$/;

function checkWords(words: readonly string[], where: string): string[] {
  for (const word of words) {
    if (!SAFE_WORD.test(word)) throw new Error(`completion: "${word}" (${where}) cannot be completed as one shell word`);
  }
  return [...words];
}

/** One line of help text: scripts show descriptions on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function completionOption(option: Option): CompletionOption {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  const takesValue = option.required || option.optional;
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1] ?? '';
  return {
    flags: option.flags,
    names: checkWords(names, option.flags),
    description: oneLine(option.description),
    takesValue,
    ...(takesValue && option.argChoices && { choices: checkWords(option.argChoices, option.flags) }),
    ...(takesValue && !option.argChoices && /file|path/i.test(valueName) && { valueIsFile: true }),
  };
}

export interface CompletionTreeInput {
  program: string;
  nouns: readonly NounSpec[];
  globalOptions: readonly Option[];
  /** Words for positional arguments, keyed by command path: 'completion', 'config set'. */
  arguments?: Readonly<Record<string, CompletionArguments>>;
  /** Words offered for the value of an option without choices, by its long name: '--weeks'. */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Words of a global option's comma-separated value that depend on the command, by long name: '--fields'. */
  listsByCommand?: Readonly<Record<string, (verb: AnyVerbSpec) => readonly string[] | undefined>>;
}

function commandPath(noun: string, verb: string): string {
  return verb ? `${noun} ${verb}` : noun;
}

export function buildCompletionTree(input: CompletionTreeInput): CompletionTree {
  const withValues = (option: CompletionOption): CompletionOption => {
    const words = option.takesValue && !option.choices ? input.values?.[option.names.at(-1)!] : undefined;
    return words ? { ...option, choices: checkWords(words, option.flags) } : option;
  };
  const visible = (options: readonly Option[]) => options.filter((option) => !option.hidden).map(completionOption).map(withValues);
  const globalOptions = visible(input.globalOptions);
  const narrowed = (verb: AnyVerbSpec): CompletionOption[] =>
    Object.entries(input.listsByCommand ?? {}).flatMap(([name, wordsOf]) => {
      const option = globalOptions.find((candidate) => candidate.names.includes(name));
      const words = wordsOf(verb);
      return option && words && words.length > 0 ? [{ ...option, list: checkWords(words, `${option.flags} of ${verb.name}`) }] : [];
    });
  return {
    program: input.program,
    globalOptions: [...globalOptions, ...BUILT_IN_OPTIONS],
    nouns: input.nouns.map((noun) => ({
      name: checkWords([noun.name], 'noun')[0]!,
      summary: oneLine(noun.summary),
      verbs: noun.verbs.map((verb): CompletionVerb => {
        const words = input.arguments?.[commandPath(noun.name, verb.name)];
        const ownValues = narrowed(verb);
        return {
          name: verb.name === '' ? '' : checkWords([verb.name], noun.name)[0]!,
          summary: oneLine(verb.summary),
          options: visible(verb.options?.() ?? []),
          ...(ownValues.length > 0 && { narrowed: ownValues }),
          ...(words && {
            arguments: {
              first: checkWords(words.first, 'argument'),
              ...(words.secondAfter && {
                secondAfter: Object.fromEntries(
                  Object.entries(words.secondAfter).map(([first, second]) => [first, checkWords(second, 'argument')]),
                ),
              }),
            },
          }),
        };
      }),
    })),
  };
}

/** The named verbs of a noun; none for a noun that is itself the command. */
export function namedVerbs(noun: CompletionNoun): CompletionVerb[] {
  return noun.verbs.filter((verb) => verb.name !== '');
}

/** Every verb with its noun and its `noun/verb` path, the key the scripts' case branches match on. */
export function verbPaths(tree: CompletionTree) {
  return tree.nouns.flatMap((noun) => noun.verbs.map((verb) => ({ noun: noun.name, path: `${noun.name}/${verb.name}`, verb })));
}

/** How an option's value completes: `words <choices>`, `list <words>` (comma-separated), `file`, or `any` (free text). */
export function valueKind(option: CompletionOption): string {
  if (option.list) return `list ${option.list.join(' ')}`;
  if (option.choices) return `words ${option.choices.join(' ')}`;
  return option.valueIsFile ? 'file' : 'any';
}

/**
 * Every option that takes a value, with the verb path it belongs to (`*` for the global ones): a
 * command's own first, then the global ones it narrows, then the global ones (scripts match in order).
 */
export function valueOptions(tree: CompletionTree): Array<{ path: string; option: CompletionOption }> {
  return [
    ...verbPaths(tree).flatMap(({ path, verb }) =>
      [...verb.options.filter((option) => option.takesValue), ...(verb.narrowed ?? [])].map((option) => ({ path, option })),
    ),
    ...tree.globalOptions.filter((option) => option.takesValue).map((option) => ({ path: '*', option })),
  ];
}
