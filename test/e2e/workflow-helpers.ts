/**
 * Helpers for the analyst-workflow end-to-end tests (panels, trend, export, cache, chart): direct
 * HTTP queries to the sandbox (the independent source of expected values), the sandbox's request
 * log, CSV parsing, and runs of the CLI under a pseudo-terminal (util-linux `script`).
 */
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseLossless } from 'lossless-json';
import { BIN, isolatedEnv, readLog, spawnAndCollect, tempDir, type CliResult, type LogEntry } from './harness.js';

export { readLog, type LogEntry };

export type Json = Record<string, unknown>;

/** GET {url}/api/data{path} with the key; numbers stay exact (LosslessNumber, String() gives the digits sent). */
export async function apiGet(server: { url: string; key: string }, path: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<any> {
  const url = new URL(`${server.url}/api/data${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  const response = await fetch(url, { headers: { 'X-Api-Key': server.key, Accept: 'application/json' } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url} -> ${response.status}: ${text}`);
  return parseLossless(text);
}

/** A cell as CSV writes it: numbers as sent, null as empty. */
export function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

export function csvRecords(output: string, delimiter = ','): Array<Record<string, string>> {
  return parseCsv(output, { columns: true, delimiter, relax_quotes: false }) as Array<Record<string, string>>;
}

export function csvHeader(output: string, delimiter = ','): string[] {
  return (parseCsv(output, { to_line: 1, delimiter }) as string[][])[0] ?? [];
}


/** Log entries appended by `action` (one sandbox's log shared by several runs). */
export async function logOf<T>(path: string, action: () => Promise<T>): Promise<{ result: T; entries: LogEntry[] }> {
  const before = (await readLog(path)).length;
  const result = await action();
  const entries = (await readLog(path)).slice(before);
  return { result, entries };
}

export function countPath(entries: readonly LogEntry[], path: string | RegExp): number {
  return entries.filter((entry) => (typeof path === 'string' ? entry.path === path : path.test(entry.path))).length;
}

/** The most requests in flight at once among `entries`, from arrival time and duration. */
export function maxInFlight(entries: readonly LogEntry[]): number {
  const intervals = entries.map((entry) => {
    const start = Date.parse(entry.time);
    return { start, end: start + entry.ms };
  });
  let most = 0;
  for (const { start } of intervals) {
    // Requests in flight at the moment this one arrived; 1 ms slack for the log's ms-resolution clock.
    const overlapping = intervals.filter((other) => other.start <= start && start < other.end - 1).length;
    most = Math.max(most, overlapping);
  }
  return most;
}

/** A fresh log file path in its own temporary directory. */
export function logFilePath(): string {
  return join(tempDir('newsstats-e2e-log-'), 'requests.log');
}

export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface TerminalOptions {
  env?: Record<string, string | undefined>;
  /** Config and cache home; a fresh one when absent. */
  home?: string;
  columns?: number;
  timeoutMs?: number;
}

/**
 * Runs the CLI with stdout and stderr on a pseudo-terminal (`script -qfec CMD /dev/null`). The two
 * streams arrive merged in `stdout`, with the terminal's CRLF line ends turned back into LF.
 */
export async function runCliInTerminal(args: string[], options: TerminalOptions = {}): Promise<CliResult> {
  const env = isolatedEnv(options.home ?? tempDir(), {
    TERM: 'xterm-256color',
    COLUMNS: String(options.columns ?? 100),
    ...options.env,
  });
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const result = await spawnAndCollect('script', ['-qfec', command, '/dev/null'], env, { timeoutMs: options.timeoutMs, noStdin: true });
  return { ...result, stdout: result.stdout.replace(/\r\n/g, '\n') };
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(value: string): string {
  return value.replace(ANSI, '');
}
