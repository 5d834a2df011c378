/**
 * End-to-end harness: a real sandbox on 127.0.0.1 (port 0) in the test process, and the real CLI
 * (bin/newsstats.js, from the build) in a child process talking to it over real HTTP.
 * Each CLI run gets its own empty config and cache directories, so no test sees another's state
 * or the developer's own profile.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RequestLogEntry } from '../../src/sandbox/http/log.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';

export const REPO = resolve(import.meta.dirname, '../..');
export const BIN = join(REPO, 'bin', 'newsstats.js');

/** The sandbox's clock in every end-to-end test: currentWeek 202647, last4StartWeek 202644. */
export const FIXED_NOW = new Date('2026-11-22T12:00:00Z');

export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ now: FIXED_NOW, ...options });
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

/** A child's environment: only PATH from ours, an isolated home, UTF-8, then the test's own values. */
export function isolatedEnv(home: string, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    LANG: 'C.UTF-8',
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
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    child.stdin?.end(options.input ?? '');
  });
}

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  // process.execPath: the Node version running the tests is the one under test.
  return spawnAndCollect(process.execPath, [BIN, ...args], isolatedEnv(tempDir(), options.env), options);
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
  let previous = -1;
  for (let attempt = 0; attempt < 50; attempt += 1) {
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
