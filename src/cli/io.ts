/**
 * Where a run meets the outside world: its streams, environment, working directory and terminal.
 * main() receives one of these, so the whole CLI runs the same in a process (`processIo(process)`,
 * from bin/newsstats.cjs) and in a test (in-memory streams, an isolated env); nothing under src/cli
 * reads `process` itself.
 */
import { isatty } from 'node:tty';

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
  /** Where relative --output paths land. */
  cwd: string;
  /**
   * The real process, when there is one: Ctrl-C then ends the run with 130, and a closed stdout pipe
   * ends it quietly with 0. In-process runs (tests) leave it out and keep the host process alive.
   */
  process?: ProcessControl;
}

/**
 * The real process's streams, environment and terminal: what bin/newsstats.cjs hands to main().
 * Node builds process.stdin and process.stderr on first touch (about 1.5 and 1 ms of every start-up);
 * most runs never read stdin and write to stderr only when something goes wrong, so both are reached
 * through getters and their terminal-ness is asked of the file descriptor.
 */
export function processIo(proc: NodeJS.Process): MainIo {
  return {
    stdout: proc.stdout,
    get stderr() {
      return proc.stderr;
    },
    get stdin() {
      return proc.stdin;
    },
    env: proc.env,
    isTTY: { stdin: isatty(0), stdout: proc.stdout.isTTY === true, stderr: isatty(2) },
    columns: proc.stdout.columns,
    cwd: proc.cwd(),
    process: proc,
  };
}
