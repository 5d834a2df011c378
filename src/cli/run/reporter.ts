/**
 * What a run tells the person at the terminal, never among the data: notes, --verbose detail and the
 * progress of long exports, all on stderr, with the API key masked in anything printed.
 */
import { redactSecret } from '../../api/redact.js';
import { wrapToWidth } from '../../output/text.js';
import { weeksBetween, type WeekWindow } from '../../shared/weeks.js';
import { printable } from '../../shared/printable.js';
import { startProgress, type Progress, type ProgressBar } from './progress.js';
import type { GlobalOptions } from '../flags/global.js';
import { stderrColumns, type Io } from './io.js';

const NO_PROGRESS: Progress = { tick() {}, done() {} };

export class Reporter {
  /** The progress bar on the screen, if any: notes go around it, and the run's end erases it. */
  #bar: ProgressBar | undefined;
  /** The current week, when a window this run resolved holds it: its counts are still growing. */
  #partialWeek: { window: WeekWindow; currentWeek: number } | undefined;
  /** Where notes go instead of stderr while a pager may show the output (run/pager.ts): in order with it. */
  #notes: NodeJS.WritableStream | undefined;

  constructor(
    readonly io: Io,
    readonly env: NodeJS.ProcessEnv,
    readonly globals: Pick<GlobalOptions, 'quiet' | 'verbose' | 'format' | 'output'>,
    /** The key, once settings were read; before that no code has touched it, so nothing can carry it. */
    readonly secret: () => string | undefined = () => undefined,
    /**
     * Registers a clean-up for the end of the run and for Ctrl-C (Lifecycle.onCleanup). A bar
     * registers its erasing when drawn, after the client's and the output file's clean-ups, so it is
     * the first to run: the line is gone before anything else happens.
     */
    readonly onCleanup: (cleanup: () => void) => void = () => undefined,
  ) {}

  /**
   * A message for the person at the terminal: stderr, wrapped between words at the terminal's width,
   * dim when asked and colour is on; silent under --quiet. Not on a terminal (a log, cron's mail) a
   * message stays one line, so grep finds it whole.
   */
  note(message: string, options: { dim?: boolean; evenQuiet?: boolean } = {}): void {
    if (this.globals.quiet && options.evenQuiet !== true) return;
    const dim = options.dim === true && this.io.stderrColor;
    // A note may quote what the service sent (a field name, a title): no escape reaches the terminal.
    const text = message.split('\n').map(printable).join('\n');
    const lines = this.io.isTTY.stderr ? wrapToWidth(text, stderrColumns(this.io.stderr, this.env), { keepQuoted: true }) : [text];
    this.#write(lines.map((line) => (dim ? `\x1b[2m${line}\x1b[22m` : line)).join('\n') + '\n');
  }

  /** Detail for --verbose: stderr only, the key masked (a URL may carry it as a query value). */
  debug(message: string): void {
    if (this.globals.verbose) this.#write(`${this.redact(message)}\n`);
  }

  /** The text with the key masked, wherever it came from: belt and braces for anything printed. */
  redact(text: string): string {
    return redactSecret(text, this.secret());
  }

  /**
   * A progress bar for `total` steps on a terminal's stderr; does nothing elsewhere (progress.ts).
   * One at a time: a new bar replaces the one before.
   */
  progress(label: string, total: number): Progress {
    this.endProgress();
    const bar = startProgress(this.io, this.globals, label, total, () => stderrColumns(this.io.stderr, this.env));
    if (!bar) return NO_PROGRESS;
    this.#bar = bar;
    this.onCleanup(() => this.endProgress());
    return {
      tick: () => bar.tick(),
      done: () => {
        if (this.#bar === bar) this.endProgress();
      },
    };
  }

  /** Erases the progress bar for good, if one is drawn: the run is ending, or an error is to be printed. */
  endProgress(): void {
    const bar = this.#bar;
    this.#bar = undefined;
    bar?.done();
  }

  /** A window resolved against the service's week (week-window.ts): remembered when it holds the current week. */
  windowResolved(window: WeekWindow, currentWeek: number): void {
    if (window.startWeek <= currentWeek && currentWeek <= window.endWeek) this.#partialWeek ??= { window, currentWeek };
  }

  /**
   * Data that left for a file or a pipe, where no caption marks the partial week (#31): said once on
   * stderr, with the spec that asks for complete weeks instead.
   */
  notePartialWeek(destination: string): void {
    const partial = this.#partialWeek;
    if (!partial) return;
    const { window, currentWeek } = partial;
    const count = weeksBetween(window.startWeek, window.endWeek) + 1;
    this.note(`${destination} holds week ${currentWeek}, which is not over: its counts are partial (--weeks complete${count} gives the ${count === 1 ? 'last complete week' : `${count} complete weeks before it`})`);
  }

  /** Notes and --verbose detail go to `stream` (a pager's), or back to stderr when undefined. */
  routeNotes(stream: NodeJS.WritableStream | undefined): void {
    this.#notes = stream;
  }

  /** Text for stderr, never on the bar's line: the bar is erased first and drawn again below it. */
  #write(text: string): void {
    if (this.#notes) {
      this.#notes.write(text);
      return;
    }
    this.#bar?.erase();
    this.io.stderr.write(text);
    this.#bar?.redraw();
  }
}
