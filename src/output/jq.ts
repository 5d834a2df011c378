/**
 * --jq EXPR: jq's own language run inside newsstats over the exact JSON text it would print, so ids
 * above 2^53 keep every digit (an external jq 1.6 rounds 1912702735409063525 to 1912702735409063400).
 *
 * The filter is jq 1.7 itself, compiled to WebAssembly with decNumber (the jq-web package): a number
 * passes through with its literal digits unless arithmetic touches it. Nothing is fetched: the .wasm
 * file ships in the package. Loading it costs about 0.1 s, so this module and jq-web are imported
 * only by runs given --jq.
 *
 * jq runs in a worker thread, installed and in the single executable alike, so no filter can take the
 * run hostage: Ctrl-C, SIGTERM and SIGHUP end it at once (`def f: f; f` and `[range(1e9)]` ignored
 * them when jq ran on the main thread), and a filter whose memory passes the bound (jqMemoryLimitMb)
 * is stopped with one line (exit 2), where `[range(1e9)]` took 800 MB in 12 s and `repeat(.)` ended
 * in a V8 fatal error.
 *
 * Results print as gh prints them: a string raw (no quotes), anything else as compact JSON, one
 * result a line.
 */
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import { JqExpressionError } from './errors.js';
import { columnOfByte, inUsersWords } from './jq-syntax.js';
import { withoutControls } from '../shared/printable.js';

/**
 * The most a --jq filter may hold beyond what the process held when it began (jq's WebAssembly memory
 * and the worker's heap), in MiB: NEWSSTATS_JQ_MAX_MB, else 1024. jq's values take several times the
 * JSON they come from, so a filter over a 16 MiB answer stays far below the default.
 */
export function jqMemoryLimitMb(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.NEWSSTATS_JQ_MAX_MB);
  return Number.isFinite(value) && value >= 16 ? value : 1024;
}

/** How often the memory of a running filter is looked at. */
const MEMORY_CHECK_MS = 50;

/**
 * The worker: loads jq-web and runs one filter per message. jq runs synchronously and can't be
 * interrupted from inside: in a worker, the main thread stays free to take Ctrl-C, SIGTERM and SIGHUP
 * (the run's exit ends the worker) and to stop a filter that grows without end. Installed, jq-web is
 * required by its path (it reads jq.wasm beside itself in node_modules, so the build leaves it outside
 * dist/). In the single executable there is no node_modules: jq-web's script comes before this code,
 * bundled by build:exe as `bundledJqWeb`, and takes jq.wasm's bytes from workerData (see jqWorkerStart).
 * Either way jq-web's module is a promise of jq.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const jqLoaded = workerData.jqPath === undefined ? bundledJqWeb : require(workerData.jqPath);
jqLoaded.then((jq) => {
  parentPort.on('message', ({ json, program }) => {
    let output;
    try {
      output = jq.raw(json, program, ['-c']);
    } catch (error) {
      parentPort.postMessage({ stderr: String((error && (error.stderr || error.message)) || error) });
      return;
    }
    parentPort.postMessage({ output: output || '' });
  });
  parentPort.postMessage({ ready: true });
}, (error) => parentPort.postMessage({ loadError: String(error && error.message) }));
`;

/** The script a jq worker runs and what it is given: see WORKER_CODE. */
interface JqWorkerStart {
  code: string;
  workerData: { jqPath: string } | { wasm: ArrayBuffer };
  transferList: ArrayBuffer[];
}

/**
 * The single executable's assets, named as scripts/build-exe.mjs names them: jq-web's script bundled
 * for a worker, and jq.wasm.
 */
const SEA_JQ_WEB_ASSET = 'jq-web-worker.js';
const SEA_JQ_WASM_ASSET = 'jq.wasm';

/** How this run starts its jq worker: from the executable's assets inside it, else from node_modules. */
async function jqWorkerStart(): Promise<JqWorkerStart> {
  const sea = await import('node:sea');
  if (sea.isSea()) {
    // getAsset gives a copy of the bytes each call, so the worker may take this one over.
    const wasm = sea.getAsset(SEA_JQ_WASM_ASSET);
    return { code: sea.getAsset(SEA_JQ_WEB_ASSET, 'utf8') + WORKER_CODE, workerData: { wasm }, transferList: [wasm] };
  }
  // A path, not a name: the worker's own require would search the working directory. Found from this
  // file (the CLI's chunks are CommonJS; Vitest gives src/ a __filename too).
  return { code: WORKER_CODE, workerData: { jqPath: createRequire(__filename).resolve('jq-web') }, transferList: [] };
}

