/**
 * Per-call options on every resource method (signal, timeoutMs, maxRetries), as Stainless SDKs take
 * them: one call can be cancelled, or given its own deadline or retries, without a second client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { AbortError, ServerError, TimeoutError } from '../../../src/api/errors.js';
import { startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('per-call options', () => {
  it('maxRetries for one call overrides the client\'s', async () => {
    server = await startServer((_request, response) => void response.writeHead(503, { 'content-type': 'application/json' }).end('{"status":503}'));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0, retryBaseDelayMs: 1 });
    await expect(client.people.get('p-1', { maxRetries: 2 })).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(3);
    await expect(client.weeks.current()).rejects.toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(4);
    await client.close();
  });

  it('timeoutMs for one call overrides the client\'s 30 s', async () => {
    server = await startServer(() => undefined); // never answers
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const error = await client.countries.list({ timeoutMs: 50 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toContain('50');
    await client.destroy();
  });

  it('a signal cancels one call', async () => {
    server = await startServer(() => undefined);
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const controller = new AbortController();
    const pending = client.articles.stats({ days: 7 }, { signal: controller.signal }).catch((caught: unknown) => caught);
    controller.abort(new Error('stop'));
    const error = await pending;
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toEqual(new Error('stop'));
    await client.destroy();
  });
});
