/**
 * Commands as data: each noun file default-exports a NounSpec, and main.ts registers them all from
 * one table. A verb declares its flags, its help examples and what its output looks like, and its
 * run() returns records: it never formats and never writes to stdout itself.
 */
import type { Option } from 'commander';
import type { ChartSpec } from '../output/view.js';
import type { Context } from './context.js';

export type Row = Record<string, unknown>;

/** What a verb's output looks like, known before any request so --fields is checked up front. */
export interface ViewSpec {
  /** Every field a row can have, in contract order. */
  fields: readonly string[];
  /** Default table columns; ranked lists put rank first. */
  tableFields?: readonly string[];
  /** One object (weeks, a person): tables show it as field/value pairs. */
  single?: boolean;
  /** What --format chart draws: bars for rankings, a line for a series over weeks. */
  chart?: ChartSpec;
  /** Fields drawn as sparklines under a terminal table. */
  sparklines?: readonly string[];
}

/** Records a verb hands back all at once. */
export interface CommandData {
  /** What json and ndjson print: the API's value, untouched. */
  data: unknown;
  /** The tabular view for csv, tsv, table and chart; defaults to data (an array) or [data]. */
  rows?: Row[];
  /** Replaces the static view where the shape is only known from the data (the raw api command). */
  view?: Partial<ViewSpec>;
}

/** Records a verb produces over time (bulk exports): each row is written as soon as it is in order. */
export interface CommandStream {
  stream: (emit: (row: Row) => Promise<void>) => Promise<void>;
  view?: Partial<ViewSpec>;
}

export type CommandOutput = CommandData | CommandStream;

export type VerbOptions = object;

export interface VerbSpec<Options extends VerbOptions = VerbOptions> {
  /** Empty for a noun that is itself the command (weeks, api). */
  name: string;
  summary: string;
  /** Commander's argument syntax, e.g. '<personHash>' or '[query]'. */
  arguments?: string;
  /** Built on demand so a run pays only for the flags of the noun it uses. */
  options?: () => Option[];
  /** Shown under "Examples:" in --help: real invocations, without the leading "newsstats". */
  examples: string[];
  view?: ViewSpec;
  /** The view for these flags, where they change the columns (people top --per-week adds `week`). */
  viewFor?: (options: Options) => ViewSpec | undefined;
  /** Output is JSON unless --format says otherwise, even on a terminal (the raw api command). */
  prefersJson?: boolean;
  /** The verb stops itself on SIGINT/SIGTERM (the sandbox server) rather than exiting 130. */
  handlesSignals?: boolean;
  /** Runs before any request: cross-flag checks that commander's per-flag parsers cannot make. */
  validate?: (args: string[], options: Options) => void;
  run(ctx: Context, args: string[], options: Options): Promise<CommandOutput | void>;
}

/**
 * A verb with its option type erased, as the table holds it: every VerbSpec<Options> is one (its
 * functions accept `never`), and only main.ts, which hands run() commander's parsed options for
 * that same verb, calls them.
 */
export type AnyVerbSpec = VerbSpec<never>;

export interface NounSpec {
  name: string;
  summary: string;
  verbs: AnyVerbSpec[];
}

/** Lets each noun file declare verbs with typed options while the table holds them uniformly. */
export function verb<Options extends VerbOptions>(spec: VerbSpec<Options>): VerbSpec<Options> {
  return spec;
}
