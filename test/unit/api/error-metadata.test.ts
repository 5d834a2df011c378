/**
 * Errors carry the request they ended: status, request id, the response's headers, the wait the
 * service asked for, and the raw body through asResponse(); never the API key, even when a server
 * echoes it. A real server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { NewsStatsClient } from '../../../src/api/client.js';
import {
  ApiError, AuthenticationError, BadRequestError, ForbiddenError, NotFoundError, RateLimitError, RedirectError, ServerError,
} from '../../../src/api/errors.js';
import { TEST_HOOKS } from '../../../src/api/options.js';
import { startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const KEY = 'secret-key-0123456789';

function clientFor(baseUrl: string, sleeps: number[] = []) {
  return new NewsStatsClient({
    baseUrl, apiKey: KEY, maxRetries: 0,
    [TEST_HOOKS]: { sleep: async (ms: number) => { sleeps.push(ms); }, random: () => 0 },
  } as ConstructorParameters<typeof NewsStatsClient>[0]);
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const CASES = [
  [400, BadRequestError], [401, AuthenticationError], [403, ForbiddenError], [404, NotFoundError],
  [429, RateLimitError], [500, ServerError], [503, ServerError], [302, RedirectError], [418, ApiError],
] as const;

describe('every HTTP error class carries the request', () => {
  for (const [status, errorClass] of CASES) {
    it(`HTTP ${status} → ${errorClass.name} with requestId, status, headers, retryAfterMs and the raw body`, async () => {
      const body = JSON.stringify({ type: 'about:blank', title: `status ${status}`, status, traceId: 't-1' });
      server = await startServer((_request, response) => {
        response.writeHead(status, {
          'content-type': 'application/problem+json', 'x-request-id': `req-${status}`, 'retry-after': '7',
          ...(status === 302 ? { location: 'https://elsewhere.example/x' } : {}),
        }).end(body);
      });
      const error = await failure(clientFor(server.baseUrl).weeks.current());
      expect(error).toBeInstanceOf(errorClass);
      expect(error.status).toBe(status);
      expect(error.requestId).toBe(`req-${status}`);
      expect(error.headers['content-type']).toBe('application/problem+json');
      expect(error.retryAfterMs).toBe(7000);
      const response = error.asResponse();
      expect(response.status).toBe(status);
      expect(response.headers.get('x-request-id')).toBe(`req-${status}`);
      expect(await response.text()).toBe(body);
      // A new Response each time: the body can be read again.
      expect(await error.asResponse().text()).toBe(body);
    });
  }

  it('retry-after-ms is read (milliseconds, preferred to Retry-After) and honoured as the wait before the retry', async () => {
    server = await startServer((_request, response, attempt) => {
      if (attempt === 1) response.writeHead(429, { 'retry-after-ms': '1500', 'retry-after': '9' }).end('{}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"currentWeek":202647,"last4StartWeek":202644}');
    });
    const sleeps: number[] = [];
    const client = new NewsStatsClient({
      baseUrl: server.baseUrl, apiKey: KEY, maxRetries: 1,
      [TEST_HOOKS]: { sleep: async (ms: number) => { sleeps.push(ms); }, random: () => 0 },
    } as ConstructorParameters<typeof NewsStatsClient>[0]);
    await client.weeks.current();
    // The wait asked for (random() is 0: no jitter on top); the pause it puts on the client may follow.
    expect(sleeps[0]).toBe(1500);
  });

  it('a key a server echoes in a header or the body is masked in the error, its headers, its body and util.inspect', async () => {
    server = await startServer((request, response) => {
      const echoed = String(request.headers['x-api-key']);
      response.writeHead(500, { 'x-echo': echoed, 'x-request-id': 'r-1' }).end(JSON.stringify({ title: `bad key ${echoed}` }));
    });
    const error = await failure(clientFor(server.baseUrl).weeks.current());
    expect(error.headers['x-echo']).not.toContain(KEY);
    expect(await error.asResponse().text()).not.toContain(KEY);
    expect(inspect(error, { depth: 10, showHidden: true })).not.toContain(KEY);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
  });
});
