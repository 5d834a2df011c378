/**
 * Cancelling calls: a signal or a whole-call deadline stops a call at any point, in an attempt or
 * in a wait before a retry, and the rejection is a NewsStatsError. One signal shared by many calls
 * costs the signal one listener.
 */
import { getEventListeners } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { AbortError, NewsStatsError, ServerError, TimeoutError } from '../../../src/api/errors.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** What a call ends with, or 'still waiting' if it has not ended within `ms` (a bound far above the expected). */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve('still waiting'), ms); });
  try {
    return await Promise.race([promise.then(() => 'resolved', (error: unknown) => error), late]);
  } finally {
    clearTimeout(timer);
  }
}

const unavailableFor30s = (_request: unknown, response: ServerResponse) =>
  sendJson(response, 503, { title: 'down for maintenance' }, { 'retry-after': '30' });

describe('a signal during the wait before a retry', () => {
  it('ends the wait: a 503 asking for 30 s, aborted after the answer, rejects at once with AbortError', async () => {
    server = await startServer(unavailableFor30s);
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const controller = new AbortController();
    const pending = client.weeks.current({ signal: controller.signal });
    // Abort once the 503 is in and the client is waiting out its Retry-After.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort(new Error('user cancelled'));
    const error = await settledWithin(pending, 5_000);
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toBeInstanceOf(NewsStatsError);
    expect((error as AbortError).cause).toEqual(new Error('user cancelled'));
    expect((error as AbortError).message).toBe('GET /api/data/weeks/current was aborted: user cancelled');
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('AbortSignal.timeout ends the wait too, with its TimeoutError DOMException as the cause', async () => {
    server = await startServer(unavailableFor30s);
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const error = await settledWithin(client.weeks.current({ signal: AbortSignal.timeout(300) }), 5_000);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toMatchObject({ name: 'TimeoutError' });
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('aborts are NewsStatsErrors', () => {
  it('during an attempt: AbortError with the reason as cause', async () => {
    server = await startServer(() => undefined); // never answers
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const controller = new AbortController();
    const pending = client.people.top({}, { signal: controller.signal }).catch((caught: unknown) => caught);
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).name).toBe('AbortError');
    expect((error as AbortError).cause).toMatchObject({ name: 'AbortError' });
    await client.destroy();
  });

  it('before the call starts: a signal already aborted sends nothing', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, []));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const error = await client.countries.list({ signal: AbortSignal.abort('never mind') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe('never mind');
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

describe('one signal shared by many calls', () => {
  it('holds one listener on the signal, not one per call, and none once they are done', async () => {
    const held: ServerResponse[] = [];
    server = await startServer((_request, response) => void held.push(response));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxConnections: 30 });
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const calls = Array.from({ length: 25 }, () => client.countries.list({ signal: controller.signal }));
      while (held.length < 25) await new Promise((resolve) => setTimeout(resolve, 5));
      // Node warns (MaxListenersExceededWarning) from the eleventh listener on one signal.
      expect(getEventListeners(controller.signal, 'abort').length).toBe(1);
      for (const response of held) sendJson(response, 200, []);
      await Promise.all(calls);
      expect(getEventListeners(controller.signal, 'abort').length).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await client.close();
    }
  });
});

describe('totalTimeoutMs, one deadline for the whole call', () => {
  it('cuts an attempt short when the call\'s deadline comes first: TimeoutError of scope "call"', async () => {
    server = await startServer(() => undefined); // never answers
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', timeoutMs: 5_000, maxRetries: 3, retryBaseDelayMs: 1 });
    const error = await settledWithin(client.countries.list({ totalTimeoutMs: 300 }), 4_000);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).scope).toBe('call');
    expect((error as TimeoutError).timeoutMs).toBe(300);
    expect((error as TimeoutError).message).toMatch(/ran out of its whole-call deadline of 300 ms/);
    // The deadline ends the call: no retry follows the attempt it cut short.
    expect(server.requests).toHaveLength(1);
    await client.destroy();
  });

  it('does not wait for a retry that could not start in time: the last answer\'s error at once', async () => {
    server = await startServer(unavailableFor30s);
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', totalTimeoutMs: 2_000 });
    const error = await settledWithin(client.weeks.current(), 1_500);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});
