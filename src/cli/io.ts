/**
 * Where a run meets the outside world: its streams, environment, working directory and terminal.
 * main() receives one of these, so the whole CLI runs the same in a process (`processIo(process)`,
 * from bin/newsstats.cjs) and in a test (in-memory streams, an isolated env); nothing under src/cli
 * reads `process` itself.
 */
import { ClosedStdout, stdoutWasClosed } from './closed-stdout.js';

/** The one source of signals and of a hard exit: the real process. */
export type ProcessControl = Pick<NodeJS.EventEmitter, 'on' | 'once' | 'off'> & { exit(code: number): void };

/** Standard input as the CLI uses it: read to the end, or prompted on when it is a terminal. */
export type InputStream = NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown };

export interface MainIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: InputStream;
  env: NodeJS.ProcessEnv;
  /** Which streams are terminals. */
  isTTY: { stdin: boolean; stdout: boolean; stderr: boolean };
  /** Terminal width of stdout when it is a terminal. */
  columns?: number;
  /** Terminal height of stdout when it is a terminal: output taller than it is paged (run/pager.ts). */
  rows?: number;
  /** Where relative --output paths land. */
  cwd: string;
  /**
   * The real process, when there is one: Ctrl-C then ends the run with 130, and a closed stdout pipe
   * ends it quietly with 0. In-process runs (tests) leave it out and keep the host process alive.
   */
  process?: ProcessControl;
}

/**
 * stderr with a listener for its errors: a failing stderr (2>/dev/full, a reader that went away) must
 * not become an uncaught error that turns a run whose data was written into exit 1. Messages are
 * lost then; the exit code is not.
 */
function quietlyFailingStderr(proc: NodeJS.Process): NodeJS.WriteStream {
  const stderr = proc.stderr;
  if (stderr.listenerCount('error') === 0) stderr.on('error', () => undefined);
  return stderr;
}

/**
 * The real process's streams, environment and terminal: what bin/newsstats.cjs hands to main().
 * Node builds process.stdin and process.stderr on first touch (about 1.5 and 1 ms of every start-up);
 * most runs never read stdin, and `--help` never writes to stderr, so both, and whether they are
 * terminals, are reached through getters. (Asking node:tty's isatty instead costs as much: loading
 * node:tty is 1.4 ms when stdout is not a terminal.)
 */
export function processIo(proc: NodeJS.Process): MainIo {
  return {
    // A stdout the shell closed (`>&-`) fails every write, as it would in C, instead of losing the output.
    stdout: stdoutWasClosed(proc) ? new ClosedStdout() : proc.stdout,
    get stderr() {
      return quietlyFailingStderr(proc);
    },
    get stdin() {
      return proc.stdin;
    },
    env: proc.env,
    isTTY: {
      get stdin() {
        return proc.stdin.isTTY === true;
      },
      stdout: proc.stdout.isTTY === true,
      get stderr() {
        return quietlyFailingStderr(proc).isTTY === true;
      },
    },
    columns: proc.stdout.columns,
    rows: proc.stdout.rows,
    cwd: proc.cwd(),
    process: proc,
  };
}
