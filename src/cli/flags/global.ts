/**
 * The options every command accepts, and how main.ts finds the noun among them. Below every command:
 * they, the Context and the reporter read GlobalOptions from here, not from the registry that loads
 * the commands.
 */
import type { Option } from 'commander';
import { OUTPUT_FORMATS } from '../../output/formats.js';
import type { FlagValues } from './flag.js';
import { choiceFlag, negatedFlag, nonEmpty, parsedFlag, parseFieldList, settingFlag, switchFlag } from './options.js';

/** The options every command accepts; also what `newsstats completion` completes everywhere. */
export const globalFlags = {
  format: choiceFlag('-f, --format <format>', 'output format (default: table on a terminal, else json; with --output, the extension; xlsx needs --output or a redirect)', OUTPUT_FORMATS),
  jq: parsedFlag('--jq <expression>', 'filter the JSON output with jq (built in, jq 1.7; ids keep every digit); a string result prints raw', nonEmpty('--jq')),
  fields: parsedFlag('--fields <list>', 'comma-separated fields to select and order', parseFieldList),
  header: negatedFlag('--no-header', 'omit the header row (csv, tsv, table, xlsx)'),
  bom: switchFlag('--bom', 'start csv with a UTF-8 byte-order mark, for Excel (off: it trips up Unix tools)'),
  output: parsedFlag('-o, --output <file>', 'write to FILE atomically (complete or untouched) instead of stdout; - is stdout; devices and FIFOs are written into', nonEmpty('--output')),
  // The settings a flag can set: syntax, parser, bounds, default and help from config/settings.ts.
  profile: settingFlag('profile'),
  baseUrl: settingFlag('baseUrl'),
  timeout: settingFlag('timeout'),
  retries: settingFlag('retries'),
  maxResponseMb: settingFlag('maxResponseMb'),
  maxRequestsPerSecond: settingFlag('maxRequestsPerSecond'),
  color: negatedFlag('--no-color', 'no colour (also NO_COLOR)'),
  pager: negatedFlag('--no-pager', 'print output taller than the terminal as it is, not through the pager (also: config set pager cat)'),
  cache: negatedFlag('--no-cache', 'bypass the countries and sources cache'),
  verbose: switchFlag('-v, --verbose', 'each request\'s method, URL, status and time on stderr'),
  quiet: switchFlag('-q, --quiet', 'no notes on stderr, only errors'),
  sandbox: switchFlag('--sandbox', 'run against an in-process sandbox with synthetic data'),
};

export type GlobalOptions = FlagValues<typeof globalFlags>;

export function globalOptions(): Option[] {
  return Object.values(globalFlags).map((flag) => flag.build());
}

/** Every spelling of the global options that take a value, derived from their declarations. */
export function valueOptionNames(options: readonly Option[] = globalOptions()): Set<string> {
  return new Set(options.filter((option) => option.required || option.optional).flatMap((option) => [option.short, option.long].filter((name) => name !== undefined)));
}

/** The first word that is not an option, or an option's value: the noun being run. */
export function findNoun(args: readonly string[], valueOptions: ReadonlySet<string> = valueOptionNames()): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') return args[index + 1];
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) index += 1;
      continue;
    }
    return arg;
  }
  return undefined;
}

