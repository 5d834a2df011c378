/**
 * The real process's side of `Io` (io.ts), what bin/newsstats.cjs hands to main(). Apart from io.ts so
 * that main() loads only this at start-up, not the colour and width detection.
 */
import { ClosedStdout, stdoutWasClosed } from './closed-stdout.js';
import type { MainIo } from './io.js';

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
