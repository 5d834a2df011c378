/**
 * The progress bar is a line the terminal still holds (#18): whatever else goes to that terminal is
 * written around it, and however the run ends (done, an error, Ctrl-C, kill) the line is erased.
 * In-process, with a stderr that says it is a terminal and records each write; the same in a real
 * pseudo-terminal is in test/e2e/terminal.test.ts.
 */
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createContext } from '../../src/cli/run/context.js';
import type { GlobalOptions } from '../../src/cli/flags/global.js';
import { ERASE_LINE, fittedProgressLine } from '../../src/cli/run/progress.js';
import { detectIo } from '../../src/cli/run/io.js';

/** A stderr that keeps each write apart, so the order of erase, text and redraw can be read. */
class Recorder extends Writable {
  writes: string[] = [];
  columns: number | undefined;
  constructor(columns?: number) {
    super({ decodeStrings: false });
    this.columns = columns;
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push(String(chunk));
    done();
  }
  /** The screen's last line as a terminal would show it: each \r\x1b[K starts it afresh. */
  get text(): string {
    return this.writes.join('');
  }
}

const GLOBALS = { quiet: false, verbose: false, color: true, header: true } as GlobalOptions;

function terminalRun(options: { columns?: number; globals?: Partial<GlobalOptions>; stdoutIsTTY?: boolean; process?: FakeProcess } = {}) {
  const stderr = new Recorder(options.columns ?? 80);
  const stdout = new Recorder();
  const io = detectIo({
    stdout, stderr, stdin: process.stdin, env: { LANG: 'C.UTF-8' }, cwd: process.cwd(),
    isTTY: { stdin: false, stdout: options.stdoutIsTTY ?? false, stderr: true },
    ...(options.process && { process: options.process }),
  }, true);
  const ctx = createContext(io, { ...GLOBALS, ...options.globals }, { LANG: 'C.UTF-8' });
  return { ctx, stderr };
}

