/**
 * What the round-3 review (issue #21) found held, kept held: a body trickled a byte at a time is cut
 * at --timeout in its own phase; framing abuse (a short body, Content-Length with chunked, a bad chunk)
 * is a failed request, never data; a gzip bomb is never inflated; runs writing one --output file at
 * once leave one whole answer and no temporary files (the review ran ten; six show it here). The rest of that list (redirects, TLS,
 * base-URL refusals, the key, signals) has its tests in network.test.ts, local.test.ts and
 * test/e2e/secrets.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectFailure, tempDir } from '../e2e/harness.js';
import { KEY, hostileServer, run, type HostileServer } from './servers.js';

/** A peer that answers every request with these raw bytes (then does what `after` says). */
async function rawServer(answer: string | Buffer, after: 'close' | 'trickle' = 'close'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.write(answer);
      if (after === 'close') {
        socket.end();
        return;
      }
      // One byte of a never-ending string every 100 ms: the body phase never ends by itself.
      const timer = setInterval(() => socket.write('x'), 100);
      timers.add(timer);
      socket.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

const ONE_TRY = ['--retries', '0', '-q', '--no-cache'];

async function against(answer: string | Buffer, after: 'close' | 'trickle' = 'close') {
  const peer = await rawServer(answer, after);
  try {
    // A trickle is waited out: 300 ms spans three of its 100 ms gaps, so an idle timer would never fire.
    const timeout = after === 'trickle' ? '0.3' : '1';
    return await run(['countries', 'list', '-f', 'json', '--timeout', timeout, ...ONE_TRY], { env: { NEWSSTATS_BASE_URL: peer.url, NEWSSTATS_API_KEY: KEY } });
  } finally {
    await peer.close();
  }
}

describe('the wire', () => {
  test('a body trickled a byte at a time is cut at --timeout, naming the body phase', async () => {
    const result = await against('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n["', 'trickle');
    expectFailure(result, 5, /timed out after 300 ms reading the response body/);
  });

  // Each body below is a valid answer (`[]`): taken as data, the run would print it and exit 0.
  test('a body shorter than its Content-Length is a failed request, not the part that came', async () => {
    expectFailure(await against('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n[]'), 5, /cannot reach|closed|socket/i);
  });

  test('Content-Length together with chunked (a smuggling shape) is refused', async () => {
    const result = await against('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n');
    expectFailure(result, 5);
  });

  test('a chunk size that is not hexadecimal is refused', async () => {
    expectFailure(await against('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n[]\r\n0\r\n\r\n'), 5);
  });

  test('a gzip bomb is never inflated: 32 MiB of zeros in 32 KiB is "invalid JSON", not a body over the 16 MiB limit', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\n\r\n`;
    const result = await against(Buffer.concat([Buffer.from(head), bomb]));
    expectFailure(result, 5, 'invalid JSON in the response to GET /api/data/countries');
  });
});

describe('six runs writing one --output file at once', () => {
  let server: HostileServer;
  beforeAll(async () => {
    // Each run asks for its own answer (?n=), so the file shows which one won and whether it is whole.
    server = await hostileServer({
      '/api/data/countries': (request, response) => {
        const n = Number(new URL(request.url ?? '', 'http://x').searchParams.get('n'));
        const body = JSON.stringify(Array.from({ length: 2000 }, (_, index) => ({ countryId: index, countryName: `run ${n}`, countryIso: 'XX' })));
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      },
    });
  });
  afterAll(() => server.close());

  test('the file is one run\'s answer, whole, and no temporary file is left', async () => {
    const directory = tempDir('newsstats-writers-');
    const file = join(directory, 'countries.json');
    const runs = await Promise.all(Array.from({ length: 6 }, (_, n) =>
      run(['api', '/api/data/countries', '-p', `n=${n}`, '-o', file, ...ONE_TRY], { env: { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY } })));
    expect(runs.map((result) => result.code)).toEqual(Array.from({ length: 6 }, () => 0));
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{ countryName: string }>;
    expect(rows).toHaveLength(2000);
    expect(new Set(rows.map((row) => row.countryName)).size).toBe(1);
    expect(readdirSync(directory)).toEqual(['countries.json']);
  });
});
