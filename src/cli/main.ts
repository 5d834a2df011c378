/**
 * The command tree, built from one table, and the run of one command: parse, validate before any
 * request, run, write the output, map any failure to an exit code.
 *
 * Startup is kept light on purpose: only the noun being run is imported (`case 'env': await import`,
 * as the Vercel CLI does), and `--version` answers before commander is even loaded.
 */
import type { Option } from 'commander';
import { VERSION } from '../version.js';
import type { Context, GlobalOptions, Io } from './context.js';
import { UsageError } from './errors.js';
import type { MainIo, ProcessControl } from './io.js';
import type { OutputPlan } from './output-plan.js';
import type { AnyVerbSpec, CommandData, CommandStream, NounSpec } from './spec.js';

interface CommandEntry {
  name: string;
  summary: string;
  load: () => Promise<{ default: NounSpec }>;
}

/** Every noun, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'people', summary: 'People: list, get, search, top rankings, trends, article links, per-country stats', load: () => import('./commands/people.js') },
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
const VALUE_OPTIONS = new Set(['-f', '--format', '--fields', '-o', '--output', '--profile', '--base-url', '--timeout', '--retries']);

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

/**
 * Runs one command line (argv as process.argv has it: node, script, then the words) against `io`, and
 * resolves to the exit code. Tests call it in-process with in-memory streams.
 */
export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }

  const proc = io.process;
  if (proc) {
    const { installEpipeGuard } = await import('../output/pipe.js');
    installEpipeGuard(io.stdout, (code) => proc.exit(code));
  }

  const state: RunState = { exitCode: 0, io, args };
  try {
    const words = await rewriteHelpRequest(args);
    const program = await buildProgram(words, state);
    await program.parseAsync([...argv.slice(0, 2), ...words]);
  } catch (error) {
    await fail(error, state);
  } finally {
    await state.context?.close();
  }
  return state.exitCode;
}

/**
 * `help NOUN [VERB]` is `NOUN [VERB] --help`, as in gh: rewritten before parsing, so the help of a
 * command is printed by commander exactly once. A help topic (`help weeks`) stays with the help verb.
 */
async function rewriteHelpRequest(args: readonly string[]): Promise<readonly string[]> {
  const helpAt = args.indexOf('help');
  if (helpAt === -1 || findNoun(args) !== 'help') return args;
  const words = args.slice(helpAt + 1).filter((word) => !word.startsWith('-'));
  const entry = COMMANDS.find((command) => command.name === words[0]);
  if (!entry) return args;
  if (words.length === 1) {
    const { HELP_TOPICS } = await import('./help-topics.js');
    if (HELP_TOPICS[words[0]!]) return args;
    return [...args.slice(0, helpAt), entry.name, '--help'];
  }
  const verbs = (await entry.load()).default.verbs.map((spec) => spec.name).filter((name) => name !== '');
  if (words.length > 2 || !verbs.includes(words[1]!)) {
    if (words.length === 2 && verbs.length > 0) throw new UsageError(`"${words[0]}" has no verb "${words[1]}"; its verbs: ${verbs.join(', ')}`);
    if (words.length === 2) throw new UsageError(`"${words[0]}" has no verb "${words[1]}"; it takes no verb`);
    return args;
  }
  return [...args.slice(0, helpAt), entry.name, words[1]!, '--help'];
}

interface RunState {
  exitCode: number;
  io: MainIo;
  args: readonly string[];
  context?: Context;
}

async function fail(error: unknown, state: RunState): Promise<void> {
  // Requests cut off by Ctrl-C fail too; the run is already on its way out with 130.
  if (state.context?.interrupted) return;
  const { describeFailure } = await import('./exit-codes.js');
  const verbose = state.context?.globals.verbose ?? (state.args.includes('--verbose') || state.args.includes('-v'));
  const failure = describeFailure(error, verbose);
  for (const line of failure.lines) state.io.stderr.write(`${state.context?.redact(line) ?? line}\n`);
  state.exitCode = failure.exitCode;
}

/** The options every command accepts; also what `newsstats completion` completes everywhere. */
export async function globalOptions(): Promise<Option[]> {
  const { Option } = await import('commander');
  const { OUTPUT_FORMATS } = await import('../output/formats.js');
  const { parseFieldList, parseInteger, parseSeconds } = await import('./options.js');
  return [
    new Option('-f, --format <format>', 'output format (default: table on a terminal, else json; with --output, the extension)').choices(OUTPUT_FORMATS),
    new Option('--fields <list>', 'comma-separated fields to select and order').argParser(parseFieldList),
    new Option('--no-header', 'omit the header row (csv, tsv, table)'),
    new Option('-o, --output <file>', 'write to FILE atomically (complete or untouched) instead of stdout'),
    new Option('--profile <name>', 'config profile (default: $NEWSSTATS_PROFILE or "default")'),
    new Option('--base-url <url>', 'service base URL (default: $NEWSSTATS_BASE_URL or the profile)'),
    new Option('--timeout <seconds>', 'per-request timeout (default 30)').argParser(parseSeconds),
    new Option('--retries <n>', 'retries after a failed request (default 3)').argParser((text: string) => parseInteger('--retries', text, { min: 0, max: 20 })),
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
    .exitOverride()
    .configureOutput(commanderOutput(state.io))
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
        const path = [noun.name, verbSpec.name].filter((word) => word !== '').join(' ');
        // Commander parsed these from this verb's own declarations: they are the verb's typed input.
        const input = { args: self.processedArgs, flags: self.opts() } as never;
        await runVerb(path, verbSpec, input, self.optsWithGlobals<GlobalOptions>(), state);
      });
    }
  }
  return program;
}

