/**
 * The proxy variables as a user's shell may hold them (issue #21 item 9 and its Low list): curl's
 * schemeless form works, a malformed value is one line naming the variable (exit 2), and a host that
 * NO_PROXY names is reached directly and its errors say so. Each test failed on the build before.
 */
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { expectFailure } from '../e2e/harness.js';
import { KEY, hostileProxy, run } from './servers.js';

// A name that is not loopback, so a proxy would be used; the proxy never resolves it.
const REMOTE = 'https://stats.example.test';
const FAST = ['--timeout', '1', '--retries', '0', '-q', '--no-cache'];

describe('item 9: HTTPS_PROXY and HTTP_PROXY as users write them', () => {
  test('host:port without a scheme is http://host:port, as curl reads it', async () => {
    const proxy = await hostileProxy('close');
    try {
      const schemeless = proxy.url.slice('http://'.length);
      const result = await run(['countries', 'list', ...FAST], { env: { NEWSSTATS_BASE_URL: REMOTE, NEWSSTATS_API_KEY: KEY, HTTPS_PROXY: schemeless } });
      expectFailure(result, 5, `(through the proxy ${schemeless})`);
      expect(proxy.connects()).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  for (const [variable, value, problem] of [
    ['HTTPS_PROXY', 'http://proxy.corp.example:99999', 'the port "99999" is not a number from 1 to 65535'],
    ['https_proxy', 'http://proxy.corp.example:abc', 'the port "abc" is not a number from 1 to 65535'],
    ['HTTP_PROXY', 'http://exa mple', 'it is not a URL'],
    ['HTTPS_PROXY', 'ftp://proxy.corp.example:21', 'the scheme "ftp" is not supported'],
  ] as const) {
    test(`${variable}=${value}: exit 2, one line naming the variable and the problem, no request`, async () => {
      const result = await run(['countries', 'list', ...FAST], { env: { NEWSSTATS_BASE_URL: REMOTE, NEWSSTATS_API_KEY: KEY, [variable]: value } });
      const line = expectFailure(result, 2, `error: ${variable}=${JSON.stringify(value)} is not a usable proxy: ${problem}`);
      expect(line).not.toMatch(/Invalid URL/);
    });
  }

  test('the refusal never shows the proxy\'s password', async () => {
    const result = await run(['countries', 'list', ...FAST], {
      env: { NEWSSTATS_BASE_URL: REMOTE, NEWSSTATS_API_KEY: KEY, HTTPS_PROXY: 'http://me:proxy-secret@proxy.corp.example:abc' },
    });
    const line = expectFailure(result, 2, 'HTTPS_PROXY="http://…@proxy.corp.example:abc"');
    expect(line).not.toContain('proxy-secret');
  });
});

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a host NO_PROXY names is reached directly: the proxy sees nothing and the error does not blame it', async () => {
  const proxy = await hostileProxy('close');
  try {
    // 0.0.0.0 is this machine but not loopback by name, so without NO_PROXY the proxy would be used.
    const port = await closedPort();
    const result = await run(['countries', 'list', ...FAST], {
      env: { NEWSSTATS_BASE_URL: `https://0.0.0.0:${port}`, NEWSSTATS_API_KEY: KEY, HTTPS_PROXY: proxy.url, NO_PROXY: 'localhost,0.0.0.0' },
    });
    const line = expectFailure(result, 5, `cannot reach 0.0.0.0:${port} (ECONNREFUSED)`);
    expect(line).not.toMatch(/proxy/i);
    expect(proxy.connects()).toBe(0);
  } finally {
    await proxy.close();
  }
});
