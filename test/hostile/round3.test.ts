/**
 * Hardening, round 3 (issue #21): numbers that explode, escapes through field names, files that
 * block, outputs that lose data. Each test ran against the build before the fix and failed there
 * (NEWSSTATS_HOSTILE_BIN, see servers.ts). Item numbers are the issue's.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isolatedEnv, tempDir } from '../e2e/harness.js';
import { COUNTRIES, HOSTILE_BIN, KEY, WEEK_INFO, hang, hostileServer, json, ranked, run, type HostileServer, type Route } from './servers.js';

const routes: Record<string, Route> = {
  '/api/data/weeks/current': json(WEEK_INFO),
  '/api/data/countries': json(COUNTRIES),
  '/api/data/people/top': json(ranked(3)),
  '/api/data/people/p2/links': hang,
};
let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer(routes);
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({ NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY, ...extra });

/** Resolves once the server has seen a request for `path` (so the CLI is past its start-up). */
async function requested(path: string): Promise<void> {
  while (!server.requests.some((request) => request.split('?')[0] === path)) await new Promise((resolve) => setTimeout(resolve, 20));
}

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
    const result = await run(['people', 'links', 'p2', '--timeout', '2', '--retries', '0', '-f', 'json'], {
      env: env(),
      onSpawn: (child) => void requested('/api/data/people/p2/links').then(() => child.kill('SIGUSR1')),
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
