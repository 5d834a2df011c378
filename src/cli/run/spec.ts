/**
 * What every command shares, in one module that imports no command and nothing that loads one (so
 * no import runs in a circle through it): the Context a verb is handed, and commands as data. Each
 * noun file default-exports its verbs, and main.ts registers them all from one table
 * (run/registry.ts). A verb declares its flags, its help examples and what its output looks like,
 * and its run() returns records: it never formats and never writes to stdout itself.
 */
import type { Option } from 'commander';
import type { Row, View, ViewSpec } from '../../output/view.js';
import type { FlagTable, FlagValues } from '../flags/flag.js';
import type { GlobalOptions } from '../flags/global.js';
import type { Dependencies } from './dependencies.js';
import type { Io } from './io.js';
import type { Lifecycle } from './lifecycle.js';
import type { Reporter } from './reporter.js';

export type { Row, View, ViewSpec };
export type { Flag, FlagTable, FlagValues } from '../flags/flag.js';
export type { GlobalOptions } from '../flags/global.js';

/**
 * What every command is handed, split by job as gh splits its Factory from its IOStreams
 * (run/context.ts builds it):
 * - `io`: the streams and the terminal behind them (io.ts);
 * - `globals`, `env`: what this run was given;
 * - `deps`: what commands build on, each made on first use: settings, client, cached lists (dependencies.ts);
 * - `report`: what the person at the terminal is told on stderr: notes, --verbose detail, progress (reporter.ts);
 * - `lifecycle`: clean-ups, interrupts, V8 flags of the process the run owns (lifecycle.ts);
 * - `commands`: the command tree, for the verbs that describe it (completion).
 */
export interface Context {
  readonly io: Io;
  readonly globals: GlobalOptions;
  readonly env: NodeJS.ProcessEnv;
  readonly deps: Dependencies;
  readonly report: Reporter;
  readonly lifecycle: Lifecycle;
  readonly commands: CommandTreeSource;
}

/** Records a verb hands back all at once. */
export interface CommandData {
  /** What json and ndjson print: the API's value, untouched. */
  data: unknown;
  /** The tabular view for csv, tsv, table and chart; defaults to data (an array) or [data]. */
  rows?: Row[];
  /** What only the data can tell: the caption above a terminal table, the line for an empty result. */
  view?: ViewFromData;
  /** Thrown once the data is written: a report that ends in failure (`auth status`, key rejected). */
  failure?: unknown;
}

/** Records a verb produces over time (bulk exports): each row is written as soon as it is in order. */
export interface CommandStream {
  stream: (emit: (row: Row) => Promise<void>) => Promise<void>;
  view?: ViewFromData;
}

/**
 * The part of a view a run adds from its data. What a verb shows (fields, table fields, what is kept,
 * the chart) is declared once, in the verb's `view`, never again here.
 */
export type ViewFromData = Pick<ViewSpec, 'caption' | 'empty'>;

/** Text for a person or a shell (a path, a completion script, a help topic), printed as it is. */
export interface CommandText {
  text: string;
}

export type CommandOutput = CommandData | CommandStream | CommandText;

/**
 * What a verb writes to stdout: records (rendered by format, and the only output -o, -f, --fields and
 * --no-header apply to), text as it is, or nothing at all (its messages go to stderr).
 */
/** What a verb's stdout carries: records (shaped by -f, --fields, --jq), text, a stream of its own (the tap's Singer messages), or nothing. */
export type VerbPrints = 'records' | 'text' | 'messages' | 'nothing';

/** The value of one positional, from its declaration: <a> is a string, [a] may be absent, a... is a list. */
export type ArgValue<Declaration extends string> = Declaration extends `${string}...${string}`
  ? string[]
  : Declaration extends `[${string}]`
    ? string | undefined
    : string;

export type ArgValues<Declarations extends readonly string[]> = { -readonly [Index in keyof Declarations]: ArgValue<Declarations[Index]> };

/** What commander parsed for one run of a verb: positionals and flags, typed from their declarations. */
export interface VerbInput<Args extends readonly string[], Flags extends FlagTable> {
  args: ArgValues<Args>;
  flags: FlagValues<Flags>;
}

