/**
 * A one-line progress bar for long exports: done/total, rate and ETA, redrawn in place on stderr.
 * Only when stderr is a terminal (and not --quiet): logs and cron mail never get carriage returns.
 * Not while rows stream onto that same terminal.
 *
 * The bar is a line the terminal still holds: whatever else is written there must not land on it.
 * The reporter (reporter.ts) erases it before a note and draws it again after; it is erased for good
 * when the command's rows are done, before an error is printed, and on Ctrl-C or kill (the
 * clean-ups of lifecycle.ts), so no bar is left on the screen however the run ends.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSpecialTarget } from '../../output/index.js';
import { chooseFormat } from './output-plan.js';
import type { GlobalOptions } from '../flags/global.js';
import type { Io } from './io.js';

type ProgressGlobals = Pick<GlobalOptions, 'quiet' | 'format' | 'output'>;

export interface Progress {
  tick(): void;
  done(): void;
}

/** A bar on the screen: what else is written to its terminal goes around it (erase, write, redraw). */
export interface ProgressBar extends Progress {
  /** Clears the bar's line and leaves the cursor at its start; the bar stays, to be redrawn. */
  erase(): void;
  redraw(): void;
}

/** Moves to the start of the line and clears it: how the bar is redrawn and how it goes away. */
export const ERASE_LINE = '\r\x1b[K';

/** "1m05s" / "42s": short enough to fit beside the bar. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

function bar(done: number, total: number, width: number, unicode: boolean): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * width);
  const [full, empty] = unicode ? ['█', '░'] : ['#', '-'];
  return `${full.repeat(filled)}${empty.repeat(width - filled)}`;
}

function speed(done: number, total: number, elapsedSeconds: number): string {
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  return `${rate.toFixed(1)}/s  ETA ${formatDuration(eta)}`;
}

export function progressLine(done: number, total: number, elapsedSeconds: number, barWidth: number, unicode: boolean): string {
  return `${bar(done, total, barWidth, unicode)} ${done}/${total}  ${speed(done, total, elapsedSeconds)}`;
}

/** The widest bar drawn; narrower when the terminal is. */
const BAR_WIDTH = 24;

/**
 * Columns kept free at the end of the bar's line: the `^C` a terminal echoes where the cursor is
 * when Ctrl-C is pressed, and one more, so neither wraps onto a second row.
 */
const ECHO_ROOM = 3;

/**
 * The whole line, label first, within `columns - 3` columns: a line the terminal wrapped (by itself
 * or by the `^C` it echoes after it) would leave its first row behind when erased. A narrow terminal
 * gets a shorter bar, then no rate and ETA, then the counts alone, then the counts without the label.
 * (Labels are command names: ASCII, one column a character.)
 */
export function fittedProgressLine(label: string, done: number, total: number, elapsedSeconds: number, columns: number, unicode: boolean): string {
  const room = columns - ECHO_ROOM;
  const counts = `${done}/${total}`;
  const speedText = speed(done, total, elapsedSeconds);
  const withSpeed = Math.min(BAR_WIDTH, room - `${label}  ${counts}  ${speedText}`.length);
  if (withSpeed >= 8) return `${label} ${progressLine(done, total, elapsedSeconds, withSpeed, unicode)}`;
  const barOnly = Math.min(BAR_WIDTH, room - `${label}  ${counts}`.length);
  if (barOnly >= 4) return `${label} ${bar(done, total, barOnly, unicode)} ${counts}`;
  const countsOnly = `${label} ${counts}`.length <= room ? `${label} ${counts}` : counts;
  return countsOnly.slice(0, Math.max(0, room));
}

/**
 * Rows streamed to the same terminal (csv, tsv, json, ndjson on stdout, or into the terminal named
 * by --output: /dev/stdout, /dev/tty) would land on the bar's line and leave it half-erased between
 * them; a table or chart is printed only at the end, after the bar.
 */
function rowsStreamToTerminal(io: Io, globals: ProgressGlobals): boolean {
  if (globals.output !== undefined && !outputMayBeTerminal(globals.output, io)) return false;
  if (globals.output === undefined && !io.isTTY.stdout) return false;
  const format = chooseFormat(globals, io);
  return format !== 'table' && format !== 'chart';
}

/** --output names stdout, stderr or a character device other than /dev/null: possibly this terminal. */
function outputMayBeTerminal(output: string, io: Io): boolean {
  if (!isSpecialTarget(output, io.cwd)) return false;
  const target = resolve(io.cwd, output);
  if (/^\/(?:dev\/(?:stdout|fd\/1)|proc\/self\/fd\/1)$/.test(target)) return io.isTTY.stdout;
  if (/^\/(?:dev\/(?:stderr|fd\/2)|proc\/self\/fd\/2)$/.test(target)) return true;
  try {
    const stats = statSync(target);
    return stats.isCharacterDevice() && stats.rdev !== statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * A bar for `total` steps on a terminal's stderr, or undefined where none is drawn. `columns` is
 * read at each draw: the terminal may be resized while the bar runs.
 */
export function startProgress(io: Io, globals: ProgressGlobals, label: string, total: number, columns: () => number): ProgressBar | undefined {
  if (!io.isTTY.stderr || globals.quiet || rowsStreamToTerminal(io, globals)) return undefined;
  const started = performance.now();
  let done = 0;
  let lastDraw = 0;
  let finished = false;
  const draw = () => {
    const elapsed = (performance.now() - started) / 1000;
    io.stderr.write(`${ERASE_LINE}${fittedProgressLine(label, done, total, elapsed, columns(), io.unicode)}`);
  };
  draw();
  return {
    tick() {
      done += 1;
      if (finished) return;
      // Redrawing on every row would cost more than the rows themselves on fast exports.
      const now = performance.now();
      if (now - lastDraw > 100 || done === total) {
        lastDraw = now;
        draw();
      }
    },
    erase() {
      if (!finished) io.stderr.write(ERASE_LINE);
    },
    redraw() {
      if (!finished) draw();
    },
    done() {
      if (finished) return;
      finished = true;
      io.stderr.write(ERASE_LINE);
    },
  };
}
