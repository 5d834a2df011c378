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
import { BIN, isolatedEnv, tempDir } from './harness.js';
import { shellQuote } from './workflow-helpers.js';

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
  readonly socket = `nstest-${process.pid}-${(servers += 1)}`;
  readonly home = tempDir('newsstats-tmux-');
  private sessions = 0;

  constructor(private readonly env: Record<string, string | undefined> = {}) {}

  private tmux(args: string[], env?: Record<string, string>): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: env ?? process.env });
  }

  /** Runs `newsstats args` in a fresh `width` x `height` pane and returns the screen once it exits. */
  async run(args: string[], width: number, options: { height?: number; env?: Record<string, string | undefined> } = {}): Promise<Screen> {
    const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
    const text = await this.shell(`${command}; echo "${EXIT_MARK}$?"; sleep 600`, width, options.height ?? 70, options.env, EXIT_MARK);
    const markIndex = text.findIndex((line) => line.startsWith(EXIT_MARK));
    return { lines: text.slice(0, markIndex), code: Number(text[markIndex]!.slice(EXIT_MARK.length)) };
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