export interface VerbSpec<Args extends readonly string[], Flags extends FlagTable, Parsed> {
  /** Empty for a noun that is itself the command (weeks, api). */
  name: string;
  summary: string;
  /** Positionals in commander's syntax, e.g. ['<personHash>'] or ['[query]']. */
  args?: Args;
  /** Flags by attribute name; their Options are built on demand, so a run pays only for its noun. */
  flags?: Flags;
  /** Shown under "Examples:" in --help: real invocations, without the leading "newsstats". */
  examples: string[];
  /**
   * What the verb shows (fields, table fields, what a narrow terminal keeps, the chart), declared once:
   * a function of the input where the flags change it (people top --per-week adds `week`, --sort the
   * metric kept and charted). None where only the data can tell (the raw api command: its rows' keys).
   */
  view?: ViewSpec | ((input: VerbInput<Args, Flags>) => ViewSpec);
  /** Output is JSON unless --format says otherwise, even on a terminal (the raw api command). */
  prefersJson?: boolean;
  /** Default 'records'. */
  prints?: VerbPrints;
  /** The verb stops itself on SIGINT/SIGTERM (the sandbox server) rather than exiting 130. */
  handlesSignals?: boolean;
  /**
   * Runs before any request: cross-flag checks that commander's per-flag parsers cannot make, and
   * parsing of positionals. What it returns is what run() receives; without it, run() gets the input.
   */
  validate?: (input: VerbInput<Args, Flags>) => Parsed;
  run(ctx: Context, input: Parsed): Promise<CommandOutput | void>;
}

/** What commander parsed for one run of a verb, before the verb's declarations type it. */
export interface RawVerbInput {
  args: readonly unknown[];
  flags: Readonly<Record<string, unknown>>;
}

/** One run of a verb with its input bound: the view for its flags, then its checks, then its run. */
export interface VerbInvocation {
  /** The verb's view for these flags. */
  readonly view: ViewSpec | undefined;
  /** Runs validate(): the checks that need no request. Returns the run itself. */
  validate(): (ctx: Context) => Promise<CommandOutput | void>;
}

/**
 * A verb as the command table holds it: what commander needs to build its command, and invoke(),
 * which hands what commander parsed to the verb's own typed view, validate and run.
 */
export interface AnyVerbSpec {
  name: string;
  summary: string;
  /** Commander's argument syntax, e.g. '<personHash>' or '[query]'. */
  arguments?: string;
  options?: () => Option[];
  examples: string[];
  /** The view when no flag is given (every flag at its default): the fields completion offers. */
  defaultView?: () => ViewSpec | undefined;
  prefersJson?: boolean;
  prints?: VerbPrints;
  handlesSignals?: boolean;
  invoke(input: RawVerbInput): VerbInvocation;
}

/**
 * The whole command tree, for the verbs that describe it (completion): handed to them by main.ts
 * through the Context, so no command module imports the registry that loads it.
 */
export interface CommandTreeSource {
  nouns(): Promise<NounSpec[]>;
  globalOptions(): Option[];
}

/** What a noun module exports: its verbs. Its name and summary live in the registry. */
export interface NounVerbs {
  verbs: AnyVerbSpec[];
}

/** A noun as the registry loads it: name and summary from registry.ts, verbs from the module. */
export interface NounSpec extends NounVerbs {
  name: string;
  summary: string;
}

/**
 * Declares a verb: the types of `args` and `flags` are inferred from their declarations and flow to
 * view, validate and run, with no type written by hand.
 */
export function verb<const Args extends readonly string[] = [], Flags extends FlagTable = Record<never, never>, Parsed = VerbInput<Args, Flags>>(
  spec: VerbSpec<Args, Flags, Parsed>,
): AnyVerbSpec {
  const { args, flags, view, validate, ...rest } = spec;
  return {
    ...rest,
    ...(args && args.length > 0 && { arguments: args.join(' ') }),
    ...(flags && { options: () => Object.entries(flags).map(([name, flag]) => checkedOption(name, flag.build())) }),
    // No positional and every flag at its default: asserted, as commander would hand them over when
    // none is given; a view function reads its flags and tolerates absent positionals (people trend).
    ...(view && { defaultView: () => (typeof view === 'function' ? view({ args: [], flags: defaultFlagValues(flags ?? {}) } as unknown as VerbInput<Args, Flags>) : view) }),
    invoke(raw) {
      // The one place the types are asserted: commander parsed `raw` with the Options built above from
      // these same declarations, under the names checkedOption verified.
      const input = raw as VerbInput<Args, Flags>;
      return {
        view: typeof view === 'function' ? view(input) : view,
        validate() {
          const parsed = validate ? validate(input) : (input as Parsed);
          return (ctx) => spec.run(ctx, parsed);
        },
      };
    },
  };
}

/** What commander hands over when no flag is given: each default, and true for a lone `--no-x`. */
function defaultFlagValues(flags: FlagTable): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(flags)) {
    const option = flag.build();
    const value: unknown = option.negate ? true : option.defaultValue;
    if (value !== undefined) values[name] = value;
  }
  return values;
}

function checkedOption(name: string, option: Option): Option {
  if (option.attributeName() !== name) {
    throw new Error(`flag table key "${name}" does not match ${option.long ?? option.flags} (attribute "${option.attributeName()}")`);
  }
  return option;
}
