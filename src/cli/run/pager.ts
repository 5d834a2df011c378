/**
 * Output taller than the terminal goes through a pager, as gh and git do, so the caption, the header
 * and rank 1 are on the first screen instead of scrolled away.
 *
 * - Which pager: NEWSSTATS_PAGER, then the profile's `pager` setting, then PAGER, then `less -FRX`
 *   (raw colours and OSC 8 hyperlinks, quit at once if it fits, the screen left as it was). `cat` turns
 *   it off; so does `--no-pager`. As gh does, LESS=FRX and LV=-c are given to a pager when unset.
 * - When: only where the run owns a terminal (stdout is one, no --output, a real process that can hand
 *   the terminal over). Output is held until it would not fit the screen: short output is printed as
 *   is, and no pager is started for it (nor is it for a pager that would quit at once anyway).
 * - Notes: while stderr is the same terminal, the run's notes go through the pager too, in order with
 *   the data, as git sends its stderr to the pager: the hidden-columns note stays above the table.
 * - Nothing lost, nothing noisy: a pager that cannot be started, or that fails (exits non-zero) before
 *   it has shown the output, leaves the output printed as if there were none, with one note. A pager
 *   the user quits early (`q` in less, `head`) ends the run quietly with exit 0: what is left is dropped.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { Writable } from 'node:stream';
import { displayWidth } from '../../output/text.js';

/** The pager used when none is named: as gh's and git's, with the options it needs spelled out. */
export const DEFAULT_PAGER = 'less -FRX';

/** The pager's command line and where it came from, for the one note a failure gives. */
export interface PagerChoice {
  command: string;
  source: 'NEWSSTATS_PAGER' | 'pager setting' | 'PAGER' | 'default';
}

/**
 * The pager to run, or undefined for none. `configured` is NEWSSTATS_PAGER or the profile's `pager`
 * (the settings table's precedence, config/settings.ts); PAGER is the platform's variable, read after.
 */
export function choosePager(configured: { value: string; source: 'NEWSSTATS_PAGER' | 'pager setting' } | undefined, env: NodeJS.ProcessEnv): PagerChoice | undefined {
  const choice: PagerChoice = configured !== undefined ? { command: configured.value, source: configured.source }
    : env.PAGER !== undefined ? { command: env.PAGER, source: 'PAGER' }
      : { command: DEFAULT_PAGER, source: 'default' };
  const command = choice.command.trim();
  // An empty PAGER, as gh reads it, and cat (gh's way to turn it off) mean no pager.
  if (command === '' || command === 'cat') return undefined;
  return { command, source: choice.source };
}

/**
 * A command line split into words as a shell would for the simple cases a PAGER holds: spaces
 * separate, '...' and "..." quote, a backslash escapes. Run without a shell, so a missing program is
 * known (ENOENT) instead of a shell's "not found" on the screen.
 */
export function commandWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let at = 0; at < command.length; at += 1) {
    const char = command[at]!;
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && at + 1 < command.length) word += command[(at += 1)];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && at + 1 < command.length) {
      word += command[(at += 1)];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The environment a pager gets: the run's, with gh's defaults for less and lv where the user set none. */
export function pagerEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, ...(env.LESS === undefined && { LESS: 'FRX' }), ...(env.LV === undefined && { LV: '-c' }) };
}

/** SGR colours and OSC 8 hyperlinks: they draw nothing. */
// eslint-disable-next-line no-control-regex -- terminal escape sequences are what this matches
const ESCAPES = /\x1b\[[0-9;]*m|\x1b\]8;[^\x1b\x07]*(?:\x1b\\|\x07)/g;

/** Screen rows `text` takes from where the cursor is (`column`): long lines wrap. Escapes take none. */
export function screenRows(text: string, columns: number, column: number): { rows: number; column: number } {
  let rows = 0;
  let at = column;
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const visible = line.replace(ESCAPES, '');
    at += displayWidth(visible);
    if (index < lines.length - 1) {
      rows += Math.max(1, Math.ceil(at / columns));
      at = 0;
    }
  });
  return { rows, column: at };
}

interface Held {
  stream: 'out' | 'err';
  chunk: string | Uint8Array;
}

export interface PagerOptions {
  /** The terminal the run writes its data to. */
  stdout: NodeJS.WritableStream;
  /** The terminal notes go to, when stderr is the same terminal; else notes stay out of the pager. */
  stderr: NodeJS.WritableStream;
  rows: number;
  columns: number;
  env: NodeJS.ProcessEnv;
  /** The pager's own stdio: its input is ours to write; its output the run's terminal. */
  stdio: SpawnOptions['stdio'];
  /** Asked when output first overflows the screen: the pager to run, or undefined for none. */
  choose: () => Promise<PagerChoice | undefined>;
  /** The pager has the screen: progress bars stop, Ctrl-C is the pager's (lifecycle.ts). */
  onStart: () => void;
  /** The pager is gone: Ctrl-C ends the run again. */
  onEnd: () => void;
  /** How a pager that could not help is told: one note, on the real stderr. */
  warn: (message: string) => void;
  /** Only a test passes another. */
  spawn?: (command: string, args: string[], options: SpawnOptions) => ChildProcess;
}

/** The most output kept to print again if the pager fails: what a person could page through. */
const KEEP_LIMIT = 64 * 1024 * 1024;

/**
 * Stands between the run and its terminal: `stdout` takes the data, `notes` the messages. Until the
 * output is taller than the screen both are held; then the pager starts and gets them, in order.
 * `finish()` prints what is held directly, or closes the pager's input and waits for it to be quit.
 */
