/**
 * The run's streams and what is known about the terminal behind them, as gh's IOStreams: one type,
 * `Io`. main() is handed its process's part (`MainIo`: processIo(process) from bin/newsstats.cjs,
 * process-io.ts, or in-memory streams and an isolated env in a test), so the whole CLI runs the same
 * in a process and in a test, and nothing under src/cli reads `process` itself; once the flags are
 * parsed, detectIo() decides colour, width, Unicode and hyperlinks from it and --no-color.
 */
import { colorDepth, type ColorDepth } from '../../output/color.js';
import { supportsHyperlinks } from '../../output/hyperlink.js';
import { terminalColumns } from '../../output/text.js';

/** The one source of signals and of a hard exit: the real process. */
export type ProcessControl = Pick<NodeJS.EventEmitter, 'on' | 'once' | 'off'> & { exit(code: number): void };

/** Standard input as the CLI uses it: read to the end, or prompted on when it is a terminal. */
export type InputStream = NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown };

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: InputStream;
  env: NodeJS.ProcessEnv;
  /** Which streams are terminals. */
  isTTY: { stdin: boolean; stdout: boolean; stderr: boolean };
  /** Terminal width of stdout when it is a terminal, as the process reports it. */
  columns?: number;
  /** Terminal height of stdout when it is a terminal: output taller than it is paged (run/pager.ts). */
  rows?: number;
  /** Where relative --output paths land. */
  cwd: string;
  /**
   * The real process, when there is one: Ctrl-C then ends the run with 130, and a closed stdout pipe
   * ends it quietly with 0; verbs that handle signals themselves listen on it. In-process runs (tests)
   * leave it out and keep the host process alive.
   */
  process?: ProcessControl;

  // Decided by detectIo() once the flags are parsed:
  /** Colour on stdout: --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb decided. */
  color: boolean;
  /** How many colours stdout takes: 0, 16, 256 or 24-bit (output/color.ts). */
  colorDepth: ColorDepth;
  /** Colour on stderr, for notes: the same rules for that stream. */
  stderrColor: boolean;
  /** Terminal columns for tables and charts. */
  width: number;
  /** Terminal rows of stdout: output taller than that is paged (run/pager.ts). */
  height: number;
  /** The locale is UTF-8: charts and sparklines may use block characters. */
  unicode: boolean;
  /** stdout draws OSC 8 hyperlinks (FORCE_HYPERLINK, or a terminal known to: output/hyperlink.ts). */
  hyperlinks: boolean;
}

/** What main() is handed: the streams and terminal, before the run's flags decide the rest of `Io`. */
export type MainIo = Omit<Io, 'color' | 'colorDepth' | 'stderrColor' | 'width' | 'height' | 'unicode' | 'hyperlinks'>;

/** The whole `Io` of a run: `main`'s streams, and what they and --no-color decide. */
export function detectIo(main: MainIo, colorFlag: boolean): Io {
  const { env } = main;
  const stdoutIsTTY = main.isTTY.stdout;
  const stderrIsTTY = main.isTTY.stderr;
  const depth = colorDepth(env, stdoutIsTTY, colorFlag);
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return {
    stdout: main.stdout,
    // Getters, so the process's stderr and stdin are still built only when used (process-io.ts).
    get stderr() {
      return main.stderr;
    },
    get stdin() {
      return main.stdin;
    },
    env,
    isTTY: main.isTTY,
    ...(main.columns !== undefined && { columns: main.columns }),
    ...(main.rows !== undefined && { rows: main.rows }),
    cwd: main.cwd,
    ...(main.process && { process: main.process }),
    color: depth > 0,
    colorDepth: depth,
    stderrColor: colorDepth(env, stderrIsTTY, colorFlag) > 0,
    // stdout's own width only when it is a terminal, else $COLUMNS, else 80 (output/text.ts).
    width: terminalColumns({ columns: stdoutIsTTY ? main.columns : undefined }, env),
    height: (stdoutIsTTY ? main.rows : undefined) || Number(env.LINES) || 24,
    unicode: /utf-?8/i.test(locale),
    hyperlinks: supportsHyperlinks(env, stdoutIsTTY),
  };
}

/** stderr's width when it is a terminal (a real tty stream knows its columns), else $COLUMNS, else 80. */
export function stderrColumns(stderr: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number {
  return terminalColumns(stderr as { columns?: number }, env);
}
