/**
 * The command tree, built from one table, and the run of one command: parse, validate before any
 * request, run, write the output, map any failure to an exit code.
 *
 * Startup is kept light on purpose: only the noun being run is imported (`case 'env': await import`,
 * as the Vercel CLI does), and `--version` answers before commander is even loaded.
 */
import type { Option } from 'commander';
import { constants } from 'node:os';
import { VERSION } from '../version.js';
import type { Context, GlobalOptions, Io } from './context.js';
import type { OutputPlan } from './output-plan.js';
import type { CommandOutput, NounSpec, VerbSpec } from './spec.js';

interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<{ default: NounSpec }>;
}

/** Every noun, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'people', summary: 'People: list, get, search, top rankings, movers, trends, article links, per-country stats', load: () => import('./commands/people.js') },
  { name: 'countries', summary: 'Countries: list, get, international attention, domestic focus', load: () => import('./commands/countries.js') },
  { name: 'sources', summary: 'News sources and the links on their homepages', load: () => import('./commands/sources.js') },
  { name: 'articles', summary: 'Recent articles and article counts', load: () => import('./commands/articles.js') },
  { name: 'posts', summary: 'Published posts', load: () => import('./commands/posts.js') },
  { name: 'weeks', summary: 'The current week and the start of the last-4 window', load: () => import('./commands/weeks.js') },
  { name: 'export', summary: 'Bulk exports over the top N people: country stats, article links', load: () => import('./commands/export.js') },
  { name: 'api', summary: 'Raw GET of any /api/data path, JSON out', load: () => import('./commands/api.js') },
  { name: 'auth', summary: 'Log in with an API key, show status, log out', load: () => import('./commands/auth.js') },
  { name: 'config', summary: 'Read and write profile settings', load: () => import('./commands/config.js') },
  { name: 'cache', summary: 'Show or clear the cache of countries and sources', load: () => import('./commands/cache.js') },
  { name: 'sandbox', summary: 'Serve the built-in synthetic API on loopback', load: () => import('./commands/sandbox.js') },
  { name: 'completion', summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./commands/completion.js') },
  { name: 'help', summary: 'Help on a command or a topic: weeks, formats, exit-codes, environment', load: () => import('./commands/help.js') },
];

/** Global options that take a value: findNoun must skip the value too. */
const VALUE_OPTIONS = new Set(['-f', '--format', '--fields', '-o', '--output', '--profile', '--base-url', '--timeout', '--retries', '--max-response-mb']);

/** The first word that is not an option, or an option's value: the noun being run. */
export function findNoun(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') return args[index + 1];
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) index += 1;
      continue;
    }
    return arg;
  }
  return undefined;
}

export async function main(argv: readonly string[]): Promise<number> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }

  const state: RunState = { exitCode: 0 };
  const { installEpipeGuard } = await import('../output/pipe.js');
  installEpipeGuard(process.stdout, undefined, (error) => void stdoutFailed(error, state));

  try {
    const program = await buildProgram(args, state);
    // `newsstats` alone asks what there is: the help, on stdout, exit 0 (as git and gh do).
    await program.parseAsync(args.length === 0 ? [...argv, '--help'] : [...argv]);
  } catch (error) {
    await fail(error, state);
  } finally {
    await state.context?.close();
  }
  return state.exitCode;
}

interface RunState {
  exitCode: number;
  context?: Context;
  /**
   * The one failure report of the run: stdout's error event and the rejected write both arrive, and
   * whichever comes second waits for the first, so one line is shown and the exit code is set.
   */
  failing?: Promise<void>;
}

/** stdout itself failed (a full disk behind `> file`, /dev/full, EIO): one line, cleanup, the documented code. */
async function stdoutFailed(error: NodeJS.ErrnoException, state: RunState): Promise<void> {
  // The run may have finished already (a small output fails only when flushed): keep the process
  // alive until the failure is reported, or it would exit 0 with the output lost.
  setTimeout(() => undefined, 10_000);
  const { OutputWriteError } = await import('../output/write-error.js');
  await fail(new OutputWriteError('stdout', error), state);
  await state.context?.close('interrupted');
  process.exit(state.exitCode);
}

function fail(error: unknown, state: RunState): Promise<void> {
  state.failing ??= report(error, state);
  return state.failing;
}

