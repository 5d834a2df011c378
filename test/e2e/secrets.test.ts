/**
 * Key hygiene: a distinctive key must never show up in stdout, stderr (even with --verbose, on
 * success and on every error path), the sandbox's request log, or anywhere but the 0600 config
 * file; and a plain-http base URL to another host is refused before any connection.
 */
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  type CliResult, expectFailure, expectSuccess, readLogWhen, runCli, runCliWithHome, sandbox, sandboxEnv, tempDir,
} from './harness.js';

const KEY = 'sk-e2e-SECRET-7f3a9c';
const WRONG = 'sk-e2e-WRONG-1b2c3d';
const MASK = '••••3a9c';
const logDir = tempDir('newsstats-e2e-secrets-');
const log = join(logDir, 'requests.log');
let server: RunningSandbox;
let failing: RunningSandbox;

beforeAll(async () => {
  [server, failing] = await Promise.all([
    sandbox({ key: KEY, logFile: log }),
    sandbox({ key: KEY, failRate: 1, logFile: join(logDir, 'failing.log') }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.close(), failing?.close()]);
});

function expectNoSecret(result: CliResult, ...secrets: string[]): void {
  for (const secret of [KEY, ...secrets]) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
    // Nor a recognisable part of it.
    expect(result.stdout + result.stderr).not.toContain(secret.slice(0, 12));
  }
}

const run = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { env: sandboxEnv(server, extra) });

describe.concurrent('the key never reaches stdout or stderr, even with -v', () => {
  test('success', async () => {
    const result = await run(['people', 'top', '--weeks', 'last4', '--limit', '3', '-v', '-f', 'json']);
    expectSuccess(result);
    expect(result.stderr).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/data\/people\/top\?\S+ 200 /m);
    expectNoSecret(result);
  });

  test('401 with a wrong distinctive key', async () => {
    const result = await run(['people', 'list', '-v'], { NEWSSTATS_API_KEY: WRONG });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/401/);
    expectNoSecret(result, WRONG);
  });

  test('404', async () => {
    const result = await run(['people', 'get', 'nobody-0000', '-v']);
    expect(result.code).toBe(4);
    expectNoSecret(result);
  });

  test('400 from the server', async () => {
    const result = await run(['api', 'people/search', '-v']);
    expect(result.code).toBe(2);
    expectNoSecret(result);
  });

  test('5xx and dropped connections, after retries', async () => {
    const result = await runCli(['weeks', '-v', '--retries', '2'], { env: sandboxEnv(failing) });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('(retry 2)');
    expectNoSecret(result);
  });

  test('connection refused', async () => {
    const result = await run(['weeks', '-v', '--retries', '0', '--base-url', 'http://127.0.0.1:1']);
    expect(result.code).toBe(5);
    expectNoSecret(result);
  });

  test('a usage error', async () => {
    const result = await run(['people', 'search', '--limit', '0', 'x', '-v']);
    expect(result.code).toBe(2);
    expectNoSecret(result);
  });

  test('the key given as a query parameter is not echoed by -v either', async () => {
    const result = await run(['api', 'people/top', '--param', 'limit=1', '--param', `token=${KEY}`, '-v']);
    expectSuccess(result);
    expect(result.stderr).toMatch(/^GET \S+people\/top\S* 200 /m);
    expectNoSecret(result);
  });
});

describe('auth and config show the key masked only', () => {
  test('login --with-key, status, config list/get: masked; the file holding it is 0600 in a 0700 dir', async () => {
    const home = tempDir();
    const env = { NEWSSTATS_BASE_URL: server.url };
    const login = await runCliWithHome(home, ['auth', 'login', '--with-key', '-v'], { env, input: KEY });
    expectSuccess(login);
    expectNoSecret(login);
    expect(login.stderr).toContain(MASK);

    const [statusJson, statusTable, list, get, path] = await Promise.all([
      runCliWithHome(home, ['auth', 'status', '-f', 'json', '-v'], { env }),
      runCliWithHome(home, ['auth', 'status', '-f', 'table'], { env }),
      runCliWithHome(home, ['config', 'list', '-f', 'json']),
      runCliWithHome(home, ['config', 'get', 'api-key']),
      runCliWithHome(home, ['config', 'path']),
    ]);
    for (const result of [statusJson, statusTable, list, get, path]) {
      expectSuccess(result);
      expectNoSecret(result);
    }
    expect(JSON.parse(statusJson.stdout)).toMatchObject({ key: MASK, keySource: 'profile', accepted: 'yes' });
    expect(statusTable.stdout).toContain(`key\t${MASK}\n`);
    expect(JSON.parse(list.stdout)).toContainEqual({ profile: 'default', key: 'api-key', value: MASK });
    expect(get.stdout).toBe(`${MASK}\n`);

    const file = path.stdout.trim();
    expect(readFileSync(file, 'utf8')).toContain(KEY);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
  });
});

describe('plain http to a non-loopback host is refused before any connection', () => {
  test.concurrent.each([['http://example.com'], ['http://192.0.2.1:8080']])('%s', async (baseUrl) => {
    // A proxy that records connections: with HTTP(S)_PROXY set, any request would go through it.
    const connections: string[] = [];
    const proxy = createServer((request, response) => {
      connections.push(`${request.method} ${request.url}`);
      response.writeHead(502).end();
    });
    proxy.on('connect', (request, socket) => {
      connections.push(`CONNECT ${request.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      // In-process: the client reads the proxy variables from the run's environment (main()'s io).
      const result = await runCli(['weeks', '--base-url', baseUrl, '--timeout', '10', '--retries', '0', '-v'], {
        env: sandboxEnv(server, { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }),
      });
      const elapsed = Date.now() - started;
      const host = new URL(baseUrl).host;
      // The library says what is wrong; the CLI's failure map names its own profile key, in one line.
      expectFailure(result, 2, `error: refusing to send the API key over plain http to ${host}: use an https:// base URL, or run \`newsstats config set allow-insecure-http true\` to accept the risk`);
      expectNoSecret(result);
      expect(connections).toEqual([]);
      // 192.0.2.1 is unroutable: a connection attempt would take the full 10 s timeout.
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  test.concurrent('http to loopback is allowed (the sandbox)', async () => {
    expectSuccess(await run(['weeks']));
  });
});

describe('the sandbox log', () => {
  test('never holds the key, even when it was sent as a query value', async () => {
    // Every test above has run; this one reads what the sandbox logged of them.
    const entries = await readLogWhen(log, 5);
    expect(entries.length).toBeGreaterThanOrEqual(5);
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(WRONG);
    expect(entries.some((entry) => entry.query.token === '[redacted]')).toBe(true);
    expect(readFileSync(join(logDir, 'failing.log'), 'utf8')).not.toContain(KEY);
  });
});
