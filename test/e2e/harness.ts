/**
 * The one end-to-end harness. A real sandbox on 127.0.0.1 (port 0) runs in the test process, and the
 * CLI talks to it over real HTTP, in one of two ways:
 * - runCli: main(argv, io) in-process, with in-memory stdout/stderr/stdin, an isolated environment
 *   (its own empty config and cache directories) and no terminal. Milliseconds per run; most tests.
 *   runCliOnTerminal is the same, told that its streams are a terminal; runServingCli runs a server
 *   (`newsstats sandbox`) until the test is done with it.
 * - spawnCli: the built bin/newsstats.cjs in a child process, for what needs one: the bin file
 *   itself, signals, pipes, the process's own descriptors (key input at a real terminal: test/e2e/tmux.ts).
 * Also here: raw requests to the sandbox (the independent source of expected values), the request
 * log, the "one clean error line" check, CSV parsing, and a tiny fake API for data the synthetic
 * model never produces.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseLossless } from 'lossless-json';
import { afterAll, beforeAll, expect } from 'vitest';
import type { MainIo, ProcessControl } from '../../src/cli/run/io.js';
import type { RequestLogEntry } from '../../src/sandbox/http/log.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const REPO = resolve(import.meta.dirname, '../..');
export const BIN = join(REPO, 'bin', 'newsstats.cjs');

/** The sandbox's clock in every end-to-end test: currentWeek 202647, last4StartWeek 202644. */
export const FIXED_NOW = new Date('2026-11-22T12:00:00Z');

/** Log files of the sandboxes this file started: readLog waits for their pending lines exactly. */
const logWriters = new Map<string, RunningSandbox>();

export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const started = await startSandbox({ now: FIXED_NOW, ...options });
  if (options.logFile !== undefined) logWriters.set(resolve(options.logFile), started);
  return started;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Working directory of the child (default: the repo), where relative --output paths land. */
  cwd?: string;
  input?: string;
  /** Called with the child as soon as it starts (to send it a signal). */
  onSpawn?: (child: import('node:child_process').ChildProcess) => void;
  timeoutMs?: number;
}