async function report(error: unknown, state: RunState): Promise<void> {
  // Requests cut off by Ctrl-C fail too; the run is already on its way out with 130.
  if (state.context?.interrupted) return;
  const [{ describeFailure }, { OutputWriteError, isSystemError }] = await Promise.all([
    import('./exit-codes.js'), import('../output/write-error.js'),
  ]);
  // --output failures arrive wrapped already; a write that failed unwrapped was one to stdout.
  if (isSystemError(error) && error.syscall === 'write') error = new OutputWriteError('stdout', error);
  const verbose = state.context?.globals.verbose ?? (process.argv.includes('--verbose') || process.argv.includes('-v'));
  const failure = describeFailure(error, verbose);
  // Messages quote what the service sent: no control character or bidi override reaches the terminal.
  // At a terminal a long message wraps between words; in a log each stays one line for grep.
  const { printable, terminalColumns, wrapToWidth } = await import('../output/text.js');
  for (const line of failure.lines) {
    const text = (state.context?.redact(line) ?? line).split('\n').map(printable).join('\n');
    const lines = process.stderr.isTTY ? wrapToWidth(text, terminalColumns(process.stderr, process.env)) : [text];
    process.stderr.write(`${lines.join('\n')}\n`);
  }
  state.exitCode = failure.exitCode;
}

/** The options every command accepts; also what `newsstats completion` completes everywhere. */
export async function globalOptions(): Promise<Option[]> {
  const { Option } = await import('commander');
  const { OUTPUT_FORMATS } = await import('../output/formats.js');
  const { nonEmpty, parseFieldList, parseInteger, parseMaxResponseMbFlag, parseSeconds } = await import('./options.js');
  return [
    new Option('-f, --format <format>', 'output format (default: table on a terminal, else json; with --output, the extension; xlsx needs --output or a redirect)').choices(OUTPUT_FORMATS),
    new Option('--fields <list>', 'comma-separated fields to select and order').argParser(parseFieldList),
    new Option('--no-header', 'omit the header row (csv, tsv, table, xlsx)'),
    new Option('--bom', 'start csv with a UTF-8 byte-order mark, for Excel (off: it trips up Unix tools)'),
    new Option('-o, --output <file>', 'write to FILE atomically (complete or untouched) instead of stdout; - is stdout; devices and FIFOs are written into').argParser(nonEmpty('--output')),
    new Option('--profile <name>', 'config profile (default: $NEWSSTATS_PROFILE or "default")'),
    new Option('--base-url <url>', 'service base URL (default: $NEWSSTATS_BASE_URL or the profile)').argParser(nonEmpty('--base-url')),
    new Option('--timeout <seconds>', 'deadline per attempt, connect to last byte (default 30)').argParser(parseSeconds),
    new Option('--retries <n>', 'retries after a failed request (default 3)').argParser((text: string) => parseInteger('--retries', text, { min: 0, max: 20 })),
    new Option('--max-response-mb <n>', 'largest response body accepted, in MiB (default 16)').argParser(parseMaxResponseMbFlag),
    new Option('--no-color', 'no colour (also NO_COLOR)'),
    new Option('--no-cache', 'bypass the countries and sources cache'),
    new Option('-v, --verbose', 'each request\'s method, URL, status and time on stderr'),
    new Option('-q, --quiet', 'no notes on stderr, only errors'),
    new Option('--sandbox', 'run against an in-process sandbox with synthetic data'),
  ];
}

