/**
 * Hardening, round 3 (issue #21): numbers that explode, escapes through field names, files that
 * block, outputs that lose data. Each test ran against the build before the fix and failed there
 * (NEWSSTATS_HOSTILE_BIN, see servers.ts). Item numbers are the issue's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectSuccess, isolatedEnv, tempDir } from '../e2e/harness.js';
import { COUNTRIES, HOSTILE_BIN, KEY, WEEK_INFO, hang, hostileServer, json, ranked, run, type HostileServer, type Route } from './servers.js';

const routes: Record<string, Route> = {
  '/api/data/weeks/current': json(WEEK_INFO),
  '/api/data/countries': json(COUNTRIES),
  '/api/data/people/top': json(ranked(3)),
  '/api/data/people/p1/links': json([]),
  '/api/data/people/p2/links': hang,
};
let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer(routes);
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({ NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY, ...extra });

/**
 * A function resolving once the server sees a request for `path` after this call (so the CLI is past
 * its start-up, or waiting on that request).
 */
function requestSeen(path: string): () => Promise<void> {
  const from = server.requests.length;
  return async () => {
    while (!server.requests.slice(from).some((request) => request.split('?')[0] === path)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI with stdio as given (fds or 'pipe'); stdout and stderr collected where they are pipes. */
function runWithStdio(args: string[], stdio: Array<number | 'pipe' | 'ignore'>, extraEnv: Record<string, string> = {}): Promise<RawResult> {
  const child = spawn(process.execPath, [HOSTILE_BIN, ...args], { env: isolatedEnv(tempDir('newsstats-hostile-'), env(extraEnv)), stdio: stdio as never });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(killer);
    resolve({ code, signal, stdout, stderr });
  }));
}

describe('the runtime: a signal cannot open the inspector, stderr cannot change the exit code', () => {
  test('SIGUSR1 does not open Node\'s inspector (it would listen on 9229 and run anyone\'s code)', async () => {
    const seen = requestSeen('/api/data/people/p2/links');
    const result = await run(['people', 'links', 'p2', '--timeout', '2', '--retries', '0', '-f', 'json'], {
      env: env(),
      onSpawn: (child) => void seen().then(() => child.kill('SIGUSR1')),
    });
    expect(result.stderr).not.toMatch(/Debugger listening/);
    expect(result.signal).toBeNull();
    // The run went on to its own end: the request timed out.
    expect(result.code).toBe(5);
  });

  test.skipIf(!existsSync('/dev/full'))('item 10: stderr on /dev/full: the data is written and the exit code is 0', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = await runWithStdio(['countries', 'list', '-f', 'json', '--no-cache', '--verbose'], ['ignore', 'pipe', full]);
      expect(JSON.parse(result.stdout)).toEqual(COUNTRIES);
      expect(result.code).toBe(0);
    } finally {
      closeSync(full);
    }
  });

  test('item 10: a closed stderr pipe: the data is written and the exit code is 0', async () => {
    const child = spawn(process.execPath, [HOSTILE_BIN, 'countries', 'list', '-f', 'json', '--no-cache', '--verbose'], {
      env: isolatedEnv(tempDir('newsstats-hostile-'), env()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Nobody reads stderr: its first write meets a closed pipe (EPIPE).
    child.stderr.destroy();
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    expect(JSON.parse(stdout)).toEqual(COUNTRIES);
    expect(code).toBe(0);
  });
});

/** A writable folder under /dev/shm for this test, when the machine has one. */
function shmDir(): string | undefined {
  try {
    accessSync('/dev/shm', constants.W_OK);
  } catch {
    return undefined;
  }
  const dir = join('/dev/shm', `newsstats-hostile-${process.pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

describe('items 3 and 4: what --output is decided by what the path is', () => {
  test('item 3: -o FIFO with no reader ends on SIGTERM (143), the FIFO still a FIFO', async () => {
    const dir = tempDir('newsstats-fifo-');
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const seen = requestSeen('/api/data/countries');
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', fifo], {
      env: env(),
      // The answer arrives at once; give the CLI a moment to be waiting for a reader, then stop it.
      onSpawn: (child) => void seen().then(() => sleep(500)).then(() => child.kill('SIGTERM')),
      timeoutMs: 8_000,
    });
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 143, signal: null });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  const shm = shmDir();
  afterAll(() => {
    if (shm) rmSync(shm, { recursive: true, force: true });
  });
  test.skipIf(shm === undefined)('item 4: -o /dev/shm/x.csv is a regular file: CSV by its extension, written atomically', async () => {
    const target = join(shm!, 'x.csv');
    writeFileSync(target, 'precious\n');
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', target], { env: env() });
    expectSuccess(result);
    expect(readFileSync(target, 'utf8')).toBe('countryId,countryName,countryIso\n18,Germany,DE\n26,Japan,JP\n');
    expect(readdirSync(shm!)).toEqual(['x.csv']);
  });

  test.skipIf(shm === undefined)('item 4: an interrupted export to /dev/shm/x.csv leaves the old file as it was', async () => {
    const target = join(shm!, 'links.csv');
    writeFileSync(target, 'precious\n');
    const seen = requestSeen('/api/data/people/p2/links');
    const result = await run(['export', 'links', '--top', '2', '--concurrency', '1', '--timeout', '10', '-q', '-o', target], {
      env: env(),
      onSpawn: (child) => void seen().then(() => child.kill('SIGTERM')),
    });
    expect(result.code).toBe(143);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readdirSync(shm!).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('item 4: -o /proc/self/cwd/x.csv is the working directory\'s x.csv, written atomically as CSV', async () => {
    const dir = tempDir('newsstats-cwd-');
    writeFileSync(join(dir, 'x.csv'), 'precious\n');
    const seen = requestSeen('/api/data/people/p2/links');
    const interrupted = await run(['export', 'links', '--top', '2', '--concurrency', '1', '--timeout', '10', '-q', '-o', '/proc/self/cwd/x.csv'], {
      env: env(),
      cwd: dir,
      onSpawn: (child) => void seen().then(() => child.kill('SIGTERM')),
    });
    expect(interrupted.code).toBe(143);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toBe('precious\n');
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', '/proc/self/cwd/x.csv'], { env: env(), cwd: dir });
    expectSuccess(result);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toMatch(/^countryId,countryName,countryIso\n/);
    expect(readdirSync(dir)).toEqual(['x.csv']);
  });

  test('-o to a dangling symlink writes the file it points at; the link stays a link', async () => {
    const dir = tempDir('newsstats-link-');
    symlinkSync('target.csv', join(dir, 'link.csv'));
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', join(dir, 'link.csv')], { env: env() });
    expectSuccess(result);
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'target.csv'), 'utf8')).toMatch(/^countryId,countryName,countryIso\n18,Germany,DE\n/);
  });

  test('-o dir/ (a trailing slash: a folder, existing or not) is refused with exit 2, and nothing is written', async () => {
    const dir = tempDir('newsstats-slash-');
    const result = await run(['countries', 'list', '--no-cache', '-f', 'csv', '-o', 'out/'], { env: env(), cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write --output out\/: it names a folder/m);
    expect(readdirSync(dir)).toEqual([]);
  });
});
