/**
 * The run's streams and what is known about the terminal behind them, as gh's IOStreams: decided once
 * from the process (or the in-memory streams of a test) and the flags that change them (--no-color).
 */
import { colorDepth, type ColorDepth } from '../output/color.js';
import { supportsHyperlinks } from '../output/hyperlink.js';
import { terminalColumns } from '../output/text.js';
import type { InputStream, MainIo, ProcessControl } from './io.js';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: InputStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
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
  /** Where relative --output paths land. */
  cwd: string;
  /** The real process, for verbs that handle signals themselves; absent in-process. */
  process?: ProcessControl;
}

export function detectIo(main: MainIo, colorFlag: boolean): Io {
  const { env } = main;
  const stdoutIsTTY = main.isTTY.stdout;
  const stderrIsTTY = main.isTTY.stderr;
  const depth = colorDepth(env, stdoutIsTTY, colorFlag);
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return {
    stdout: main.stdout,
    // Getters, so the process's stderr and stdin are still built only when used (cli/io.ts).
    get stderr() {
      return main.stderr;
    },
    get stdin() {
      return main.stdin;
    },
    get stdinIsTTY() {
      return main.isTTY.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    color: depth > 0,
    colorDepth: depth,
    stderrColor: colorDepth(env, stderrIsTTY, colorFlag) > 0,
    // stdout's own width only when it is a terminal, else $COLUMNS, else 80 (output/text.ts).
    width: terminalColumns({ columns: stdoutIsTTY ? main.columns : undefined }, env),
    height: (stdoutIsTTY ? main.rows : undefined) || Number(env.LINES) || 24,
    unicode: /utf-?8/i.test(locale),
    hyperlinks: supportsHyperlinks(env, stdoutIsTTY),
    cwd: main.cwd,
    ...(main.process && { process: main.process }),
  };
}

/** stderr's width when it is a terminal (a real tty stream knows its columns), else $COLUMNS, else 80. */
export function stderrColumns(stderr: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number {
  return terminalColumns(stderr as { columns?: number }, env);
}