/** Splits an example into argv the way a shell would for these simple cases: spaces, and "quoted words". */
export function splitExample(example: string): string[] {
  return [...example.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

export function tempDir(prefix = 'newsstats-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Environment pointing at a sandbox, with isolated config and cache and no colour settings leaking in. */
export function sandboxEnv(server: { url: string; key: string }, extra: Record<string, string | undefined> = {}) {
  return {
    NEWSSTATS_BASE_URL: server.url,
    NEWSSTATS_API_KEY: server.key,
    ...extra,
  };
}

/**
 * A child's environment: only PATH from ours, an isolated home, UTF-8, the run's temporary folder
 * (so what a killed child leaves there, as a sync to s3:// leaves its held links' folder on SIGKILL,
 * goes with the run's folder, not into /tmp), then the test's own values.
 */
export function isolatedEnv(home: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    LANG: 'C.UTF-8',
    TMPDIR: tmpdir(),
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Spawns a program in the repo, feeds it `input`, and collects both streams and the exit status. */
export function spawnAndCollect(
  file: string,
  args: string[],
  env: Record<string, string>,
  options: Pick<CliOptions, 'input' | 'onSpawn' | 'timeoutMs' | 'cwd'> & { noStdin?: boolean } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    // `script` ends the session when its stdin closes, so terminal runs get none at all.
    const child = spawn(file, args, { cwd: options.cwd ?? REPO, env, stdio: [options.noStdin ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A bound for a child that hangs, not a judge of speed: a run that takes 1 s alone took 10 s in
    // the whole suite beside two CPU hogs on a slow machine (docs/development.md).
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    // A child that exits without reading its stdin (--version) closes the pipe first on a busy
    // machine: EPIPE here says nothing of the run, which its exit status and output tell.
    child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') reject(error);
    });
    child.stdin?.end(options.input ?? '');
  });
}

/** The built CLI in a child process: for signals, pipes, and the bin file itself. */
export function spawnCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  // process.execPath: the Node version running the tests is the one under test.
  return spawnAndCollect(process.execPath, [BIN, ...args], isolatedEnv(tempDir(), options.env), options);
}

/** ES2024's String.prototype.toWellFormed (Node 20 has it; the project's lib stops at ES2023, as src/ must run on Node 20). */
type WellFormable = string & { toWellFormed(): string };

/**
 * What a stream received, as text (multi-byte characters split across writes are decoded whole).
 * Text is kept as a real stream would carry it, UTF-8: a lone surrogate becomes U+FFFD (toWellFormed
 * does what encoding and decoding did, without the round trip); bytes are decoded.
 */
export class MemoryOutput extends Writable {
  text = '';
  readonly #decoder = new StringDecoder('utf8');
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += typeof chunk === 'string' ? this.#decoder.end() + (chunk as WellFormable).toWellFormed() : this.#decoder.write(chunk);
    done();
  }
}

/**
 * Runs the CLI in this process: main(argv, io) with in-memory streams, no terminal, and the same
 * isolated environment a child would get. Same result shape as a spawned run. A `stdout` of the
 * test's own sees each write as it comes.
 */
export async function runCli(args: string[], options: Omit<CliOptions, 'onSpawn'> & { stdout?: MemoryOutput } = {}): Promise<CliResult> {
  return runInProcess(args, { ...options, env: isolatedEnv(tempDir(), options.env) });
}

export interface InProcessTerminalOptions extends TerminalOptions {
  /** stderr goes to a file or pipe (`2>file`), not the terminal: it arrives apart, in `stderr`. */
  stderrPiped?: boolean;
  cwd?: string;
}

/**
 * The CLI in this process as on a terminal: main() is told that stdin, stdout and stderr are a terminal
 * of `columns` columns (default 100), with the environment a terminal gives (TERM, COLUMNS, an isolated
 * home). The CLI decides colour, width and layout from these alone (src/cli/run/io.ts), so a
 * pseudo-terminal would add nothing but a process; what only a real one shows (the line discipline,
 * raw key input, signals) is for the tmux tests. As on a screen, stdout and stderr arrive merged in
 * `stdout`, unless `stderrPiped`.
 */
export function runCliOnTerminal(args: string[], options: InProcessTerminalOptions = {}): Promise<CliResult> {
  const columns = options.columns ?? 100;
  const env = isolatedEnv(options.home ?? tempDir(), { TERM: 'xterm-256color', COLUMNS: String(columns), ...options.env });
  const stderrIsTTY = !options.stderrPiped;
  return runInProcess(args, { env, cwd: options.cwd, isTTY: { stdin: true, stdout: true, stderr: stderrIsTTY }, columns, mergeStderr: stderrIsTTY });
}

/**
 * A serving command (`newsstats sandbox ...`) in this process: `whileServing` gets the first line it
 * prints on stdout (the server's URL); when that resolves, the run is sent SIGTERM as a real process
 * would be. main() is handed a stand-in for the process, its only source of signals.
 */
export async function runServingCli(
  args: string[],
  whileServing: (firstLine: string) => Promise<void>,
  options: Pick<CliOptions, 'env' | 'cwd'> = {},
): Promise<CliResult> {
  const signals = Object.assign(new EventEmitter(), { exit: () => undefined });
  let served: Promise<void> | undefined;
  const stdout = new (class extends MemoryOutput {
    override _write(chunk: string | Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
      super._write(chunk, encoding, done);
      const newline = this.text.indexOf('\n');
      if (newline >= 0 && !served) {
        served = whileServing(this.text.slice(0, newline)).finally(() => signals.emit('SIGTERM'));
        // Its failure is the test's, reported when awaited below, not an unhandled rejection first.
        served.catch(() => undefined);
      }
    }
  })();
  const result = await runInProcess(args, { env: isolatedEnv(tempDir(), options.env), cwd: options.cwd, stdout, process: signals });
  await served;
  return result;
}

/**
 * A stand-in for the process, for runCliWithProcess: signals are emitted on it, and `exit` settles
 * with the code the run's clean-up exits with (which may come after main() has returned). It never
 * exits, so the run goes on as a real one does for a moment after a signal.
 */
export function standInProcess(): { proc: EventEmitter & { exit(code: number): void }; exit: Promise<number> } {
  let exited: (code: number) => void = () => undefined;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  return { proc: Object.assign(new EventEmitter(), { exit: (code: number) => exited(code) }), exit };
}

/**
 * The CLI in this process with a stand-in for its process (`process`), the run's only source of
 * signals: a test emits one at the moment it chooses. Its `exit` is the test's to record; the run
 * itself goes on, as a real one may for a moment between a signal and its exit.
 */
export function runCliWithProcess(args: string[], process: ProcessControl, options: Pick<CliOptions, 'env' | 'cwd'> & { stderr?: MemoryOutput } = {}): Promise<CliResult> {
  return runInProcess(args, { env: isolatedEnv(tempDir(), options.env), cwd: options.cwd, process, ...(options.stderr && { stderr: options.stderr }) });
}

interface InProcessOptions {
  env: Record<string, string>;
  input?: string;
  cwd?: string;
  isTTY?: MainIo['isTTY'];
  columns?: number;
  /** stderr writes into stdout's buffer, in order, as on one screen. */
  mergeStderr?: boolean;
  stdout?: MemoryOutput;
  /** The test's own: it sees what a signal's clean-up writes after main() has returned. */
  stderr?: MemoryOutput;
  process?: ProcessControl;
}

async function runInProcess(args: string[], options: InProcessOptions): Promise<CliResult> {
  const { main } = await import('../../src/cli/run/main.js');
  const stdout = options.stdout ?? new MemoryOutput();
  const stderr = options.mergeStderr ? stdout : (options.stderr ?? new MemoryOutput());
  const stdin = Readable.from(options.input === undefined ? [] : [options.input]);
  const code = await main(['node', BIN, ...args], {
    stdout,
    stderr,
    stdin,
    env: options.env,
    isTTY: options.isTTY ?? { stdin: false, stdout: false, stderr: false },
    ...(options.columns !== undefined && { columns: options.columns }),
    cwd: options.cwd ?? REPO,
    ...(options.process && { process: options.process }),
  });
  return { code, signal: null, stdout: stdout.text, stderr: options.mergeStderr ? '' : stderr.text };
}

/**
 * A sandbox that logs every request to a file, started before and closed after the file's tests.
 * Read `logged.server`, `logged.log` and `logged.env` inside tests (they are set by beforeAll).
 */
export function useLoggedSandbox(options: SandboxOptions = {}) {
  const logged = {} as { server: RunningSandbox; log: string; env: Record<string, string> };
  beforeAll(async () => {
    logged.log = join(tempDir('newsstats-log-'), 'requests.jsonl');
    logged.server = await sandbox({ ...options, logFile: logged.log });
    logged.env = sandboxEnv(logged.server);
  });
  afterAll(async () => {
    await logged.server?.close();
  });
  return logged;
}

/** Runs the CLI with the given config/cache home kept across runs (for cache and profile tests). */
export function runCliWithHome(home: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(args, {
    ...options,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), ...options.env },
  });
}

