/**
 * Per-call options on every resource method (signal, timeoutMs, maxRetries), as Stainless SDKs take
 * them: one call can be cancelled, or given its own deadline or retries, without a second client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { AbortError, InvalidParameterError, ServerError, TimeoutError } from '../../../src/api/errors.js';
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

describe('withResponse() and per-call headers', () => {
  it('withResponse() gives the data with its status, headers, request id and attempts', async () => {
    server = await startServer((_request, response, attempt) => attempt === 1
      ? void response.writeHead(503, { 'retry-after': '0' }).end()
      : void response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req-42' }).end('{"currentWeek":202647,"last4StartWeek":202644}'));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const { data, response } = await client.weeks.current().withResponse();
    expect(data).toEqual({ currentWeek: 202647, last4StartWeek: 202644 });
    expect(response).toMatchObject({ status: 200, requestId: 'req-42', url: '/api/data/weeks/current', attempts: 2 });
    expect(response.bytes).toBe('{"currentWeek":202647,"last4StartWeek":202644}'.length);
    expect(response.headers['content-type']).toBe('application/json');
    // Awaited as it is, the same call is the data.
    expect(await client.weeks.current()).toEqual({ currentWeek: 202647, last4StartWeek: 202644 });
    await client.close();
  });

  it('sends a call\'s own headers, and refuses ones that are the client\'s (the key above all)', async () => {
    server = await startServer((_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'the-key' });
    await client.countries.list({ headers: { 'X-Correlation-Id': 'abc-1', 'Accept-Language': 'de' } });
    expect(server.requests[0]!.headers).toMatchObject({ 'x-correlation-id': 'abc-1', 'accept-language': 'de', 'x-api-key': 'the-key' });
    for (const name of ['X-Api-Key', 'host', 'Content-Length']) {
      const error = await client.countries.list({ headers: { [name]: 'x' } }).catch((caught: unknown) => caught);
      expect(error, name).toBeInstanceOf(InvalidParameterError);
    }
    expect(await client.countries.list({ headers: { 'x-bad': 'a\r\nb' } }).catch((caught: unknown) => caught)).toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('the raw get() takes numbers and booleans in its query, and gives withResponse() too', async () => {
    server = await startServer((_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const { response } = await client.get('people/top', { limit: 3, fresh: true, gender: undefined }).withResponse();
    expect(response.url).toBe('/api/data/people/top?limit=3&fresh=true');
    await client.close();
  });
});
