/**
 * End-to-end harness: a real sandbox on 127.0.0.1 (port 0) in the test process, and the real CLI
 * (bin/newsstats.js, from the build) in a child process talking to it over real HTTP.
 * Each CLI run gets its own empty config and cache directories, so no test sees another's state
 * or the developer's own profile.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
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
