/**
 * The CLI in a real pseudo-terminal: a tmux server of its own (a private socket per use), one
 * detached session of a chosen size, and the screen read back with capture-pane.
 *
 * Screen columns are measured by tmux itself, not by our width code: `measure()` prints each text
 * in the pane and asks tmux where the cursor ended up, so a test of alignment cannot agree with the
 * code under test by construction.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { BIN, isolatedEnv, shellQuote, tempDir } from './harness.js';

let servers = 0;

export interface Screen {
  /** The pane's lines, wrapped lines joined, trailing blank lines dropped. */
  lines: string[];
  /** The CLI's exit code, as the pane's shell saw it. */
  code: number;
}

const EXIT_MARK = '::newsstats-exit=';
const POLL_MS = 100;
const MAX_POLLS = 200;

export class Tmux {
  // Test files run in worker threads of one process: the thread id keeps their sockets apart.
  readonly socket = `nstest-${process.pid}-${threadId}-${(servers += 1)}`;
  readonly home = tempDir('newsstats-tmux-');
  private sessions = 0;

  constructor(private readonly env: Record<string, string | undefined> = {}) {}

  private tmux(args: string[], env?: Record<string, string>): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: env ?? process.env });
  }

  /** Runs `newsstats args` in a fresh `width` x `height` pane and returns the screen once it exits. */
  async run(args: string[], width: number, options: { height?: number; env?: Record<string, string | undefined>; redirect?: string } = {}): Promise<Screen> {
    // `redirect` is shell syntax after the command (`2>file`): one stream off the terminal.
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ') + (options.redirect ? ` ${options.redirect}` : '');
    const text = await this.shell(`${command}; echo "${EXIT_MARK}$?"; sleep 600`, width, options.height ?? 70, options.env, EXIT_MARK);
    const markIndex = text.findIndex((line) => line.startsWith(EXIT_MARK));
    return { lines: text.slice(0, markIndex), code: Number(text[markIndex]!.slice(EXIT_MARK.length)) };
  }

  /**
   * Starts `newsstats args` in a pane and leaves it running, for a test that types into it. After
   * the CLI exits, the pane shows its exit code and the terminal's echo and icanon modes (from
   * `stty -a`), so a test can tell that the terminal was restored.
   */
  start(args: string[], width = 100, env: Record<string, string | undefined> = {}): Pane {
    const session = `s${(this.sessions += 1)}`;
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
    const modes = "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon | tr '\\n' ' '; echo";
    // Ctrl-C reaches the pane's shell too: a trap keeps it alive to report the CLI's exit, as an
    // interactive shell would be (the CLI itself gets the default disposition back).
    const script = `trap : INT; ${command}; echo "${EXIT_MARK}$?"; ${modes}; sleep 600`;
    const variables = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : ['-e', `${name}=${value}`]));
    this.tmux(['new-session', '-d', '-s', session, '-x', String(width), '-y', '30', ...variables, 'sh', '-c', script], isolatedEnv(this.home, this.env));
    return new Pane(session, (args) => this.tmux(args));
  }

  /**
   * Screen columns each text takes as tmux draws it: each is printed at the start of a line and the
   * cursor's column read back.
   */
  async measure(texts: readonly string[]): Promise<number[]> {
    const dir = tempDir('newsstats-measure-');
    const input = join(dir, 'texts');
    const output = join(dir, 'widths');
    writeFileSync(input, texts.join('\n') + '\n');
    writeFileSync(output, '');
    const script = `while IFS= read -r t; do printf '\\r%s' "$t"; tmux display -p '#{cursor_x}' >> ${shellQuote(output)}; printf '\\r\\033[K'; done < ${shellQuote(input)}; echo done; sleep 600`;
    await this.shell(script, 200, 10, {}, 'done');
    return readFileSync(output, 'utf8').trim().split('\n').map(Number);
  }

  /** Starts `script` in a new session and polls the pane (bounded) until a line starts with `mark`. */
  private async shell(script: string, width: number, height: number, env: Record<string, string | undefined> = {}, mark: string): Promise<string[]> {
    const session = `s${(this.sessions += 1)}`;
    // The server keeps the environment it started with; a run's own variables go in with -e.
    const variables = Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : ['-e', `${name}=${value}`]));
    const size = ['-x', String(width), '-y', String(height)];
    this.tmux(['new-session', '-d', '-s', session, ...size, ...variables, 'sh', '-c', script], isolatedEnv(this.home, this.env));
    for (let poll = 0; poll < MAX_POLLS; poll += 1) {
      const lines = this.tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', session]).split('\n');
      if (lines.some((line) => line.startsWith(mark))) {
        while (lines.at(-1) === '') lines.pop();
        return lines.map((line) => line.trimEnd());
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`tmux pane did not finish within ${(MAX_POLLS * POLL_MS) / 1000} s: ${script}`);
  }

  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // No server was started, or it is gone already.
    }
  }
}

/** A running pane: read its screen, type into it, wait for it to finish. */
export class Pane {
  constructor(
    readonly session: string,
    private readonly tmux: (args: string[]) => string,
  ) {}

  screen(): string[] {
    return this.tmux(['capture-pane', '-p', '-J', '-S', '-', '-t', this.session]).split('\n').map((line) => line.trimEnd());
  }

  /** The CLI's process id: the pane runs `sh -c`, and the CLI is its child. */
  processId(): number {
    const shell = this.tmux(['display', '-p', '-t', this.session, '#{pane_pid}']).trim();
    return Number(readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(' ')[0]);
  }

  /** Polls (bounded) until the screen holds `text`. */
  async waitFor(text: string): Promise<string[]> {
    for (let poll = 0; poll < MAX_POLLS; poll += 1) {
      const lines = this.screen();
      if (lines.some((line) => line.includes(text))) return lines;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`"${text}" did not show within ${(MAX_POLLS * POLL_MS) / 1000} s:\n${this.screen().join('\n')}`);
  }

  /** tmux key names (Enter, Left, BSpace, C-u, C-c) or, with literal, text as typed. */
  keys(keys: string[], literal = false): void {
    this.tmux(['send-keys', '-t', this.session, ...(literal ? ['-l'] : []), ...keys]);
  }

  /** Pastes as a terminal does: bracketed, when the program asked for bracketed paste. */
  paste(text: string): void {
    this.tmux(['set-buffer', '-b', 'nstest', text]);
    this.tmux(['paste-buffer', '-p', '-d', '-b', 'nstest', '-t', this.session]);
  }

  /** The exit code once the CLI has finished, and the terminal modes it left behind. */
  async finished(): Promise<{ code: number; modes: string[]; lines: string[] }> {
    await this.waitFor(EXIT_MARK);
    // The modes line follows the exit code; it may be a moment behind it.
    for (let poll = 0; poll < MAX_POLLS; poll += 1) {
      const lines = this.screen();
      const at = lines.findIndex((line) => line.startsWith(EXIT_MARK));
      const modes = (lines[at + 1] ?? '').trim();
      if (modes !== '') return { code: Number(lines[at]!.slice(EXIT_MARK.length)), modes: modes.split(/\s+/), lines: lines.slice(0, at) };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`no terminal modes after the exit code:\n${this.screen().join('\n')}`);
  }
}
