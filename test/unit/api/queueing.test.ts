/**
 * Time limits that measure the server: a call waiting for one of the client's own sockets has not
 * started its attempt, so the per-attempt deadline (timeoutMs) does not run while it waits. A real
 * server on 127.0.0.1 that takes 200 ms an answer, and more calls than sockets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { TimeoutError } from '../../../src/api/errors.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WEEKS = { currentWeek: 202647, last4StartWeek: 202644 };

describe('calls queued for the client\'s sockets', () => {
  it('40 calls on 4 sockets to a 200 ms server, timeoutMs 1000: all succeed, no retry, never more than 4 at the server', async () => {
    let open = 0;
    let mostOpen = 0;
    server = await startServer((_request, response) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open -= 1;
        sendJson(response, 200, WEEKS);
      }, 200);
    });
    // The last of ten rounds waits about 1.8 s for a socket: beyond timeoutMs, had it counted.
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxConnections: 4, timeoutMs: 1000 });
    const results = await Promise.allSettled(Array.from({ length: 40 }, () => client.weeks.current()));
    const failures = results.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason));
    expect(failures).toEqual([]);
    // Each call one attempt: the load on the server is the calls made, not retries of timed-out waits.
    expect(server.requests.length).toBe(40);
    expect(mostOpen).toBeLessThanOrEqual(4);
    await client.close();
  });

  it('the whole-call deadline still bounds the wait, and its TimeoutError says it was waiting for a connection', async () => {
    server = await startServer((_request, response) => {
      setTimeout(() => sendJson(response, 200, WEEKS), 400);
    });
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxConnections: 1, maxRetries: 0 });
    const first = client.weeks.current();
    // Given the one socket only once the first answer is in, 400 ms later: its own deadline comes first.
    const second = await client.weeks.current({ totalTimeoutMs: 100 }).then(() => undefined, (error: unknown) => error);
    expect(second).toBeInstanceOf(TimeoutError);
    const queued = second as TimeoutError;
    expect(queued.scope).toBe('call');
    expect(queued.phase).toMatch(/waiting for one of the client's 1 connections \(maxConnections\)/);
    await expect(first).resolves.toEqual(WEEKS);
    expect(server.requests.length).toBe(1);
    await client.close();
  });
});
