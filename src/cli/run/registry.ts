/**
 * The one command registry: every noun's name, summary and module, in the order `--help` lists them
 * (the options every command accepts are declared in flags/global.ts, and passed on from here). main.ts
 * builds the command tree from it; help and completion are handed the tree it loads, through the Context, so no command module
 * imports it. Each noun module exports only its verbs.
 */
import type { NounSpec, NounVerbs } from './spec.js';

// main.ts builds the tree from both: one chunk to load, not two.
export { findNoun, globalOptions, valueOptionNames } from '../flags/global.js';

export interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<{ default: NounVerbs }>;
}

/** Every noun, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'people', summary: 'People: list, get, search, top rankings, movers, trends, article links, per-country stats', load: () => import('../commands/people/index.js') },
  { name: 'countries', summary: 'Countries: list, get, international attention, domestic focus', load: () => import('../commands/countries.js') },
  { name: 'sources', summary: 'News sources and the links on their homepages', load: () => import('../commands/sources.js') },
  { name: 'articles', summary: 'Recent articles and article counts', load: () => import('../commands/articles.js') },
  { name: 'posts', summary: 'Published posts', load: () => import('../commands/posts.js') },
  { name: 'weeks', summary: 'The current week and the start of the last-4 window', load: () => import('../commands/weeks.js') },
  { name: 'export', summary: 'Bulk exports over the top N people: country stats, article links', load: () => import('../commands/export.js') },
  { name: 'sync', summary: 'Keep a folder of weekly Parquet partitions up to date (incremental, resumable)', load: () => import('../commands/sync.js') },
  { name: 'tap', summary: 'A Singer tap: SCHEMA, RECORD and STATE messages of the sync streams on stdout', load: () => import('../commands/tap.js') },
  { name: 'mcp', summary: 'Serve the statistics as tools for AI assistants (MCP over stdio), read-only', load: () => import('../commands/mcp.js') },
  { name: 'api', summary: 'Raw GET of any /api/data path, JSON out', load: () => import('../commands/api.js') },
  { name: 'auth', summary: 'Log in with an API key, show status, log out', load: () => import('../commands/auth.js') },
  { name: 'config', summary: 'Read and write profile settings', load: () => import('../commands/config.js') },
  { name: 'cache', summary: 'Show or clear the cache of countries and sources', load: () => import('../commands/cache.js') },
  { name: 'sandbox', summary: 'Serve the built-in synthetic API on loopback', load: () => import('../commands/sandbox.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('../commands/completion.js') },
  { name: 'help', summary: 'Help on a command or a topic: weeks, formats, exit-codes, environment', load: () => import('../commands/help.js') },
];

/** A noun with its verbs: its name and summary from the table, its verbs from its module. */
export async function loadNoun(entry: CommandEntry): Promise<NounSpec> {
  const { verbs } = (await entry.load()).default;
  return { name: entry.name, summary: entry.summary, verbs };
}