type JqAnswer = { output: string } | { stderr: string };

/** A filter stopped for its memory (or its worker gone): the caller makes it the one-line usage error. */
class JqStopped extends Error {}

/** One worker for the run: the expression's check and its filter share jq's load. Exported for its tests. */
export class JqWorker {
  readonly #worker: Worker;
  readonly #ready: Promise<void>;
  #exited = false;
  #pending: { reject: (error: Error) => void } | undefined;
  /** Filters run one at a time (a program may run several commands in-process, as the tests do). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    WorkerClass: typeof Worker,
    start: JqWorkerStart,
    private readonly limitMb: number,
  ) {
    this.#worker = new WorkerClass(start.code, {
      eval: true,
      workerData: start.workerData,
      transferList: start.transferList,
      // The worker's heap, where jq-web collects results (a number per character), may pass the bound:
      // the watch stops the worker first. At V8's own limit a large allocation that fails is a fatal
      // error of the whole process, not the worker's (`repeat(.)` did that with a limit of 512 MiB).
      resourceLimits: { maxOldGenerationSizeMb: 2 * limitMb },
      // Nothing the worker might print reaches the run's stdout, which is data only.
      stdout: true,
      stderr: true,
    });
    // An idle worker never keeps the run from ending.
    this.#worker.unref();
    this.#ready = new Promise((resolve, reject) => {
      this.#worker.once('message', (message: { ready?: true; loadError?: string }) => (message.ready ? resolve() : reject(new Error(`jq could not be loaded: ${message.loadError}`))));
    });
    this.#ready.catch(() => {});
    this.#worker.on('error', (error: NodeJS.ErrnoException) => {
      this.#pending?.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new JqStopped() : error);
      this.#pending = undefined;
    });
    this.#worker.on('exit', () => {
      this.#exited = true;
      this.#pending?.reject(new JqStopped());
      this.#pending = undefined;
    });
  }

  /** jq's answer to `program` over `json`; rejects with JqStopped past the memory bound. */
  run(json: string, program: string): Promise<JqAnswer> {
    const answer = this.#queue.then(() => this.#runNow(json, program));
    this.#queue = answer.catch(() => {});
    return answer;
  }

  async #runNow(json: string, program: string): Promise<JqAnswer> {
    await this.#ready;
    if (this.#exited) throw new JqStopped();
    const baseline = process.memoryUsage.rss();
    this.#worker.ref();
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline <= this.limitMb * 1024 * 1024) return;
      // Once: each terminate() adds a listener for the worker's exit, and a busy machine may take
      // longer than many checks to end a worker (after 11, Node printed a MaxListenersExceededWarning
      // on stderr beside the run's one line).
      clearInterval(watch);
      void this.#worker.terminate();
    }, MEMORY_CHECK_MS);
    try {
      return await new Promise<JqAnswer>((resolve, reject) => {
        this.#pending = { reject };
        this.#worker.once('message', (answer: JqAnswer) => {
          this.#pending = undefined;
          resolve(answer);
        });
        this.#worker.postMessage({ json, program });
      });
    } finally {
      clearInterval(watch);
      this.#worker.unref();
    }
  }
}

let worker: Promise<JqWorker> | undefined;

function jqWorker(): Promise<JqWorker> {
  worker ??= Promise.all([import('node:worker_threads'), jqWorkerStart()]).then(([{ Worker }, start]) => new JqWorker(Worker, start, jqMemoryLimitMb()));
  return worker;
}

/** An error jq reported: the message, and where in the expression when jq said so. */
interface JqFailure {
  message: string;
  line?: number;
  column?: number;
}

