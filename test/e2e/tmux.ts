/**
 * The CLI in a real terminal: tmux draws what the CLI writes, and the screen is read back with
 * capture-pane. One tmux server per test file (`useTmux()`), driven by one client in control mode,
 * and one detached session of the chosen size per run.
 *
 * Two ways to run the CLI in a pane:
 * - `run()`: the built CLI (dist/cli/main.js, what bin/newsstats.cjs loads) runs in the test process
 *   with the pane's terminal as its stdout and stderr: two tty streams opened on the pane's tty, so
 *   the width comes from the terminal itself, writes reach tmux as bytes, and the environment is the
 *   pane's own (read from /proc). What the screen shows is what a spawned run shows; a Node start-up
 *   per run (~0.35 s of CPU on Node 20) is saved. After the run, a cursor position request is answered
 *   by tmux only once it has drawn every byte before it, so the screen is read once, without polling.
 * - `run(..., { spawn: true })` and `start()`: bin/newsstats.cjs in a child process of the pane's
 *   shell, for what needs a real process: signals, typing into it, the bin file itself, and a check
 *   that both ways draw the same screen.
 *
 * Screen columns are measured by tmux itself, not by our width code: `measure()` prints each text in a
 * pane and asks tmux where the cursor ended up, so a test of alignment cannot agree with the code under
 * test by construction.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, createWriteStream, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ReadStream, WriteStream } from 'node:tty';
import { threadId } from 'node:worker_threads';
import { afterAll } from 'vitest';
import type { MainIo } from '../../src/cli/run/io.js';
import { BIN, isolatedEnv, REPO, shellQuote, tempDir } from './harness.js';

let servers = 0;

export interface Screen {
  /** The pane's lines, wrapped lines joined, trailing blank lines dropped. */
  lines: string[];
  /** The CLI's exit code. */
  code: number;
}

export interface RunOptions {
  height?: number;
  env?: Record<string, string | undefined>;
  /** stderr into this file instead of the terminal (as `2>file` would). */
  stderrTo?: string;
  /** bin/newsstats.cjs in a child process of the pane, instead of main() in this one. */
  spawn?: boolean;
}

const EXIT_MARK = '::newsstats-exit=';
const POLL_MS = 25;
const TIMEOUT_MS = 20_000;

type Main = (argv: string[], io: MainIo) => Promise<number>;
let builtMain: Main | undefined;
/** The built CLI's main(), as bin/newsstats.cjs loads it (dist/ is built by test/global-setup.ts). */
function loadMain(): Main {
  builtMain ??= (createRequire(import.meta.url)(join(REPO, 'dist', 'cli', 'main.js')) as { main: Main }).main;
  return builtMain;
}

/**
 * A tmux server for this test file: started by its first session, killed after the file's tests.
 * `terminal(env)` gives a test its own config home and environment on it.
 */
export function useTmux(): TmuxServer {
  const server = new TmuxServer();
  afterAll(() => server.kill());
  return server;
}

/** One argument as tmux's command parser reads it back: quoted, so nothing in it is syntax. */
function tmuxQuote(arg: string): string {
  // Single quotes keep everything but a newline; double quotes take one as \n (and need \, " and $ escaped).
  if (!arg.includes('\n')) return `'${arg.replace(/'/g, `'\\''`)}'`;
  return `"${arg.replace(/[\\"$]/g, (c) => `\\${c}`).replace(/\n/g, '\\n')}"`;
}

/**
 * A tmux client in control mode (`tmux -C`): commands go in on its stdin, one a line, and each answer
 * comes back between %begin and %end (or %error) in order. One client for the whole file, instead of a
 * tmux process forked from the test process for every command.
 *
 * Only blocks whose flags are 1 answer a command from stdin. tmux 3.3 writes blocks with flags 0 for
 * commands of its own: the new-session that started the client (checked by hand with tmux 3.3a), and
 * those it runs from elsewhere (configuration, hooks). One suite run failed as answers shifted by one
 * would: a new pane got the process id 0 (an empty screen's text) and another test's screen was empty.
 */
class ControlClient {
  private readonly child: ChildProcess;
  private readonly waiting: Array<{ resolve: (output: string) => void; reject: (error: Error) => void; command: string }> = [];
  private block: { lines: string[]; answers: boolean } | undefined;
  private exited = false;

  constructor(args: string[], env: Record<string, string>) {
    // Control mode attaches to a session of its own; its pane only waits.
    this.child = spawn('tmux', [...args, '-C', 'new-session', '-s', 'control', 'sleep', '86400'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.line(line));
    this.child.on('exit', () => {
      this.exited = true;
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error(`tmux exited before answering ${waiter.command}`));
    });
  }