export class Pager {
  readonly stdout: Writable;
  readonly notes: Writable;
  /** Holding until the screen is full; then paging, or direct (no pager); quit by the user; failed: kept to print. */
  #state: 'holding' | 'paging' | 'direct' | 'quit' | 'failed' = 'holding';
  #held: Held[] = [];
  #rows = 0;
  #column = 0;
  /** Everything the pager was given, to print again should it fail; dropped past KEEP_LIMIT. */
  #kept: Held[] | undefined = [];
  #keptBytes = 0;
  #child: ChildProcess | undefined;
  #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  #choice: PagerChoice | undefined;
  /** Writes are handled one at a time, in the order they came, across both streams. */
  #queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: PagerOptions) {
    this.stdout = this.#writable('out');
    this.notes = this.#writable('err');
  }

  /** True once a pager was started for this run. */
  get paged(): boolean {
    return this.#child !== undefined;
  }

  #writable(stream: 'out' | 'err'): Writable {
    return new Writable({
      decodeStrings: false,
      write: (chunk: string | Uint8Array, _encoding, callback) => {
        this.#queue = this.#queue.then(() => this.#take({ stream, chunk })).then(() => callback(), callback);
      },
    });
  }

  async #take(item: Held): Promise<void> {
    switch (this.#state) {
      case 'holding': {
        this.#held.push(item);
        const text = typeof item.chunk === 'string' ? item.chunk : Buffer.from(item.chunk).toString('utf8');
        const measured = screenRows(text, this.options.columns, this.#column);
        this.#rows += measured.rows;
        this.#column = measured.column;
        // The last row is the shell's prompt once the run ends: output that needs it does not fit.
        if (this.#rows >= this.options.rows) await this.#start();
        return;
      }
      case 'paging':
      case 'failed':
        return this.#toPager(item);
      case 'direct':
        return this.#direct(item);
      case 'quit':
        return;
    }
  }

  async #start(): Promise<void> {
    const held = this.#held.splice(0);
    this.#choice = await this.options.choose().catch(() => undefined);
    const words = this.#choice === undefined ? [] : commandWords(this.#choice.command);
    if (words.length === 0) {
      this.#state = 'direct';
      for (const item of held) await this.#direct(item);
      return;
    }
    const child = (this.options.spawn ?? spawn)(words[0]!, words.slice(1), {
      // The pager draws on the run's terminal and reads keys from it (less opens /dev/tty).
      stdio: this.options.stdio,
      env: pagerEnvironment(this.options.env),
    });
    const started = await new Promise<boolean>((resolve) => {
      child.once('spawn', () => resolve(true));
      child.once('error', () => resolve(false));
    });
    if (!started) {
      this.options.warn(`the pager "${this.#choice!.command}" (${this.#choice!.source}) could not be started; printed without it (--no-pager, or NEWSSTATS_PAGER=cat, turns paging off)`);
      this.#state = 'direct';
      for (const item of held) await this.#direct(item);
      return;
    }
    this.#child = child;
    this.#state = 'paging';
    // A pager quit early closes its input: the writes still under way fail with EPIPE, which is no error.
    child.stdin!.on('error', () => undefined);
    this.#exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.#exited.then(({ code }) => {
      if (this.#state === 'paging') this.#state = code === 0 ? 'quit' : 'failed';
    });
    this.options.onStart();
    for (const item of held) await this.#toPager(item);
  }

  async #toPager(item: Held): Promise<void> {
    if (this.#kept !== undefined) {
      this.#kept.push(item);
      this.#keptBytes += item.chunk.length;
      if (this.#keptBytes > KEEP_LIMIT) this.#kept = undefined;
    }
    const input = this.#child!.stdin!;
    if (this.#state === 'failed' || input.destroyed || !input.writable) return;
    await new Promise<void>((resolve) => {
      input.write(item.chunk, () => resolve());
    });
  }

  #direct(item: Held): Promise<void> {
    const target = item.stream === 'out' ? this.options.stdout : this.options.stderr;
    return new Promise((resolve) => {
      target.write(item.chunk, () => resolve());
    });
  }

  /**
   * The run's output is complete: what is held is printed as it is; a pager gets the end of its input
   * and is waited for. Should it have failed, what it was given is printed without it.
   */
  async finish(): Promise<void> {
    await this.#queue;
    if (this.#state === 'holding') {
      this.#state = 'direct';
      for (const item of this.#held.splice(0)) await this.#direct(item);
      return;
    }
    if (this.#child === undefined) return;
    const child = this.#child;
    child.stdin!.end();
    const { code, signal } = await this.#exited!;
    this.options.onEnd();
    if (code === 0 || signal === 'SIGPIPE') {
      this.#state = 'quit';
      return;
    }
    this.#state = 'direct';
    const how = code === null ? `was ended by ${signal}` : `exited with status ${code}`;
    this.options.warn(`the pager "${this.#choice!.command}" (${this.#choice!.source}) ${how}; ${this.#kept ? 'printed without it' : 'the output was too long to print again'} (--no-pager, or NEWSSTATS_PAGER=cat, turns paging off)`);
    for (const item of this.#kept ?? []) await this.#direct(item);
    this.#kept = undefined;
  }

  /**
   * Ctrl-C before the output was complete: what is held is printed, so what the run had shown
   * without a pager is still shown. A running pager is left to the user (it got the Ctrl-C too).
   */
  releaseHeld(): void {
    if (this.#state !== 'holding') return;
    this.#state = 'direct';
    for (const item of this.#held.splice(0)) (item.stream === 'out' ? this.options.stdout : this.options.stderr).write(item.chunk);
  }
}
