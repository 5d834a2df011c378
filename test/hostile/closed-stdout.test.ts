/**
 * A stdout the shell closed (issue #21, Low): `newsstats ... >&-` exited 0 with the output lost (Node
 * reopens a closed stdout on /dev/null). It is one line and exit 6 now, before any request when the
 * run's data would go there. Discarding on purpose (`>/dev/null`, a parent program's stdio 'ignore')
 * and `-o FILE` stay exit 0. The closed-pipe case (`| head`) is in outputs-config-numbers-escapes.test.ts and
 * test/e2e/commands.test.ts. Linux only: elsewhere the stdout left behind cannot be told apart.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isolatedEnv, shellQuote, tempDir } from '../e2e/harness.js';
import { COUNTRIES, HOSTILE_BIN, KEY, WEEK_INFO, hostileServer, json, type HostileServer } from './servers.js';

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer({ '/api/data/countries': json(COUNTRIES), '/api/data/weeks/current': json(WEEK_INFO) });
});
afterAll(() => server.close());

interface ShellResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

/**
 * Every run here is a process: what is tested is the real process's stdout descriptor as the shell
 * left it, and the bin file's own answers before main() loads.
 *
 * The CLI run by sh with `redirect` after it; the shell then prints its exit code on stderr. (The
 * command is not the script's last, so sh forks for it rather than exec: the CLI's parent is a shell.)
 */
function inShell(args: string[], redirect: string, stdio: 'pipe' | 'ignore' = 'pipe'): Promise<ShellResult> {
  const command = [process.execPath, HOSTILE_BIN, ...args].map(shellQuote).join(' ');
  const child = spawn('sh', ['-c', `${command} ${redirect}; echo "exit $?" >&2`], {
    env: isolatedEnv(tempDir('newsstats-hostile-'), { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY }),
    stdio: ['ignore', stdio, 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => child.on('close', (code) => {
    clearTimeout(killer);
    resolve({ stdout, stderr, code });
  }));
}

describe.skipIf(process.platform !== 'linux')('>&-: a closed stdout', () => {
  test('a data command: one line, exit 6, and no request is made', async () => {
    const before = server.requests.length;
    const result = await inShell(['countries', 'list', '-f', 'json', '--no-cache'], '>&-');
    expect(result.stderr).toBe('error: cannot write to stdout: the descriptor is closed (EBADF)\nexit 6\n');
    expect(server.requests.slice(before)).toEqual([]);
  });

  test('a command that writes no fetched data (completion): one line, exit 6', async () => {
    const result = await inShell(['completion', 'bash'], '>&-');
    expect(result.stderr).toBe('error: cannot write to stdout: the descriptor is closed (EBADF)\nexit 6\n');
  });

  // bin/newsstats.cjs answers these itself, before anything loads; a write to the /dev/null Node puts
  // in place of the closed stdout succeeds, so it hands them to main() when stdout may be that.
  test.each([['--version'], ['-V'], ['--help'], ['people', 'top', '--help'], ['help', 'weeks']])('%s: one line, exit 6 (was exit 0, the answer lost)', async (...args) => {
    const result = await inShell(args, '>&-');
    expect(result.stderr).toBe('error: cannot write to stdout: the descriptor is closed (EBADF)\nexit 6\n');
  });

  test('-o FILE with stdout closed: the file is written, exit 0', async () => {
    const file = join(tempDir('newsstats-closed-'), 'countries.json');
    const result = await inShell(['countries', 'list', '--no-cache', '-o', file], '>&-');
    expect(result.stderr).toBe('exit 0\n');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(COUNTRIES);
  });
});

describe('discarding the output on purpose stays exit 0', () => {
  test('>/dev/null', async () => {
    const result = await inShell(['countries', 'list', '-f', 'json', '--no-cache'], '>/dev/null');
    expect(result.stderr).toBe('exit 0\n');
  });

  test.each([['--version'], ['--help'], ['people', 'top', '--help']])('%s >/dev/null, and under a parent that ignores stdout: exit 0', async (...args) => {
    expect((await inShell(args, '>/dev/null')).stderr).toBe('exit 0\n');
    expect((await inShell(args, '', 'ignore')).stderr).toBe('exit 0\n');
  });

  test('--version and piped --help still print', async () => {
    expect(await inShell(['--version'], '')).toMatchObject({ stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/), stderr: 'exit 0\n' });
    expect(await inShell(['people', 'top', '--help'], '')).toMatchObject({ stdout: expect.stringMatching(/^Usage: newsstats people top /), stderr: 'exit 0\n' });
  });

  test('a parent program that ignores its child\'s stdout (stdio \'ignore\', as Python\'s DEVNULL): the shell passes it on', async () => {
    const result = await inShell(['countries', 'list', '-f', 'json', '--no-cache'], '', 'ignore');
    expect(result.stderr).toBe('exit 0\n');
  });
});