  private line(line: string): void {
    if (this.block === undefined) {
      // Outside a block: a notification (%sessions-changed, %window-add...), not an answer.
      const begin = /^%begin \d+ \d+ (\d+)$/.exec(line);
      if (begin) this.block = { lines: [], answers: begin[1] === '1' };
      return;
    }
    const end = /^%(end|error) \d+ \d+ \d+$/.exec(line);
    if (!end) {
      this.block.lines.push(line);
      return;
    }
    const { lines, answers } = this.block;
    this.block = undefined;
    if (!answers) return;
    const output = lines.join('\n');
    const waiter = this.waiting.shift();
    if (end[1] === 'end') waiter?.resolve(output);
    else waiter?.reject(new Error(`tmux ${waiter.command}: ${output}`));
  }

  command(args: string[]): Promise<string> {
    const command = args.map(tmuxQuote).join(' ');
    if (this.exited) return Promise.reject(new Error(`tmux is gone: ${command}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`tmux did not answer within ${TIMEOUT_MS / 1000} s: ${command}`)), TIMEOUT_MS);
      this.waiting.push({
        resolve: (output) => {
          clearTimeout(timer);
          resolve(output);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        command,
      });
      this.child.stdin!.write(`${command}\n`);
    });
  }

  /** Ends the client at once (after kill-server: it may be waiting to say goodbye to a server that is gone). */
  close(): void {
    this.child.kill('SIGKILL');
  }
}

export class TmuxServer {
  // Test files run in worker processes (vitest.config.ts), and a tmux test may start more than one
  // server: the process id and a count keep their sockets apart (the thread id too, for a run with
  // `--pool threads`).
  readonly socket = `nstest-${process.pid}-${threadId}-${(servers += 1)}`;
  private sessions = 0;
  // The server's own environment; each session gets its variables with -e.
  private readonly baseEnv = isolatedEnv(tempDir('newsstats-tmux-'));
  private control: ControlClient | undefined;

  /** A terminal with its own config and cache home, and `env` in every pane's environment. */
  terminal(env: Record<string, string | undefined> = {}): Tmux {
    return new Tmux(this, env);
  }

  nextSession(): string {
    return `s${(this.sessions += 1)}`;
  }

  private args(args: string[]): string[] {
    return ['-L', this.socket, '-f', '/dev/null', ...args];
  }

  /** A tmux command and its output; the first starts the server. */
  command(args: string[]): Promise<string> {
    this.control ??= new ControlClient(this.args([]), this.baseEnv);
    return this.control.command(args);
  }

  /** Starts a `width` x `height` session running `argv` (-e variables first) and returns its pane's process id and tty. */
  async newSession(session: string, width: number, height: number, env: Record<string, string>, argv: string[]): Promise<{ pid: number; tty: string }> {
    const variables = Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
    const size = ['-x', String(width), '-y', String(height)];
    const printed = await this.command(['new-session', '-d', '-s', session, ...size, '-P', '-F', '#{pane_pid} #{pane_tty}', ...variables, ...argv]);
    const [pid, tty] = printed.trim().split(' ');
    return { pid: Number(pid), tty: tty! };
  }

  async capture(session: string): Promise<string[]> {
    return (await this.command(['capture-pane', '-p', '-J', '-S', '-', '-t', session])).split('\n').map((line) => line.trimEnd());
  }

  kill(): void {
    if (this.control === undefined) return;
    try {
      execFileSync('tmux', this.args(['kill-server']), { env: this.baseEnv, stdio: 'ignore', timeout: 5_000 });
    } catch {
      // It is gone already.
    }
    this.control.close();
  }
}

/** Drops trailing blank lines. */
function trimmed(lines: string[]): string[] {
  const copy = [...lines];
  while (copy.at(-1) === '') copy.pop();
  return copy;
}

/** The environment a process in the pane got: tmux's (TERM, TMUX, TERM_PROGRAM...) and ours. */
async function paneEnvironment(pid: number): Promise<Record<string, string>> {
  // /proc shows the new environment once tmux's child has exec'd `sleep`: before, tmux's own; while
  // the kernel is still loading it, `comm` is already `sleep` but the environment is empty. TMUX_PANE
  // is in every pane's environment.
  for (let waited = 0; waited < TIMEOUT_MS; waited += 5) {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep') {
      const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      if (entries.some((entry) => entry.startsWith('TMUX_PANE='))) {
        return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`the pane's process ${pid} did not start`);
}

/**
 * The terminal's answers to cursor position requests (ESC [ 6 n) written into `tty` by `write`, as
 * [row, column], 1-based. tmux answers once it has drawn everything written before the request. The
 * tty is raw while the answers are read (not echoed, not held for a newline), then as it was.
 */
async function cursorPositions(tty: string, count: number, write: () => void): Promise<Array<[number, number]>> {
  const input = new ReadStream(openSync(tty, constants.O_RDWR | constants.O_NOCTTY));
  input.setRawMode(true);
  try {
    const answers = await new Promise<string>((resolve, reject) => {
      let received = '';
      const timer = setTimeout(() => reject(new Error(`the terminal answered ${JSON.stringify(received)} to ${count} position requests`)), TIMEOUT_MS);
      input.setEncoding('utf8').on('data', (chunk: string) => {
        received += chunk;
        if ((received.match(/R/g) ?? []).length >= count) {
          clearTimeout(timer);
          resolve(received);
        }
      });
      write();
    });
    return [...answers.matchAll(/\x1b\[(\d+);(\d+)R/g)].map((match) => [Number(match[1]), Number(match[2])]);
  } finally {
    input.setRawMode(false);
    input.destroy();
  }
}

/** Ends a stream and waits for its descriptor to close, pending writes done first (a tty's end() alone never closes it). */
const closed = (stream: NodeJS.WritableStream & { once(event: 'close', listener: () => void): unknown; destroy(): void }) =>
  new Promise<void>((resolve) => {
    stream.once('close', resolve);
    stream.end(() => stream.destroy());
  });

export class Tmux {
  readonly home = tempDir('newsstats-tmux-');

  constructor(
    private readonly server: TmuxServer,
    private readonly env: Record<string, string | undefined>,
  ) {}

  /** The pane's variables: an isolated home, the terminal's variables, then the run's own. */
  private variables(more: Record<string, string | undefined> = {}): Record<string, string> {
    return isolatedEnv(this.home, { ...this.env, ...more });
  }

  /** Runs `newsstats args` in a fresh `width` x `height` pane and returns the screen once it exits. */
  async run(args: string[], width: number, options: RunOptions = {}): Promise<Screen> {
    if (options.spawn) return this.runSpawned(args, width, options);
    const session = this.server.nextSession();
    const { pid, tty } = await this.server.newSession(session, width, options.height ?? 70, this.variables(options.env), ['sleep', '600']);
    const env = await paneEnvironment(pid);
    // Two descriptors, as a process in the pane has for fds 1 and 2; O_NOCTTY: the terminal stays the pane's.
    const stdout = new WriteStream(openSync(tty, constants.O_RDWR | constants.O_NOCTTY));
    const stderr = options.stderrTo === undefined ? new WriteStream(openSync(tty, constants.O_RDWR | constants.O_NOCTTY)) : createWriteStream(options.stderrTo);
    let stdin: ReadStream | undefined;
    const io: MainIo = {
      stdout,
      stderr,
      get stdin() {
        stdin ??= new ReadStream(openSync(tty, constants.O_RDWR | constants.O_NOCTTY));
        return stdin;
      },
      env,
      isTTY: { stdin: true, stdout: true, stderr: options.stderrTo === undefined },
      columns: stdout.columns,
      rows: stdout.rows,
      cwd: REPO,
    };
    let code: number;
    try {
      code = await loadMain()(['node', BIN, ...args], io);
    } finally {
      stdin?.destroy();
      await Promise.all([closed(stdout), closed(stderr)]);
    }
    // tmux answers this request once it has drawn everything written before it.
    const writer = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY);
    try {
      await cursorPositions(tty, 1, () => writeSync(writer, '\x1b[6n'));
    } finally {
      closeSync(writer);
    }
    return { lines: trimmed(await this.server.capture(session)), code };
  }

  /** bin/newsstats.cjs in the pane's shell; the shell prints its exit code after it. */
  private async runSpawned(args: string[], width: number, options: RunOptions): Promise<Screen> {
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ') + (options.stderrTo === undefined ? '' : ` 2>${shellQuote(options.stderrTo)}`);
    const pane = await this.shell(`${command}; echo "${EXIT_MARK}$?"`, width, options.height ?? 70, options.env);
    const lines = await pane.waitFor(EXIT_MARK);
    const markIndex = lines.findIndex((line) => line.startsWith(EXIT_MARK));
    return { lines: trimmed(lines.slice(0, markIndex)), code: Number(lines[markIndex]!.slice(EXIT_MARK.length)) };
  }

  /**
   * Starts `newsstats args` in a pane and leaves it running, for a test that types into it. After
   * the CLI exits, the pane shows its exit code and the terminal's echo and icanon modes (from
   * `stty -a`), so a test can tell that the terminal was restored.
   */
  start(args: string[], width = 100, env: Record<string, string | undefined> = {}, height = 30): Promise<Pane> {
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
    const modes = "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '; echo";
    // Ctrl-C reaches the pane's shell too: a trap keeps it alive to report the CLI's exit, as an
    // interactive shell would be (the CLI itself gets the default disposition back).
    return this.shell(`trap : INT; ${command}; echo "${EXIT_MARK}$?"; ${modes}`, width, height, env);
  }

  /** Starts `script` with `sh -c` in a new session; it is followed by a wait, so the pane stays. */
  private async shell(script: string, width: number, height: number, env: Record<string, string | undefined> = {}): Promise<Pane> {
    const session = this.server.nextSession();
    const { pid } = await this.server.newSession(session, width, height, this.variables(env), ['sh', '-c', `${script}; exec sleep 600`]);
    return new Pane(session, pid, this.server);
  }

  /**
   * Screen columns each text takes as tmux draws it: each is printed at the start of a line and the
   * cursor's position asked of the terminal (tmux answers from its own screen).
   */
  async measure(texts: readonly string[]): Promise<number[]> {
    const session = this.server.nextSession();
    const { pid, tty } = await this.server.newSession(session, 200, 10, this.variables(), ['sleep', '600']);
    // Until it execs, tmux's child may still set the terminal's modes, undoing the raw mode below.
    await paneEnvironment(pid);
    const output = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY);
    try {
      const requests = texts.map((text) => `\r${text}\x1b[6n\r\x1b[K`).join('');
      const positions = await cursorPositions(tty, texts.length, () => writeSync(output, requests));
      return positions.map(([, column]) => column - 1);
    } finally {
      closeSync(output);
    }
  }
}

/** A running pane: read its screen, type into it, wait for it to finish. */
export class Pane {
  constructor(
    readonly session: string,
    private readonly shellPid: number,
    private readonly server: TmuxServer,
  ) {}

  async screen(): Promise<string[]> {
    return this.server.capture(this.session);
  }

  /** The CLI's process id: the pane runs `sh -c`, and the CLI is its child. */
  processId(): number {
    return Number(readFileSync(`/proc/${this.shellPid}/task/${this.shellPid}/children`, 'utf8').trim().split(' ')[0]);
  }

  /** Polls (bounded) until the screen holds `text`. */
  async waitFor(text: string): Promise<string[]> {
    return this.until((lines) => lines.some((line) => line.includes(text)), `"${text}" did not show`);
  }

  /** Polls the screen (bounded) until `done` holds for it. */
  async until(done: (lines: string[]) => boolean, failure: string): Promise<string[]> {
    const start = Date.now();
    for (;;) {
      const lines = await this.screen();
      if (done(lines)) return lines;
      if (Date.now() - start > TIMEOUT_MS) throw new Error(`${failure} within ${TIMEOUT_MS / 1000} s:\n${lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** tmux key names (Enter, Left, BSpace, C-u, C-c) or, with literal, text as typed. */
  async keys(keys: string[], literal = false): Promise<void> {
    await this.server.command(['send-keys', '-t', this.session, ...(literal ? ['-l'] : []), ...keys]);
  }

  /** Pastes as a terminal does: bracketed, when the program asked for bracketed paste. */
  async paste(text: string): Promise<void> {
    await this.server.command(['set-buffer', '-b', `nstest-${this.session}`, text]);
    await this.server.command(['paste-buffer', '-p', '-d', '-b', `nstest-${this.session}`, '-t', this.session]);
  }

  /** The exit code once the CLI has finished, and the terminal modes it left behind. */
  async finished(): Promise<{ code: number; modes: string[]; lines: string[] }> {
    // The modes line follows the exit code; it may be a moment behind it.
    const lines = await this.until((screen) => {
      const at = screen.findIndex((line) => line.startsWith(EXIT_MARK));
      return at >= 0 && (screen[at + 1] ?? '').trim() !== '';
    }, 'no exit code and terminal modes');
    const at = lines.findIndex((line) => line.startsWith(EXIT_MARK));
    return { code: Number(lines[at]!.slice(EXIT_MARK.length)), modes: lines[at + 1]!.trim().split(/\s+/), lines: lines.slice(0, at) };
  }
}
