/**
 * Where a run meets the outside world: its streams, environment, working directory and terminal.
 * main() receives one of these, so the whole CLI runs the same in a process (`processIo(process)`,
 * from bin/newsstats.js) and in a test (in-memory streams, an isolated env); nothing under src/cli
 * reads `process` itself.
 */

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

/** The real process's streams, environment and terminal: what bin/newsstats.js hands to main(). */
export function processIo(proc: NodeJS.Process): MainIo {
  return {
    stdout: proc.stdout,
    stderr: proc.stderr,
    stdin: proc.stdin,
    env: proc.env,
    isTTY: { stdin: proc.stdin.isTTY === true, stdout: proc.stdout.isTTY === true, stderr: proc.stderr.isTTY === true },
    columns: proc.stdout.columns,
    cwd: proc.cwd(),
    process: proc,
  };
}