/** One line of the sandbox's request log, as the server writes it. */
export type LogEntry = RequestLogEntry;

/**
 * The sandbox's request log. Lines are appended by a write stream as answers are sent, so this waits
 * until the file has stopped growing (the CLI has already exited when tests read it).
 */
export async function readLog(path: string): Promise<LogEntry[]> {
  // A sandbox of this process says when its lines are written; one elsewhere is waited out.
  const writer = logWriters.get(resolve(path));
  if (writer) await writer.logWritten();
  let previous = -1;
  for (let attempt = 0; !writer && attempt < 50; attempt += 1) {
    const size = existsSync(path) ? readFileSync(path).length : 0;
    if (size === previous) break;
    previous = size;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogEntry);
}

export interface TcpPassThrough {
  url: string;
  /** TCP connections accepted so far: with keep-alive, many requests share few. */
  connections(): number;
  /** Resolves when the first connection arrives: the CLI has started its request. */
  firstConnection: Promise<void>;
  close(): Promise<void>;
}

/** A TCP pass-through on loopback in front of a server, so a test sees when and how often the CLI connects. */
export async function tcpPassThrough(targetUrl: string): Promise<TcpPassThrough> {
  const { hostname, port } = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let accepted = 0;
  let connected!: () => void;
  const firstConnection = new Promise<void>((resolve) => (connected = resolve));
  const server = createTcpServer((client) => {
    accepted += 1;
    connected();
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}`,
    connections: () => accepted,
    firstConnection,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The raw body text of a sandbox GET, as the service sent it (for exact comparisons). */
export async function rawGet(server: { url: string; key: string }, path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/api/data/${path.replace(/^\/+/, '')}`, {
    headers: { 'X-Api-Key': server.key, Accept: 'application/json' },
  });
  return { status: response.status, text: await response.text() };
}

export async function rawJson<T = unknown>(server: { url: string; key: string }, path: string): Promise<T> {
  const { status, text } = await rawGet(server, path);
  expect(status).toBe(200);
  return JSON.parse(text) as T;
}