class FakeProcess extends EventEmitter {
  exitCode: number | undefined;
  exited: Promise<number>;
  #resolve!: (code: number) => void;
  constructor() {
    super();
    this.exited = new Promise((resolve) => (this.#resolve = resolve));
  }
  exit(code: number): void {
    this.exitCode = code;
    this.#resolve(code);
  }
}

/** Every line drawn, each as it stood when the next \r\x1b[K came. */
function drawnLines(text: string): string[] {
  return text.split(ERASE_LINE).slice(1);
}

describe('the progress bar and what else is written to its terminal', () => {
  test('a note while the bar is drawn: the bar is erased, the note has its own line, and the bar is drawn again below it', () => {
    const { ctx, stderr } = terminalRun();
    const progress = ctx.report.progress('links', 4);
    progress.tick();
    stderr.writes = [];
    ctx.report.note('sync: week 202645 failed: the service answered 503');
    expect(stderr.writes[0]).toBe(ERASE_LINE);
    expect(stderr.writes[1]).toBe('sync: week 202645 failed: the service answered 503\n');
    expect(stderr.writes[2]).toMatch(/^\r\x1b\[Klinks █+░+ 1\/4 /);
    expect(stderr.writes).toHaveLength(3);
  });

  test('--verbose detail goes around the bar too', () => {
    const { ctx, stderr } = terminalRun({ globals: { verbose: true } });
    ctx.report.progress('links', 2);
    stderr.writes = [];
    ctx.report.debug('GET http://127.0.0.1/api/data/people/p1/links 200 12 ms');
    expect(stderr.writes).toEqual([ERASE_LINE, 'GET http://127.0.0.1/api/data/people/p1/links 200 12 ms\n', expect.stringMatching(/^\r\x1b\[Klinks .* 0\/2 /)]);
  });

  test('done erases the bar; ticks and notes after it draw no bar again', () => {
    const { ctx, stderr } = terminalRun();
    const progress = ctx.report.progress('links', 3);
    progress.tick();
    progress.done();
    expect(stderr.text.endsWith(ERASE_LINE)).toBe(true);
    stderr.writes = [];
    progress.tick();
    ctx.report.note('wrote 6 rows to links.csv');
    progress.done();
    expect(stderr.writes).toEqual(['wrote 6 rows to links.csv\n']);
  });

  test('an error about to be printed: endProgress leaves the cursor at the start of an empty line', () => {
    const { ctx, stderr } = terminalRun();
    const progress = ctx.report.progress('country-stats', 10);
    progress.tick();
    ctx.report.endProgress();
    expect(stderr.writes.at(-1)).toBe(ERASE_LINE);
    stderr.writes = [];
    progress.tick();
    progress.done();
    expect(stderr.writes).toEqual([]);
  });

  test('the run\'s end (its clean-ups, as main() runs them last of all) erases a bar nobody ended', async () => {
    const { ctx, stderr } = terminalRun();
    ctx.report.progress('sync', 5).tick();
    await ctx.lifecycle.close('done');
    expect(stderr.writes.at(-1)).toBe(ERASE_LINE);
  });

  test.each([['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const)('%s: the bar is erased before the exit (%i), and the rows still in flight draw nothing', async (signal, code) => {
    const fake = new FakeProcess();
    const { ctx, stderr } = terminalRun({ process: fake });
    ctx.lifecycle.exitOnSignals();
    // The client's clean-up was registered before the bar was drawn: the bar's runs first.
    const order: string[] = [];
    ctx.lifecycle.onCleanup(() => void order.push(`client closed after ${JSON.stringify(stderr.writes.at(-1))}`));
    const progress = ctx.report.progress('links', 4);
    progress.tick();
    fake.emit(signal, signal);
    expect(await fake.exited).toBe(code);
    expect(order).toEqual([`client closed after ${JSON.stringify(ERASE_LINE)}`]);
    const after = stderr.writes.length;
    progress.tick();
    progress.done();
    expect(stderr.writes.length).toBe(after);
    expect(stderr.text.endsWith(ERASE_LINE)).toBe(true);
  });

  test('a second bar replaces the first: one line on the screen at a time', () => {
    const { ctx, stderr } = terminalRun();
    const first = ctx.report.progress('ranking', 2);
    ctx.report.progress('links', 2);
    stderr.writes = [];
    first.tick();
    first.done();
    expect(stderr.writes).toEqual([]);
  });

  test('no bar off a terminal, under --quiet, or while rows stream onto the same terminal', () => {
    for (const options of [{ globals: { quiet: true } }, { stdoutIsTTY: true, globals: { format: 'csv' as const } }, { globals: { output: '/dev/stderr' } }]) {
      const { ctx, stderr } = terminalRun(options);
      const progress = ctx.report.progress('links', 2);
      progress.tick();
      ctx.report.note('a note');
      progress.done();
      expect(stderr.text).not.toContain('\r');
    }
  });
});

describe('the bar fits its terminal', () => {
  test.each([20, 30, 40, 50, 80, 120])('at %i columns the line leaves room for the echoed ^C, so it never wraps', (columns) => {
    for (const [done, total, elapsed] of [[0, 10_000, 0], [1234, 10_000, 61.5], [10_000, 10_000, 3600]] as const) {
      const line = fittedProgressLine('country-stats', done, total, elapsed, columns, true);
      expect(line.length, line).toBeLessThanOrEqual(columns - 3);
      expect(line).toContain(`${done}/${total}`);
    }
  });

  test('a wide terminal gets the whole 24-cell bar with rate and ETA; a narrow one a shorter bar, then the counts', () => {
    expect(fittedProgressLine('links', 12, 48, 6, 120, false)).toBe('links ######------------------ 12/48  2.0/s  ETA 18s');
    expect(fittedProgressLine('links', 12, 48, 6, 40, false)).toBe('links ##------- 12/48  2.0/s  ETA 18s');
    expect(fittedProgressLine('links', 12, 48, 6, 30, false)).toBe('links ####----------- 12/48');
    expect(fittedProgressLine('links', 12, 48, 6, 16, false)).toBe('links 12/48');
    expect(fittedProgressLine('country-stats', 12, 48, 6, 16, false)).toBe('12/48');
  });

  test('the bar is drawn to the width stderr reports at each redraw (a resized terminal)', () => {
    const { ctx, stderr } = terminalRun({ columns: 120 });
    const progress = ctx.report.progress('links', 2);
    stderr.columns = 40;
    ctx.report.note('resized');
    progress.done();
    const [wide, narrow] = drawnLines(stderr.text).filter((line) => line.startsWith('links'));
    expect(wide!.length).toBeGreaterThan(40);
    expect(narrow!.length).toBeLessThanOrEqual(37);
  });
});