// jq 1.7 writes "jq: error: MESSAGE at <top-level>, line N:\nTEXT OF LINE N" followed by as many
// spaces as the column the error starts at (its caret line lost its carets).
const COMPILE_ERROR = /^jq: error: (.*) at <top-level>, line (\d+):\n(.*)$/m;
const RUNTIME_ERROR = /^jq: error \(at [^)]*\): (.*)$/m;

/** The first error in jq's stderr, its position read against the expression's own lines. */
export function readJqError(stderr: string, expressionLines: readonly string[], lineOffset = 0): JqFailure {
  const compile = COMPILE_ERROR.exec(stderr);
  if (compile) {
    const line = Number(compile[2]) - lineOffset;
    const source = expressionLines[line - 1];
    const shown = compile[3]!;
    if (source === undefined || !shown.startsWith(source)) return inUsersWords(compile[1]!, {}, expressionLines);
    return inUsersWords(compile[1]!, { line, column: columnOfByte(source, shown.length - source.length) }, expressionLines);
  }
  const runtime = RUNTIME_ERROR.exec(stderr);
  if (runtime) return { message: runtime[1]! };
  const first = stderr.split('\n').find((text) => text.trim() !== '') ?? 'jq failed';
  return { message: first.replace(/^jq: (error: )?/, '') };
}

/** The usage error for a failed --jq: one line, the position named, jq's words kept. */
function jqUsageError(failure: JqFailure, expressionLines: readonly string[]): JqExpressionError {
  const where =
    failure.column === undefined ? '' : expressionLines.length > 1 ? ` at line ${failure.line}, column ${failure.column}` : ` at column ${failure.column}`;
  return new JqExpressionError(`--jq${where}: ${withoutControls(failure.message.replace(/\s*\(Unix shell quoting issues\?\)/, ''))}`);
}

interface JqRunError extends Error {
  stderr?: string;
}

/** jq's output, or an Error whose `stderr` is jq's message; a filter stopped for its memory is the usage error. */
async function runJq(json: string, program: string): Promise<string> {
  let answer: JqAnswer;
  try {
    answer = await (await jqWorker()).run(json, program);
  } catch (error) {
    if (!(error instanceof JqStopped)) throw error;
    worker = undefined;
    throw new JqExpressionError(`--jq: stopped: the filter held more than ${jqMemoryLimitMb()} MiB (a result without end, such as repeat(.) or [range(1e9)]?; NEWSSTATS_JQ_MAX_MB raises the bound)`);
  }
  if ('stderr' in answer) throw Object.assign(new Error('jq failed'), { stderr: answer.stderr });
  return answer.output;
}

/**
 * Refuses an expression jq cannot compile, before any request: the expression is compiled as the
 * body of `empty as $__newsstats_unused | ...`, which runs it for each value of `empty` (none), and jq's line numbers
 * are one more than the user's. Only a prefix: text after the expression (the `) else empty end` of
 * an `if false then (...)`) made an unfinished one report tokens the user never typed.
 */
export async function checkJqExpression(expression: string): Promise<void> {
  const lines = expression.split('\n');
  try {
    await runJq('null', `empty as $__newsstats_unused |\n${expression}`);
  } catch (error) {
    if (!(error instanceof Error) || !('stderr' in error)) throw error;
    throw jqUsageError(readJqError((error as JqRunError).stderr ?? '', lines, 1), lines);
  }
}

/**
 * The results of `expression` over `json` (the exact text newsstats would print), as text to print:
 * strings raw, other values as compact JSON with their digits as written, a line each. On a
 * terminal, control characters in strings become U+FFFD, as in tables.
 */
export async function applyJq(json: string, expression: string, options: { isTTY: boolean }): Promise<string> {
  const lines = expression.split('\n');
  let output: string;
  try {
    output = await runJq(json, expression);
  } catch (error) {
    if (!(error instanceof Error) || !('stderr' in error)) throw error;
    throw jqUsageError(readJqError((error as JqRunError).stderr ?? '', lines), lines);
  }
  if (output === '') return '';
  let text = '';
  // -c prints one value a line, and a string's own line breaks are escaped in it.
  for (const result of output.replace(/\n$/, '').split('\n')) {
    const printed = result.startsWith('"') ? (JSON.parse(result) as string) : result;
    text += (options.isTTY ? withoutControls(printed) : printed) + '\n';
  }
  return text;
}