/** Every `"articleHash":<digits>` in a raw body, as digit strings (never through a JS number). */
export function articleHashes(text: string): string[] {
  return [...text.matchAll(/"articleHash"\s*:\s*(-?\d+)/g)].map((match) => match[1]!);
}

/** Lines of stderr, without the trailing empty line. */
export function stderrLines(result: CliResult): string[] {
  return result.stderr.split('\n').filter((line) => line.length > 0);
}

/**
 * A failed run as the design promises it: the exact exit code, nothing on stdout, one `error:` line on
 * stderr (plus optional `hint:` lines) and no stack trace. Returns the error line.
 */
export function expectFailure(result: CliResult, exitCode: number, message?: RegExp | string): string {
  expect({ code: result.code, signal: result.signal, stdout: result.stdout }, result.stderr).toEqual({
    code: exitCode,
    signal: null,
    stdout: '',
  });
  const lines = stderrLines(result);
  const errorLines = lines.filter((line) => !line.startsWith('hint: '));
  expect(errorLines, result.stderr).toHaveLength(1);
  expect(errorLines[0]).toMatch(/^error: /);
  expect(lines[0]).toBe(errorLines[0]);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  if (message !== undefined) {
    if (typeof message === 'string') expect(errorLines[0]).toContain(message);
    else expect(errorLines[0]).toMatch(message);
  }
  return errorLines[0]!;
}

/** A successful run: exit 0 and no error line. Returns stdout. */
export function expectSuccess(result: CliResult): string {
  expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({ code: 0, signal: null });
  expect(result.stderr).not.toMatch(/^error:/m);
  return result.stdout;
}

/** Files in a directory other than the expected ones (temporary leftovers show up here). */
export function listDir(dir: string): string[] {
  return readdirSync(dir).sort();
}

export interface FakeApi {
  url: string;
  key: string;
  /** Paths (with query) requested so far. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A minimal stand-in for the service on 127.0.0.1, answering fixed bodies by path (without query);
 * anything else is a 404 problem. For values the sandbox never produces (newlines in names, cells
 * that look like formulas, a failure in the middle of a streamed export). A route whose body is
 * HANG never answers.
 */
export const HANG = Symbol('hang');

export async function fakeApi(routes: Record<string, string | typeof HANG>, key = 'fake-key-0001'): Promise<FakeApi> {
  const requests: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(request.url ?? '');
    const path = (request.url ?? '').split('?')[0]!;
    const send = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    };
    if (request.headers['x-api-key'] !== key) return send(401, '{"title":"Invalid API key","status":401}');
    const body = routes[path];
    if (body === HANG) return;
    if (body === undefined) return send(404, '{"title":"not found","status":404}');
    send(200, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The request log once it holds at least `count` lines (it is written asynchronously after each answer). */
export async function readLogWhen(file: string, count: number, timeoutMs = 3_000): Promise<LogEntry[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const entries = await readLog(file);
    if (entries.length >= count || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

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

/**
 * One week of `people trend` as the sandbox gives it, for a test to compare with: that week's
 * mentions summed over countries (exactly, as bigints), and the global metrics as sent.
 */
export async function expectedTrendRow(server: { url: string; key: string }, personHash: string, week: number): Promise<Record<string, string>> {
  const stats = (await apiGet(server, `/people/${personHash}/country-stats`, { startWeek: week, endWeek: week })) as Json;
  const countries = stats.countries as Json[];
  return {
    week: String(week),
    mentions: String(countries.reduce((sum, country) => sum + BigInt(text(country.mentions)), 0n)),
    globalDominance: text(stats.globalDominance),
    globalSentiment: text(stats.globalSentiment),
    globalReach: text(stats.globalReach),
    globalPower: text(stats.globalPower),
    persistence: text(stats.persistence),
    countries: String(countries.length),
  };
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

/**
 * The most requests the sandbox had open when one of `entries` arrived: the log's inFlight, which the
 * sandbox counts itself. (Overlaps worked out from `time` and `ms` mix the real clock with the
 * monotonic one, and once counted 3 requests in flight against a client that keeps 2.)
 */
export function maxInFlight(entries: readonly LogEntry[]): number {
  return Math.max(0, ...entries.map((entry) => entry.inFlight));
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
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

export function stripAnsi(value: string): string {
  return value.replace(ANSI, '');
}
