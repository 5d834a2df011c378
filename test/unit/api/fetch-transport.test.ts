/**
 * The fetch transport (what Deno, Bun, Workers and browsers use, and Node when given `fetch`), run on
 * Node's own fetch against a real server on 127.0.0.1: answers, errors with their metadata, the
 * deadline and its phase, the caller's abort, the size limit, and redirects not followed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../../src/api/client.js';
import { AbortError, RedirectError, ResponseTooLargeError, ServerError, TimeoutError } from '../../../src/api/errors.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WEEKS = { currentWeek: 202647, last4StartWeek: 202644 };

function fetchClient(baseUrl: string, options: Record<string, unknown> = {}) {
  const calls: string[] = [];
  const client = new NewsStatsClient({
    baseUrl, apiKey: 'fetch-key', maxRetries: 0,
    fetch: (input, init) => {
      calls.push(input);
      return fetch(input, init);
    },
    ...options,
  });
  return { client, calls };
}

describe('the fetch transport', () => {
  it('makes the call through the given fetch, with the key, Accept and User-Agent', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, WEEKS));
    const { client, calls } = fetchClient(server.baseUrl);
    await expect(client.weeks.current()).resolves.toEqual(WEEKS);
    expect(calls).toEqual([`${server.baseUrl}/api/data/weeks/current`]);
    expect(server.requests[0]!.headers['x-api-key']).toBe('fetch-key');
    expect(server.requests[0]!.headers.accept).toBe('application/json');
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^newsstats\//);
  });

  it('an error answer carries status, request id and body', async () => {
    server = await startServer((_request, response) => response.writeHead(500, { 'x-request-id': 'f-1' }).end('{"title":"boom"}'));
    const { client } = fetchClient(server.baseUrl);
    const error = await client.weeks.current().then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).requestId).toBe('f-1');
    expect(await (error as ServerError).asResponse().text()).toBe('{"title":"boom"}');
  });

  it('headers that never come time out, in the phase fetch can name', async () => {
    server = await startServer(() => undefined);
    const { client } = fetchClient(server.baseUrl, { timeoutMs: 100 });
    const error = await client.weeks.current().then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).phase).toBe('connecting or waiting for the response headers');
  });

  it('a body that stops half-way times out reading the body', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"currentWeek":');
    });
    const { client } = fetchClient(server.baseUrl, { timeoutMs: 150 });
    const error = await client.weeks.current().then(() => undefined, (caught: unknown) => caught);
    expect((error as TimeoutError).phase).toBe('reading the response body');
  });

  it('the caller\'s abort rejects with AbortError carrying the reason', async () => {
    server = await startServer(() => undefined);
    const { client } = fetchClient(server.baseUrl);
    const controller = new AbortController();
    const call = client.weeks.current({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await call.then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toMatchObject({ message: 'user left' });
  });

  it('a body over maxResponseBytes is abandoned', async () => {
    server = await startServer((_request, response) => response.writeHead(200).end(`[${'1,'.repeat(5000)}1]`));
    const { client } = fetchClient(server.baseUrl, { maxResponseBytes: 1000 });
    await expect(client.weeks.current()).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('a redirect is not followed: RedirectError, one request', async () => {
    server = await startServer((_request, response) => response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end());
    const { client } = fetchClient(server.baseUrl);
    await expect(client.weeks.current()).rejects.toBeInstanceOf(RedirectError);
    expect(server.requests).toHaveLength(1);
  });

  it('fetch and dispatcher together are refused, naming fetch', () => {
    expect(() => new NewsStatsClient({ baseUrl: 'https://x.example', apiKey: 'k', fetch, dispatcher: {} as never }))
      .toThrow(expect.objectContaining({ name: 'ConfigurationError', setting: 'fetch' }));
  });
});
