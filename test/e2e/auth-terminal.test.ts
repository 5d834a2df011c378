/**
 * `auth login` at a terminal: the key is typed at a prompt that does not echo it, so it appears
 * nowhere on the screen; it is checked against the service and saved with mode 0600 in a 0700 folder.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, REPO, runCliWithHome, sandbox, shellQuote, tempDir } from './harness.js';

const KEY = 'sk-terminal-SECRET-5150';

/** Runs `args` on a pseudo-terminal and types `typed` (then Enter) once `prompt` shows on screen. */
function typeAtPrompt(home: string, args: string[], prompt: string, typed: string): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: REPO, env: isolatedEnv(home), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let typedYet = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      if (!typedYet && screen.includes(prompt)) {
        typedYet = true;
        child.stdin.write(`${typed}\r`);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

// The two logins share nothing but the sandbox: they run at once.
describe.concurrent('auth login at a terminal', () => {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await sandbox({ key: KEY });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('asks without echo, checks the key, and saves it 0600 without ever showing it', async () => {
    const home = tempDir();
    const { code, screen } = await typeAtPrompt(home, ['--base-url', server.url, 'auth', 'login'], 'API key for', KEY);
    expect(code).toBe(0);
    expect(screen).toContain(`API key for ${server.url}:`);
    expect(screen).toContain('with key ••••5150');
    expect(screen).not.toContain(KEY);
    expect(screen).not.toContain('SECRET');

    const directory = join(home, 'config', 'newsstats');
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(join(directory, 'config.json')).mode & 0o777).toBe(0o600);
    const status = await runCliWithHome(home, ['auth', 'status', '-f', 'json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ keySource: 'profile', key: '••••5150', accepted: 'yes', baseUrl: server.url });
  });

  it('a key the service rejects is not saved, and exits 3', async () => {
    const home = tempDir();
    const { code, screen } = await typeAtPrompt(home, ['--base-url', server.url, 'auth', 'login'], 'API key for', 'sk-wrong-key-0000');
    expect(code).toBe(3);
    expect(screen).not.toContain('sk-wrong-key-0000');
    // The user has just run auth login: the hint points at the key instead.
    expect(screen).toContain('rejected the key (401');
    expect(screen).not.toContain('hint: run `newsstats auth login`');
    expect(screen).toContain('hint: check the key');
    const status = await runCliWithHome(home, ['auth', 'status']);
    expect(status.code).toBe(3);
  });
});
