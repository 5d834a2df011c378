/**
 * What a run tells the person at the terminal, never among the data: notes, --verbose detail and the
 * progress of long exports, all on stderr, with the API key masked in anything printed.
 */
import { redactSecret } from '../api/redact.js';
import { wrapToWidth } from '../output/text.js';
import { printable } from '../shared/printable.js';
import { startProgress, type Progress } from './progress.js';
import type { GlobalOptions } from './registry.js';
import { stderrColumns, type Io } from './streams.js';

export class Reporter {
  constructor(
    readonly io: Io,
    readonly env: NodeJS.ProcessEnv,
    readonly globals: Pick<GlobalOptions, 'quiet' | 'verbose' | 'format' | 'output'>,
    /** The key, once settings were read; before that no code has touched it, so nothing can carry it. */
    readonly secret: () => string | undefined = () => undefined,
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
    const lines = this.io.stderrIsTTY ? wrapToWidth(text, stderrColumns(this.io.stderr, this.env)) : [text];
    this.io.stderr.write(lines.map((line) => (dim ? `\x1b[2m${line}\x1b[22m` : line)).join('\n') + '\n');
  }

  /** Detail for --verbose: stderr only, the key masked (a URL may carry it as a query value). */
  debug(message: string): void {
    if (this.globals.verbose) this.io.stderr.write(`${this.redact(message)}\n`);
  }

  /** The text with the key masked, wherever it came from: belt and braces for anything printed. */
  redact(text: string): string {
    return redactSecret(text, this.secret());
  }

  /** A progress bar for `total` steps on a terminal's stderr; does nothing elsewhere (progress.ts). */
  progress(label: string, total: number): Progress {
    return startProgress(this.io, this.globals, label, total);
  }
}
