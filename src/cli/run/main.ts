/**
 * The command tree, built from one table, and the run of one command: parse, validate before any
 * request, run, write the output, map any failure to an exit code.
 *
 * Startup is kept light on purpose: only the noun being run is imported (`case 'env': await import`,
 * as the Vercel CLI does), and `--version` answers before commander is even loaded.
 */
import { VERSION } from '../../shared/version.js';
import { installEpipeGuard } from '../../output/pipe.js';
import type { GlobalOptions } from '../flags/global.js';
import { UsageError } from './errors.js';
// Tiny and needed by every command tree: bundled into main rather than a chunk of its own.
import { examplesHelp, HELP_EXAMPLE_WIDTH } from '../help/examples.js';
import { helpLayout } from '../help/layout.js';
import type { Io, MainIo, ProcessControl } from './io.js';
import type { OutputPlan } from './output-plan.js';
import type { AnyVerbSpec, CommandData, CommandStream, Context, VerbInvocation, ViewSpec } from './spec.js';

type Registry = typeof import('./registry.js');

/**
 * Runs one command line (argv as process.argv has it: node, script, then the words) against `io`, and
 * resolves to the exit code. Tests call it in-process with in-memory streams.
 */
export async function main(argv: readonly string[], io: MainIo): Promise<number> {
  const args = argv.slice(2);
  const state: RunState = { exitCode: 0, io, args };
  const proc = io.process;
  if (proc) {
    installEpipeGuard(io.stdout, (code) => proc.exit(state.context?.lifecycle.closedPipeExit(code) ?? code), (error) => void stdoutFailed(error, state, proc));
  }

  // Before the command parser loads. (bin/newsstats.cjs answers a plain `--version` itself, faster
  // still; it comes here when that write failed, and the guard above reports the failure.)
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    io.stdout.write(`${VERSION}\n`);
    return state.exitCode;
  }

  try {
    const registry = await import('./registry.js');
    const words = await rewriteHelpRequest(args, registry);
    const program = await buildProgram(words, state, registry);
    // `newsstats` alone asks what there is: the help, on stdout, exit 0 (as git and gh do); so does
    // a noun without its verb (`newsstats people`).
    const asksWhatThereIs = words.length === 0 || (await nounWithoutVerb(words, registry));
    await program.parseAsync([...argv.slice(0, 2), ...words, ...(asksWhatThereIs ? ['--help'] : [])]);
  } catch (error) {
    // --help and --version end as commander's exit with code 0, already printed: no failure, so a
    // failed write of that text (stdout closed with >&-) is still the one the run reports.
    if (!isCommanderSuccess(error)) await fail(error, state);
  } finally {
    await state.context?.lifecycle.close();
  }
  return state.exitCode;
}

/**
 * `help NOUN [VERB]` is `NOUN [VERB] --help`, as in gh: rewritten before parsing, so the help of a
 * command is printed by commander exactly once. A help topic (`help weeks`) stays with the help verb.
 */
