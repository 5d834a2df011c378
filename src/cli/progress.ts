/**
 * A one-line progress bar for long exports: done/total, rate and ETA, redrawn in place on stderr.
 * Only when stderr is a terminal (and not --quiet): logs and cron mail never get carriage returns.
 * Not while rows stream onto that same terminal.
 */
import { chooseFormat } from './output-plan.js';
import type { GlobalOptions } from './registry.js';
import type { Io } from './streams.js';

type ProgressGlobals = Pick<GlobalOptions, 'quiet' | 'format' | 'output'>;

export interface Progress {
  tick(): void;
  done(): void;
}

const QUIET: Progress = { tick() {}, done() {} };

/** "1m05s" / "42s": short enough to fit beside the bar. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

export function progressLine(done: number, total: number, elapsedSeconds: number, barWidth: number, unicode: boolean): string {
  const share = total === 0 ? 1 : done / total;
  const filled = Math.round(share * barWidth);
  const [full, empty] = unicode ? ['█', '░'] : ['#', '-'];
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const eta = rate > 0 ? (total - done) / rate : Number.POSITIVE_INFINITY;
  return `${full.repeat(filled)}${empty.repeat(barWidth - filled)} ${done}/${total}  ${rate.toFixed(1)}/s  ETA ${formatDuration(eta)}`;
}

/**
 * Rows streamed to the same terminal (csv, tsv, json, ndjson on stdout) would land on the bar's line
 * and leave it half-erased between them; a table or chart is printed only at the end, after the bar.
 */
function rowsStreamToTerminal(io: Io, globals: ProgressGlobals): boolean {
  if (!io.stdoutIsTTY || globals.output) return false;
  const format = chooseFormat(globals, io);
  return format !== 'table' && format !== 'chart';
}

export function startProgress(io: Io, globals: ProgressGlobals, label: string, total: number): Progress {
  if (!io.stderrIsTTY || globals.quiet || rowsStreamToTerminal(io, globals)) return QUIET;
  const started = performance.now();
  let done = 0;
  let lastDraw = 0;
  const draw = () => {
    const elapsed = (performance.now() - started) / 1000;
    io.stderr.write(`\r\x1b[K${label} ${progressLine(done, total, elapsed, 24, io.unicode)}`);
  };
  draw();
  return {
    tick() {
      done += 1;
      // Redrawing on every row would cost more than the rows themselves on fast exports.
      const now = performance.now();
      if (now - lastDraw > 100 || done === total) {
        lastDraw = now;
        draw();
      }
    },
    done() {
      io.stderr.write('\r\x1b[K');
    },
  };
}