/** Commander's help and error messages go to the run's streams, never to the process's own. */
function commanderOutput(io: MainIo) {
  const { env } = io;
  // As commander decides colour itself, but from the run's environment.
  const forced = env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false' ? false : env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined ? true : undefined;
  return {
    writeOut: (text: string) => void io.stdout.write(text),
    writeErr: (text: string) => void io.stderr.write(text),
    // 80 is commander's own width when the stream is not a terminal.
    getOutHelpWidth: () => (io.isTTY.stdout && io.columns ? io.columns : 80),
    getErrHelpWidth: () => 80,
    getOutHasColors: () => forced ?? io.isTTY.stdout,
    getErrHasColors: () => forced ?? io.isTTY.stderr,
  };
}

function examplesHelp(examples: readonly string[]): string {
  return `\nExamples:\n${examples.map((example) => `  $ newsstats ${example}`).join('\n')}`;
}

async function runVerb(path: string, verbSpec: AnyVerbSpec, input: never, globals: GlobalOptions, state: RunState): Promise<void> {
  const [{ Context, detectIo }, { planOutput }] = await Promise.all([import('./context.js'), import('./output-plan.js')]);
  const io: Io = detectIo(state.io, globals.color);
  const ctx = new Context(io, globals, state.io.env);
  state.context = ctx;
  if (!verbSpec.handlesSignals && state.io.process) interruptCleanly(ctx, state.io.process);

  // Everything that can be refused without asking the service is refused here, before any request.
  // A verb whose columns depend on its flags (people links --no-context) gives that view before planning.
  const prints = verbSpec.prints ?? 'records';
  if (prints !== 'records') refuseOutputFlags(path, prints, globals);
  const spec = { ...verbSpec, view: verbSpec.viewFor?.(input) ?? verbSpec.view };
  const plan = planOutput(spec, globals, io);
  const parsed = (verbSpec.validate ? verbSpec.validate(input) : input) as never;

  const output = await verbSpec.run(ctx, parsed);
  if (!output) return;
  if ('text' in output) io.stdout.write(output.text);
  else await writeOutput(ctx, plan, spec, output);
}

/** -o, -f, --fields and --no-header shape records; on a verb that prints text or nothing they would silently do nothing. */
function refuseOutputFlags(path: string, prints: 'text' | 'nothing', globals: GlobalOptions): void {
  const given = [
    globals.output !== undefined && '--output',
    globals.format !== undefined && '--format',
    globals.fields !== undefined && '--fields',
    !globals.header && '--no-header',
  ].filter((flag) => flag !== false);
  if (given.length === 0) return;
  const what = prints === 'text' ? 'prints text' : 'prints nothing on stdout';
  throw new UsageError(
    `\`newsstats ${path}\` ${what}: ${given.join(', ')} ${given.length === 1 ? 'does' : 'do'} not apply`,
    prints === 'text' ? 'redirect it instead, e.g. > file' : undefined,
  );
}

async function writeOutput(ctx: Context, plan: OutputPlan, verbSpec: Pick<AnyVerbSpec, 'view'>, output: CommandData | CommandStream): Promise<void> {
  const { renderView, openRowSink } = await import('../output/index.js');
  const view = { ...verbSpec.view, ...output.view, fields: output.view?.fields ?? verbSpec.view?.fields ?? [] };
  await ctx.withOutput(plan, async (stream) => {
    if ('stream' in output) {
      const sink = await openRowSink(stream, plan.render, view);
      await output.stream((row) => sink.write(row));
      await sink.end();
    } else {
      await renderView({ ...view, data: output.data, rows: output.rows }, plan.render, stream);
    }
  });
}

/** Ctrl-C: remove any half-written --output file, then exit 130. */
function interruptCleanly(ctx: Context, proc: ProcessControl): void {
  const onSignal = (signal: NodeJS.Signals) => {
    void ctx.close('interrupted').finally(() => proc.exit(signal === 'SIGINT' ? 130 : 143));
  };
  proc.once('SIGINT', onSignal);
  proc.once('SIGTERM', onSignal);
}
export { processIo, type MainIo } from './io.js';