async function rewriteHelpRequest(args: readonly string[], { COMMANDS, findNoun }: Registry): Promise<readonly string[]> {
  const helpAt = args.indexOf('help');
  if (helpAt === -1 || findNoun(args) !== 'help') return args;
  const words = args.slice(helpAt + 1).filter((word) => !word.startsWith('-'));
  const entry = COMMANDS.find((command) => command.name === words[0]);
  if (!entry) return args;
  if (words.length === 1) {
    const { HELP_TOPICS } = await import('../help/topics.js');
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

/**
 * `newsstats [options] people`, and no word after it: a noun that needs a verb, or whose command
 * needs an argument (`newsstats api`, `newsstats completion`), given alone.
 */
async function nounWithoutVerb(words: readonly string[], { COMMANDS, findNoun }: Registry): Promise<boolean> {
  const noun = findNoun(words);
  const entry = COMMANDS.find((command) => command.name === noun);
  if (!entry || words.slice(words.indexOf(noun!) + 1).some((word) => !word.startsWith('-'))) return false;
  const { verbs } = (await entry.load()).default;
  return verbs.every((verbSpec) => verbSpec.name !== '') || verbs.some((verbSpec) => verbSpec.name === '' && verbSpec.arguments?.startsWith('<'));
}

interface RunState {
  exitCode: number;
  io: MainIo;
  args: readonly string[];
  context?: Context;
  /** The terminal's pager, when this run's output may go through one: finished before a failure is told. */
  pager?: import('./pager.js').Pager;
  /**
   * The one failure report of the run: stdout's error event and the rejected write both arrive, and
   * whichever comes second waits for the first, so one line is shown and the exit code is set.
   */
  failing?: Promise<void>;
}

/** stdout itself failed (a full disk behind `> file`, /dev/full, EIO): one line, cleanup, the documented code. */
async function stdoutFailed(error: NodeJS.ErrnoException, state: RunState, proc: ProcessControl): Promise<void> {
  // The run may have finished already (a small output fails only when flushed): keep the process
  // alive until the failure is reported, or it would exit 0 with the output lost.
  setTimeout(() => undefined, 10_000);
  const { OutputWriteError } = await import('../../output/write-error.js');
  await fail(new OutputWriteError('stdout', error), state);
  await state.context?.lifecycle.close('interrupted');
  proc.exit(state.exitCode);
}

function fail(error: unknown, state: RunState): Promise<void> {
  state.failing ??= report(error, state);
  return state.failing;
}

async function report(error: unknown, state: RunState): Promise<void> {
  // Requests cut off by Ctrl-C fail too; the run is already on its way out with 130.
  if (state.context?.lifecycle.interrupted) return;
  const [{ describeFailure }, { OutputWriteError }, { isSystemError }] = await Promise.all([
    import('./exit-codes.js'), import('../../output/write-error.js'), import('../../shared/system-error.js'),
  ]);
  // --output failures arrive wrapped already; a write that failed unwrapped was one to stdout.
  if (isSystemError(error) && error.syscall === 'write') error = new OutputWriteError('stdout', error);
  // A 404 or a misshapen answer from a host that is not the API at all says so, not "not found" (#31).
  const after = state.context && (await answersLikeNotTheApi(error));
  if (after) {
    const verdict = await state.context!.deps.isNotTheApi(after);
    if (verdict) error = new (await import('./errors.js')).NotTheApiError(verdict.baseUrl, error as InstanceType<typeof import('../../api/errors.js').ApiError>);
  }
  // Commander's refusals are reported here, as one line, with what the slip most likely meant.
  if (isCommanderRefusal(error)) error = (await explainCommanderRefusal(error, state.args)) ?? error;
  const verbose = state.context?.globals.verbose ?? (state.args.includes('--verbose') || state.args.includes('-v'));
  const failure = describeFailure(error, verbose);
  // Output held for the pager is shown first (a pager is waited for): the message then comes last.
  state.context?.report.routeNotes(undefined);
  await state.pager?.finish();
  // Messages quote what the service sent: no control character or bidi override reaches the terminal.
  // At a terminal a long message wraps between words; in a log each stays one line for grep.
  const [{ terminalColumns, wrapToWidth }, { printable }] = await Promise.all([import('../../output/text.js'), import('../../shared/printable.js')]);
  const { stderr, env } = state.io;
  // The message starts a line of its own: a progress bar still drawn is erased first.
  state.context?.report.endProgress();
  const { withContext } = await import('../help/context-hints.js');
  for (const line of failure.lines) {
    // A suggested command runs where and as whom this one did: --profile, --base-url, --sandbox kept.
    const shown = withContext(line, state.args);
    const text = (state.context?.report.redact(shown) ?? shown).split('\n').map(printable).join('\n');
    // A terminal stream knows its columns; in-memory streams fall back to $COLUMNS, then 80.
    const lines = state.io.isTTY.stderr ? wrapToWidth(text, terminalColumns(stderr as { columns?: number }, env), { keepQuoted: true }) : [text];
    stderr.write(`${lines.join('\n')}\n`);
  }
  state.exitCode = failure.exitCode;
}

/**
 * The failures a wrong base URL gives: a 404 without the problem details the API's errors carry, or
 * a 200 that is not JSON at all. JSON of the wrong shape is the service's contract violation, named
 * as such (exit 5 naming the field).
 */
async function answersLikeNotTheApi(error: unknown): Promise<'notFound' | 'misshapen' | undefined> {
  const { NotFoundError, ResponseFormatError } = await import('../../api/errors.js');
  if (error instanceof NotFoundError && error.problem === undefined) return 'notFound';
  return error instanceof ResponseFormatError ? 'misshapen' : undefined;
}

function isCommanderRefusal(error: unknown): error is { code: string } {
  const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && exitCode !== 0;
}

async function explainCommanderRefusal(error: { code: string; message?: string }, args: readonly string[]): Promise<Error | undefined> {
  const [{ explainSlip }, registry] = await Promise.all([import('../help/slips.js'), import('./registry.js')]);
  const nouns = await Promise.all(registry.COMMANDS.map(registry.loadNoun));
  return explainSlip(error.code, { args, nouns, globalOptions: registry.globalOptions() }, error.message);
}

function isCommanderSuccess(error: unknown): boolean {
  const { code, exitCode } = (error ?? {}) as { code?: unknown; exitCode?: unknown };
  return typeof code === 'string' && code.startsWith('commander.') && exitCode === 0;
}

async function buildProgram(args: readonly string[], state: RunState, registry: Registry) {
  const { Command } = await import('commander');
  // Examples are laid out at the terminal's width too; 80, as commander's help, when piped.
  const helpWidth = state.io.isTTY.stdout && state.io.columns ? state.io.columns : HELP_EXAMPLE_WIDTH;

  const program = new Command('newsstats')
    .description('Query and export statistics from the News-Mention Statistics Data API.')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .helpCommand(false)
    // A verb's --help lists the global options in a section of their own, as gh's INHERITED FLAGS,
    // and wraps between words however narrow the terminal (help/layout.ts).
    .configureHelp(helpLayout())
    .exitOverride()
    .configureOutput(commanderOutput(state.io))
    // Examples are laid out when a help is printed, not on every run (commander calls the function then).
    .addHelpText('after', () => examplesHelp(['--sandbox people top --weeks last4', 'people top --weeks last4 --format csv --output top.csv', 'help weeks'], helpWidth));
  const options = registry.globalOptions();
  for (const option of options) program.addOption(option);

  const valueOptions = registry.valueOptionNames(options);
  const invoked = registry.findNoun(args, valueOptions);
  for (const entry of registry.COMMANDS) {
    if (entry.name !== invoked) {
      // Listed for --help without importing the module.
      program.command(entry.name).description(entry.summary).allowUnknownOption().allowExcessArguments();
      continue;
    }
    const noun = await registry.loadNoun(entry);
    const nounCommand = program.command(noun.name).description(noun.summary);
    if (noun.verbs.every((verbSpec) => verbSpec.name)) {
      // `newsstats people --help` lists the verbs; one real example of each shows how they read.
      nounCommand.addHelpText('after', () => examplesHelp(noun.verbs.flatMap((verbSpec) => verbSpec.examples.slice(0, 1)), helpWidth));
    }
    // The verb run, when the word after the noun names one: only it gets its options, examples and
    // action; its siblings are listed for the noun's --help and nothing more (a third of the tree's
    // cost for people's nine verbs). Otherwise (`people --help`, a misspelt verb) all of them.
    const afterNoun = args.slice(args.indexOf(noun.name) + 1);
    const verbWord = registry.findNoun(afterNoun, valueOptions);
    const runsOne = noun.verbs.some((verbSpec) => verbSpec.name !== '' && verbSpec.name === verbWord);
    for (const verbSpec of noun.verbs) {
      if (runsOne && verbSpec.name !== verbWord) {
        nounCommand.command(verbSpec.name).description(verbSpec.summary).allowUnknownOption().allowExcessArguments();
        continue;
      }
      const command = verbSpec.name ? nounCommand.command(verbSpec.name) : nounCommand;
      command.description(verbSpec.summary);
      if (verbSpec.arguments) command.arguments(verbSpec.arguments);
      for (const option of verbSpec.options?.() ?? []) command.addOption(option);
      if (verbSpec.examples.length > 0) command.addHelpText('after', () => examplesHelp(verbSpec.examples, helpWidth));
      // Commander calls the action with the command as `this`: its parsed positionals and flags.
      command.action(async function (this: InstanceType<typeof Command>) {
        const path = [noun.name, verbSpec.name].filter((word) => word !== '').join(' ');
        const invocation = verbSpec.invoke({ args: this.processedArgs, flags: this.opts() });
        await runVerb(path, verbSpec, invocation, this.optsWithGlobals<GlobalOptions>(), state, registry);
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
    // Its error messages are reported by report(), one line each, wrapped at a terminal like ours.
    outputError: () => undefined,
    // 80 is commander's own width when the stream is not a terminal.
    getOutHelpWidth: () => (io.isTTY.stdout && io.columns ? io.columns : 80),
    getErrHelpWidth: () => 80,
    // TERM=dumb takes no colour, as for our own output (output/color.ts).
    getOutHasColors: () => forced ?? (io.isTTY.stdout && env.TERM !== 'dumb'),
    getErrHasColors: () => forced ?? (io.isTTY.stderr && env.TERM !== 'dumb'),
  };
}

async function runVerb(path: string, verbSpec: AnyVerbSpec, invocation: VerbInvocation, globals: GlobalOptions, state: RunState, registry: Registry): Promise<void> {
  const [{ createContext }, { detectIo }, { planOutput }] = await Promise.all([import('./context.js'), import('./io.js'), import('./output-plan.js')]);
  // `-o -` is stdout, as in curl and most Unix tools.
  if (globals.output === '-') delete globals.output;
  const io: Io = detectIo(state.io, globals.color);
  const commands = { nouns: () => Promise.all(registry.COMMANDS.map(registry.loadNoun)), globalOptions: registry.globalOptions };
  const ctx = createContext(io, globals, state.io.env, commands);
  state.context = ctx;
  if (!verbSpec.handlesSignals) ctx.lifecycle.exitOnSignals();

  // Everything that can be refused without asking the service is refused here, before any request.
  // A verb whose columns depend on its flags (people links --no-context) gives that view before planning.
  const prints = verbSpec.prints ?? 'records';
  if (prints !== 'records') refuseOutputFlags(path, prints, globals);
  const plan = planOutput({ view: invocation.view, prefersJson: verbSpec.prefersJson }, globals, io);
  // jq is loaded only here: a run without --jq never pays for it.
  if (plan.render.jq !== undefined) await (await import('../../output/jq.js')).checkJqExpression(plan.render.jq);
  const run = invocation.validate();
  if (plan.render.isTTY && prints !== 'nothing' && !verbSpec.handlesSignals) await openPager(ctx, state);

  const output = await run(ctx);
  if (!output) return;
  if ('text' in output) io.stdout.write(output.text);
  else await writeOutput(ctx, plan, invocation.view, output, path);
  ctx.report.routeNotes(undefined);
  await state.pager?.finish();
  if ('failure' in output && output.failure !== undefined) throw output.failure;
}

/**
 * Output for the terminal goes through a pager once it is taller than the screen (run/pager.ts): not
 * with --no-pager, and only where the run owns its process, which can hand the terminal to a child
 * and leave Ctrl-C to it. The run's stdout, and its notes while stderr is the same terminal, are the
 * pager's from here on.
 */
async function openPager(ctx: Context, state: RunState): Promise<void> {
  if (!ctx.globals.pager || !ctx.io.process) return;
  const { Pager, choosePager } = await import('./pager.js');
  const { io, report, lifecycle } = ctx;
  const pager = new Pager({
    stdout: io.stdout,
    stderr: io.stderr,
    rows: io.height,
    columns: io.width,
    env: ctx.env,
    stdio: ['pipe', 'inherit', 'inherit'],
    choose: async () => {
      const { pager, sources } = await ctx.deps.settings();
      return choosePager(pager === undefined ? undefined : { value: pager, source: sources.pager === 'profile' ? 'pager setting' : 'NEWSSTATS_PAGER' }, ctx.env);
    },
    onStart: () => {
      report.endProgress();
      lifecycle.pagerHasInterrupts(true);
    },
    onEnd: () => lifecycle.pagerHasInterrupts(false),
    // Said on the terminal itself, before the output it concerns.
    warn: (message) => {
      report.routeNotes(undefined);
      report.note(message, { evenQuiet: true });
      if (io.isTTY.stderr) report.routeNotes(pager.notes);
    },
  });
  state.pager = pager;
  io.stdout = pager.stdout;
  if (io.isTTY.stderr) report.routeNotes(pager.notes);
  // Ctrl-C before the output was complete: what was held is shown, as it would have been without a pager.
  lifecycle.onCleanup(() => pager.releaseHeld());
}

/** -o, -f, --fields, --no-header and --bom shape records; on a verb that prints text or nothing they would silently do nothing. */
function refuseOutputFlags(path: string, prints: 'text' | 'messages' | 'nothing', globals: GlobalOptions): void {
  const given = [
    globals.output !== undefined && '--output',
    globals.format !== undefined && '--format',
    globals.fields !== undefined && '--fields',
    !globals.header && '--no-header',
    globals.bom === true && '--bom',
    globals.jq !== undefined && '--jq',
  ].filter((flag) => flag !== false);
  if (given.length === 0) return;
  const what = prints === 'text' ? 'prints text' : prints === 'messages' ? 'prints its own stream on stdout (Singer messages, one a line, for a target)' : 'prints nothing on stdout';
  throw new UsageError(
    `\`newsstats ${path}\` ${what}: ${given.join(', ')} ${given.length === 1 ? 'does' : 'do'} not apply`,
    prints === 'text' ? 'redirect it instead, e.g. > file' : prints === 'messages' ? 'filter its output with jq after it, e.g. | jq -c \'select(.type == "RECORD")\'' : undefined,
  );
}

async function writeOutput(ctx: Context, plan: OutputPlan, verbView: ViewSpec | undefined, output: CommandData | CommandStream, path: string): Promise<void> {
  const [{ renderView, openRowSink, rowsOf }, { writeToDestination }] = await Promise.all([import('../../output/index.js'), import('../../output/destination.js')]);
  // The verb's view, with what only the data can tell (a caption). No view: the rows' keys are the fields.
  const view = { ...verbView, ...output.view, fields: verbView?.fields ?? [] };
  // Hidden columns and empty results are told on stderr, dim like gh's notes, never among the data.
  const render = { ...plan.render, notice: (text: string, options: { evenQuiet?: boolean } = {}) => ctx.report.note(text, { dim: true, ...options }) };
  let rowCount = 0;
  const destination = {
    outputPath: plan.outputPath,
    // Messages name the file as it was given, not as resolved against the working directory.
    label: ctx.globals.output,
    stdout: ctx.io.stdout,
    onInterrupt: (cleanup: () => Promise<void>) => ctx.lifecycle.onCleanup(cleanup),
  };
  await writeToDestination(destination, async (stream) => {
    if ('stream' in output) {
      const sink = await openRowSink(stream, render, view);
      await output.stream((row) => {
        rowCount += 1;
        return sink.write(row);
      });
      // A table or chart is printed at the end, onto the terminal the bar is on: the bar goes first.
      ctx.report.endProgress();
      await sink.end();
    } else {
      const full = { ...view, data: output.data, rows: output.rows };
      rowCount = rowsOf(full).length;
      await renderView(full, render, stream);
    }
  });
  // Someone at a terminal sees that a file was written, and how much went into it.
  if (plan.outputPath && ctx.io.isTTY.stderr) {
    ctx.report.note(`wrote ${rowCount.toLocaleString('en-US')} ${rowCount === 1 ? 'row' : 'rows'} to ${ctx.globals.output ?? plan.outputPath}`);
  }
  // A file gets no caption: a partial current week in it is said on stderr instead. An export is a
  // file whatever it is written to (a redirect, a pipe into a loader); other verbs piped stay quiet.
  if (plan.outputPath) ctx.report.notePartialWeek(ctx.globals.output ?? plan.outputPath);
  else if (!plan.render.isTTY && path.startsWith('export ')) ctx.report.notePartialWeek('the export');
}

export { processIo } from './process-io.js';
export type { MainIo } from './io.js';
