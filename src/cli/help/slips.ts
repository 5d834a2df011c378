/**
 * What a slip on the command line most likely meant, said in the error's one line: a verb typed
 * without its noun (`newsstats top`), `newsstats version`, a week given as an argument
 * (`people top last4`), `--weeks last 4`. Consulted only when commander has refused the line, so a
 * run that parses never loads it. Week specs written another way (`2026-W46`, a reversed range) are
 * suggested by the week grammar itself (src/shared/weeks.ts).
 */
import type { Option } from 'commander';
import { parseWeekSpec } from '../../shared/weeks.js';
import { posixQuote } from '../completion/quote.js';
import { UsageError } from '../run/errors.js';
import type { NounSpec } from '../run/spec.js';
import { closest, didYouMean } from '../../shared/suggest.js';

export interface CommandLine {
  /** The words after `newsstats`, as typed. */
  args: readonly string[];
  nouns: readonly NounSpec[];
  globalOptions: readonly Option[];
}

/** A better one-line error for commander's refusal `code`, or undefined to keep commander's own. */
export function explainSlip(code: string, line: CommandLine, message = ''): UsageError | undefined {
  switch (code) {
    case 'commander.missingArgument':
      return missingArgument(message);
    case 'commander.unknownCommand':
      return unknownCommand(line);
    case 'commander.excessArguments':
      return weekAsArgument(line);
    case 'commander.invalidArgument':
      return lastSpaceN(line);
    default:
      return undefined;
  }
}

/** The line to type instead, quoted where a shell needs it. */
export function commandLine(args: readonly string[]): string {
  return ['newsstats', ...args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : posixQuote(word))).join(' ');
}

/** Where the words of a line are: the noun's and the verb's positions, options and their values skipped. */
function positions({ args, nouns, globalOptions }: CommandLine): { words: number[]; takesValue: (index: number) => boolean } {
  const valueOptions = new Set(
    [...globalOptions, ...nouns.flatMap((noun) => noun.verbs.flatMap((verbSpec) => verbSpec.options?.() ?? []))]
      .filter((option) => option.required || option.optional)
      .flatMap((option) => [option.short, option.long].filter((name) => name !== undefined)),
  );
  const words: number[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) words.push(index);
    else if (valueOptions.has(arg)) index += 1;
  }
  return { words, takesValue: (index) => valueOptions.has(args[index] ?? '') };
}

function unknownCommand(line: CommandLine): UsageError | undefined {
  const { args, nouns } = line;
  const [nounAt, verbAt] = positions(line).words;
  if (nounAt === undefined) return undefined;
  const word = args[nounAt]!;
  const noun = nouns.find((candidate) => candidate.name === word);
  if (noun) {
    // A known noun, an unknown verb: name its verbs, the closest first.
    if (verbAt === undefined) return undefined;
    const typed = args[verbAt]!;
    const verbs = noun.verbs.map((verbSpec) => verbSpec.name).filter((name) => name !== '');
    const near = closest(typed, verbs);
    return new UsageError(`"${noun.name}" has no verb "${typed}"${near.length > 0 ? didYouMean(near) : `; its verbs: ${verbs.join(', ')}`}`);
  }
  if (word === 'version') return new UsageError(`unknown command "version"; did you mean ${commandLine(['--version'])}?`);
  const owners = nouns.filter((candidate) => candidate.verbs.some((verbSpec) => verbSpec.name === word));
  const withNoun = (owner: NounSpec) => commandLine([...args.slice(0, nounAt), owner.name, ...args.slice(nounAt)]);
  if (owners.length === 1) return new UsageError(`unknown command "${word}"; did you mean ${withNoun(owners[0]!)}?`);
  if (owners.length > 1) {
    return new UsageError(`unknown command "${word}": it is a verb of ${owners.map((owner) => owner.name).join(', ')}; e.g. ${withNoun(owners[0]!)}`);
  }
  const near = closest(word, nouns.map((candidate) => candidate.name));
  return new UsageError(`unknown command "${word}"${near.length > 0 ? didYouMean(near) : '; see newsstats --help'}`);
}

/**
 * Where the missing argument's value comes from: a person's hash from a search, a source's id or a
 * country from their lists. The message stays commander's; the hint is the next step.
 */
const ARGUMENT_SOURCES: Record<string, string> = {
  personHash: 'find a person\'s hash with `newsstats people search NAME` (the personHash column)',
  sourceId: 'find a source\'s id with `newsstats sources list`',
  slug: 'find a post\'s slug with `newsstats posts recent`',
  country: 'name a country or its ISO code; `newsstats countries list` shows them',
};

function missingArgument(message: string): UsageError | undefined {
  const name = /missing required argument '([^']+)'/.exec(message)?.[1];
  if (name === undefined) return undefined;
  return new UsageError(`missing required argument '${name}'`, ARGUMENT_SOURCES[name.replace(/\.\.\.$/, '')]);
}

/** `people top last4`: a week spec where no argument goes, on a verb that takes --weeks. */
function weekAsArgument(line: CommandLine): UsageError | undefined {
  const { args, nouns } = line;
  const { words, takesValue } = positions(line);
  const noun = nouns.find((candidate) => candidate.name === args[words[0] ?? -1]);
  const verbSpec = noun?.verbs.find((candidate) => candidate.name === (args[words[1] ?? -1] ?? '')) ?? noun?.verbs.find((candidate) => candidate.name === '');
  if (!verbSpec?.options?.().some((option) => option.long === '--weeks')) return undefined;
  const weekAt = words.slice(verbSpec.name === '' ? 1 : 2).find((index) => !takesValue(index - 1) && isWeekSpec(args[index]!));
  if (weekAt === undefined) return undefined;
  const fixed = [...args.slice(0, weekAt), '--weeks', ...args.slice(weekAt)];
  return new UsageError(`"${args[weekAt]}" is a week window, given where no argument goes; did you mean ${commandLine(fixed)}?`);
}

/** `--weeks last 4`: lastN is one word. */
function lastSpaceN({ args }: CommandLine): UsageError | undefined {
  const at = args.findIndex((arg, index) => arg === 'last' && args[index - 1] === '--weeks' && /^\d+$/.test(args[index + 1] ?? ''));
  if (at === -1) return undefined;
  const spec = `last${args[at + 1]}`;
  if (!isWeekSpec(spec)) return undefined;
  const fixed = [...args.slice(0, at), spec, ...args.slice(at + 2)];
  return new UsageError(`--weeks takes lastN as one word; did you mean ${commandLine(fixed)}?`);
}

function isWeekSpec(text: string): boolean {
  try {
    parseWeekSpec(text);
    return true;
  } catch {
    return false;
  }
}
