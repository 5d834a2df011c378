/**
 * The one command registry: every noun's name, summary and module, in the order `--help` lists them,
 * and the global options every command accepts. main.ts builds the command tree from it; help and
 * completion read it too, without importing main.ts. Each noun module exports only its verbs.
 */
import type { Option } from 'commander';
import { OUTPUT_FORMATS } from '../output/formats.js';
import { choiceFlag, negatedFlag, nonEmpty, parsedFlag, parseFieldList, settingFlag, switchFlag } from './options.js';
import type { FlagValues, NounSpec, NounVerbs } from './spec.js';

export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<{ default: NounVerbs }>;
}

/** Every noun, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'people', summary: 'People: list, get, search, top rankings, movers, trends, article links, per-country stats', load: () => import('./commands/people/index.js') },
  { name: 'countries', summary: 'Countries: list, get, international attention, domestic focus', load: () => import('./commands/countries.js') },
  { name: 'sources', summary: 'News sources and the links on their homepages', load: () => import('./commands/sources.js') },
  { name: 'articles', summary: 'Recent articles and article counts', load: () => import('./commands/articles.js') },
  { name: 'posts', summary: 'Published posts', load: () => import('./commands/posts.js') },
  { name: 'weeks', summary: 'The current week and the start of the last-4 window', load: () => import('./commands/weeks.js') },
  { name: 'export', summary: 'Bulk exports over the top N people: country stats, article links', load: () => import('./commands/export.js') },
  { name: 'sync', summary: 'Keep a folder of weekly Parquet partitions up to date (incremental, resumable)', load: () => import('./commands/sync.js') },
  { name: 'tap', summary: 'A Singer tap: SCHEMA, RECORD and STATE messages of the sync streams on stdout', load: () => import('./commands/tap.js') },
  { name: 'mcp', summary: 'Serve the statistics as tools for AI assistants (MCP over stdio), read-only', load: () => import('./commands/mcp.js') },
  { name: 'api', summary: 'Raw GET of any /api/data path, JSON out', load: () => import('./commands/api.js') },
  { name: 'auth', summary: 'Log in with an API key, show status, log out', load: () => import('./commands/auth.js') },
  { name: 'config', summary: 'Read and write profile settings', load: () => import('./commands/config.js') },
  { name: 'cache', summary: 'Show or clear the cache of countries and sources', load: () => import('./commands/cache.js') },
  { name: 'sandbox', summary: 'Serve the built-in synthetic API on loopback', load: () => import('./commands/sandbox.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./commands/completion.js') },
  { name: 'help', summary: 'Help on a command or a topic: weeks, formats, exit-codes, environment', load: () => import('./commands/help.js') },
];

/** A noun with its verbs: its name and summary from the table, its verbs from its module. */
export async function loadNoun(entry: CommandEntry): Promise<NounSpec> {
  const { verbs } = (await entry.load()).default;
  return { name: entry.name, summary: entry.summary, verbs };
}

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

