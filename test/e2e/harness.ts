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

export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const home = tempDir();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_CACHE_HOME: join(home, 'cache'),
    LANG: 'C.UTF-8',
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return new Promise((resolvePromise, reject) => {
    // process.execPath: the Node version running the tests is the one under test.
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
    child.stdin.end(options.input ?? '');
  });
}

/** Runs the CLI with the given config/cache home kept across runs (for cache and profile tests). */
export function runCliWithHome(home: string, args: string[], options: CliOptions = {}): Promise<CliResult> {
  return runCli(args, {
    ...options,
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache'), ...options.env },
  });
}