async function buildProgram(args: readonly string[], state: RunState) {
  const { Command } = await import('commander');

  const program = new Command('newsstats')
    .description('Query and export statistics from the News-Mention Statistics Data API.')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .helpCommand(false)
    // A verb's --help lists the global options in a section of their own, as gh's INHERITED FLAGS.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    .addHelpText('after', '\nExamples:\n  $ newsstats --sandbox people top --weeks last4\n  $ newsstats people top --weeks last4 --format csv --output top.csv\n  $ newsstats help weeks');
  for (const option of await globalOptions()) program.addOption(option);

  const invoked = findNoun(args);
  for (const entry of COMMANDS) {
    if (entry.name !== invoked) {
      // Listed for --help without importing the module.
      program.command(entry.name).description(entry.summary).allowUnknownOption().allowExcessArguments();
      continue;
    }
    const noun = (await entry.load()).default;
    const nounCommand = program.command(noun.name).description(noun.summary);
    if (noun.verbs.every((verbSpec) => verbSpec.name)) {
      // `newsstats people --help` lists the verbs; one real example of each shows how they read.
      nounCommand.addHelpText('after', examplesHelp(noun.verbs.flatMap((verbSpec) => verbSpec.examples.slice(0, 1))));
    }
    for (const verbSpec of noun.verbs) {
      const command = verbSpec.name ? nounCommand.command(verbSpec.name) : nounCommand;
      command.description(verbSpec.summary);
      if (verbSpec.arguments) command.arguments(verbSpec.arguments);
      for (const option of verbSpec.options?.() ?? []) command.addOption(option);
      if (verbSpec.examples.length > 0) command.addHelpText('after', examplesHelp(verbSpec.examples));
      command.action(async (...actionArgs: unknown[]) => {
        const self = actionArgs.at(-1) as InstanceType<typeof Command>;
        const positional = self.processedArgs.filter((value) => value !== undefined).flat() as string[];
        await runVerb(verbSpec, positional, self.opts(), self.optsWithGlobals() as GlobalOptions, state);
      });
    }
  }
  return program;
}

function examplesHelp(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((example) => `  $ newsstats ${example}`).join('\n')}`;
}

async function runVerb(
  verbSpec: VerbSpec,
  args: string[],
  options: Record<string, unknown>,
  globals: GlobalOptions,
  state: RunState,
): Promise<void> {
  const [{ Context, detectIo }, { planOutput }] = await Promise.all([import('./context.js'), import('./output-plan.js')]);
  // `-o -` is stdout, as in curl and most Unix tools.
  if (globals.output === '-') delete globals.output;
  const io: Io = detectIo(process.env, globals.color);
  const ctx = new Context(io, globals, process.env);
  state.context = ctx;
  if (!verbSpec.handlesSignals) interruptCleanly(ctx);

  // Everything that can be refused without asking the service is refused here, before any request.
  // A verb whose columns depend on its flags (people top --per-week) gives that view before planning.
  const spec = { ...verbSpec, view: verbSpec.viewFor?.(options, args) ?? verbSpec.view };
  const plan = planOutput(spec, globals, io);
  verbSpec.validate?.(args, options);

  const output = await verbSpec.run(ctx, args, options);
  if (output) await writeOutput(ctx, plan, spec, output);
  if (output && 'failure' in output && output.failure !== undefined) throw output.failure;
}

async function writeOutput(ctx: Context, plan: OutputPlan, verbSpec: VerbSpec, output: CommandOutput): Promise<void> {
  const { renderView, openRowSink, rowsOf } = await import('../output/index.js');
  const view = { ...verbSpec.view, ...output.view, fields: output.view?.fields ?? verbSpec.view?.fields ?? [] };
  // Hidden columns and empty results are told on stderr, dim like gh's notes, never among the data.
  const render = { ...plan.render, notice: (text: string) => ctx.note(text, { dim: true }) };
  let rowCount = 0;
  await ctx.withOutput(plan, async (stream) => {
    if ('stream' in output) {
      const sink = await openRowSink(stream, render, view);
      await output.stream((row) => {
        rowCount += 1;
        return sink.write(row);
      });
      await sink.end();
    } else {
      const full = { ...view, data: output.data, rows: output.rows };
      rowCount = rowsOf(full).length;
      await renderView(full, render, stream);
    }
  });
  // Someone at a terminal sees that a file was written, and how much went into it.
  if (plan.outputPath && ctx.io.stderrIsTTY) {
    ctx.note(`wrote ${rowCount.toLocaleString('en-US')} ${rowCount === 1 ? 'row' : 'rows'} to ${plan.outputPath}`);
  }
}

let interruptInstalled = false;

/**
 * Ctrl-C, kill, or a closed terminal (SIGHUP): remove any half-written --output file, then exit
 * 128 + the signal's number (130, 143, 129), as a shell reports it.
 */
function interruptCleanly(ctx: Context): void {
  if (interruptInstalled) return;
  interruptInstalled = true;
  const onSignal = (signal: NodeJS.Signals) => {
    void ctx.close('interrupted').finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
}
