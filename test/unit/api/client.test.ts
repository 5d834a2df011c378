import { LosslessNumber } from 'lossless-json';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { NewsStatsClient, path, resolveApiPath, type ClientOptions } from '../../../src/api/client.js';
import { endpointPath } from '../../../src/api/resources/base.js';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConnectionError,
  InvalidParameterError,
  NewsStatsError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
  TimeoutError,
  ForbiddenError,
  ResponseShapeError,
} from '../../../src/api/errors.js';
import type { RequestEvent } from '../../../src/api/options.js';
import { TEST_HOOKS } from '../../../src/api/options.js';
import { VERSION } from '../../../src/shared/version.js';
import { sendJson, startServer, unusedPort, type Handler, type LocalServer } from './local-server.js';

const API_KEY = 'KEY-zq81-distinctive-do-not-leak';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Harness<M extends 'native' | 'lossless'> {
  server: LocalServer;
  client: NewsStatsClient<M>;
  sleeps: number[];
  events: RequestEvent[];
}

/** A server with `handler` and a client on it whose retries wait no real time (the waits are recorded). */
async function harness<M extends 'native' | 'lossless' = 'native'>(
  handler: Handler, options: Partial<ClientOptions> & { numbers?: M } = {},
): Promise<Harness<M>> {
  const server = await startServer(handler);
  const sleeps: number[] = [];
  const events: RequestEvent[] = [];
  // A clock that moves only when the client sleeps: the client's pace sees its waits as taken.
  let clock = 0;
  const client = new NewsStatsClient<M>({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    [TEST_HOOKS]: { sleep: async (ms: number) => { sleeps.push(ms); clock += ms; }, random: () => 0.5, now: () => clock },
    onEvent: (event) => events.push(event),
    ...options,
  } as ClientOptions & { numbers?: M });
  cleanups.push(() => server.close(), () => client.close());
  return { server, client, sleeps, events };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected the promise to reject');
}

/** For tests about the path sent: the placeholder body is not the endpoint's shape, and need not be. */
async function pathOnly(request: Promise<unknown>): Promise<void> {
  await request.catch((error: unknown) => {
    if (!(error instanceof ResponseShapeError)) throw error;
  });
}

const ok = (body: string | object): Handler => (_request, response) => sendJson(response, 200, body);

describe('requests', () => {
  it('sends the key, Accept and User-Agent headers on every request', async () => {
    const { server, client } = await harness(ok({ currentWeek: 202520, last4StartWeek: 202517 }));
    await expect(client.weeks.current()).resolves.toEqual({ currentWeek: 202520, last4StartWeek: 202517 });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.url).toBe('/api/data/weeks/current');
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['user-agent']).toBe(`newsstats/${VERSION}`);
  });

  it('encodes the query: absent values left out, booleans and numbers as text', async () => {
    const { server, client } = await harness(ok([]));
    await client.people.search({ q: 'José & co', exactName: true, limit: 5, countryId: undefined });
    await client.people.top({ startWeek: 202517, endWeek: 202520, sortBy: 'dominance', fresh: false });
    await client.articles.recent({ includeSourceContext: false });
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/data/people/search?q=Jos%C3%A9%20%26%20co&exactName=true&limit=5',
      '/api/data/people/top?startWeek=202517&endWeek=202520&fresh=false&sortBy=dominance',
      '/api/data/articles/recent?includeSourceContext=false',
    ]);
    const received = new URL(server.requests[0]?.url ?? '', 'http://x').searchParams;
    expect(received.get('q')).toBe('José & co');
  });

  it('encodes each path parameter as one segment', async () => {
    const { server, client } = await harness(ok({}));
    await pathOnly(client.people.get('a/b c'));
    await pathOnly(client.countries.getBySlug('..'));
    await pathOnly(client.posts.get('hello?x=1#y'));
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/data/people/a%2Fb%20c',
      '/api/data/countries/slug/%2E%2E',
      '/api/data/posts/hello%3Fx%3D1%23y',
    ]);
  });

  it('puts every endpoint at its contract path', async () => {
    const { server, client } = await harness(ok({}));
    await pathOnly(client.people.list());
    await pathOnly(client.people.links('p1', { limit: 250, includeContext: true }));
    await pathOnly(client.people.countryStats('p1', { startWeek: 202501 }));
    await pathOnly(client.countries.list());
    await pathOnly(client.countries.get(7));
    await pathOnly(client.countries.attention(7));
    await pathOnly(client.countries.focus(7, { startWeek: 202501, endWeek: 202504 }));
    await pathOnly(client.sources.list({ countryId: 3 }));
    await pathOnly(client.sources.get(5));
    await pathOnly(client.sources.links(5, { applyFilter: false }));
    await pathOnly(client.posts.recent({ count: 50 }));
    await pathOnly(client.articles.stats({ days: 365 }));
    await pathOnly(client.articles.statsAllTime());
    expect(server.requests.map((request) => request.url)).toEqual([
      '/api/data/people',
      '/api/data/people/p1/links?limit=250&includeContext=true',
      '/api/data/people/p1/country-stats?startWeek=202501',
      '/api/data/countries',
      '/api/data/countries/7',
      '/api/data/countries/7/international-attention',
      '/api/data/countries/7/domestic-focus?startWeek=202501&endWeek=202504',
      '/api/data/sources?countryId=3',
      '/api/data/sources/5',
      '/api/data/sources/5/links?applyFilter=false',
      '/api/data/posts/recent?count=50',
      '/api/data/articles/stats?days=365',
      '/api/data/articles/stats/all-time',
    ]);
  });

  it('keeps a path prefix of the base URL and accepts the API root as base', async () => {
    const server = await startServer(ok({}));
    cleanups.push(() => server.close());
    for (const baseUrl of [`${server.baseUrl}/svc/`, `${server.baseUrl}/svc/api/data`]) {
      const client = new NewsStatsClient({ baseUrl, apiKey: API_KEY });
      await pathOnly(client.countries.list());
      await pathOnly(client.close());
    }
    expect(server.requests.map((request) => request.url)).toEqual(['/svc/api/data/countries', '/svc/api/data/countries']);
  });
});

describe('raw get', () => {
  it('reads every spelling of a path as one under /api/data, keeping a query written in it', async () => {
    const { server, client } = await harness(ok({ a: 1 }));
    for (const spelling of ['/api/data/weeks/current', 'api/data/weeks/current', '/weeks/current', 'weeks/current']) {
      await expect(client.get(spelling)).resolves.toEqual({ a: 1 });
    }
    await client.get('/people/top?limit=3&sortBy=mentions', { countryId: '4', gender: ['1', '2'] });
    expect(server.requests.map((request) => request.url)).toEqual([
      ...Array(4).fill('/api/data/weeks/current'),
      '/api/data/people/top?limit=3&sortBy=mentions&countryId=4&gender=1&gender=2',
    ]);
  });

  it('refuses full URLs and dot segments without sending anything', async () => {
    const { server, client } = await harness(ok({}));
    await expect(client.get('https://evil.example/api/data/people')).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.get('//evil.example/x')).rejects.toBeInstanceOf(InvalidParameterError);
    await expect(client.get('/api/data/../admin')).rejects.toBeInstanceOf(InvalidParameterError);
    expect(server.requests).toHaveLength(0);
    expect(resolveApiPath('people/a b').path).toBe('/api/data/people/a%20b');
    expect(resolveApiPath('people/a%20b').path).toBe('/api/data/people/a%20b');
  });
});

describe('path tag', () => {
  it('encodes interpolations and nothing else', () => {
    expect(path`/api/data/people/${'a/b c'}/links`).toBe('/api/data/people/a%2Fb%20c/links');
    expect(path`/api/data/countries/${42}`).toBe('/api/data/countries/42');
    expect(path`/x/${'.'}/${'..'}`).toBe('/x/%2E/%2E%2E');
    expect(() => path`/x/${''}`).toThrow(InvalidParameterError);
  });
});

describe('endpointPath', () => {
  it('encodes each parameter as one segment and nothing else', () => {
    expect(endpointPath('/api/data/people/{personHash}/links', { personHash: 'a/b c' })).toBe('/api/data/people/a%2Fb%20c/links');
    expect(endpointPath('/api/data/countries/{countryId}', { countryId: 42 })).toBe('/api/data/countries/42');
    expect(endpointPath('/api/data/posts/{slug}', { slug: '.' })).toBe('/api/data/posts/%2E');
    expect(endpointPath('/api/data/posts/{slug}', { slug: '..' })).toBe('/api/data/posts/%2E%2E');
    expect(() => endpointPath('/api/data/posts/{slug}', { slug: '' })).toThrow(InvalidParameterError);
    expect(() => endpointPath('/api/data/posts/{slug}', {})).toThrow(InvalidParameterError);
  });
});

describe('errors', () => {
  it('maps a 400 problem to BadRequestError with its title and traceId, without retrying', async () => {
    const problem = { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'One of q, personHash or fullName is required.', status: 400, traceId: '00-abc123-01' };
    const { server, client } = await harness((_request, response) => sendJson(response, 400, problem, { 'content-type': 'application/problem+json' }));
    const error = await rejection(client.get('/people/search'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).problem).toEqual(problem);
    expect((error as BadRequestError).status).toBe(400);
    expect(error.message).toContain(problem.title);
    expect(error.message).toContain('00-abc123-01');
    expect(server.requests).toHaveLength(1);
  });

  it('maps 401 to AuthenticationError at once', async () => {
    const { server, client } = await harness((_request, response) => sendJson(response, 401, ''));
    const error = await rejection(client.weeks.current());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(NewsStatsError);
    expect(server.requests).toHaveLength(1);
  });

  it('maps 404 to NotFoundError naming what was looked for', async () => {
    const { client } = await harness((_request, response) => sendJson(response, 404, ''));
    expect((await rejection(client.people.get('abc-123'))).message).toBe('person "abc-123" not found');
    expect((await rejection(client.countries.get(99))).message).toBe('country 99 not found');
    expect((await rejection(client.countries.getBySlug('atlantis'))).message).toBe('country slug "atlantis" not found');
    expect((await rejection(client.sources.links(5))).message).toBe('source 5 not found');
    expect((await rejection(client.posts.get('old-post'))).message).toBe('post "old-post" not found');
    const raw = await rejection(client.get('/nothing/here'));
    expect(raw).toBeInstanceOf(NotFoundError);
    expect(raw.message).toBe('not found: GET /api/data/nothing/here');
  });

  it('retries a 500 maxRetries times (4 attempts for 3), then throws ServerError', async () => {
    const { server, client, sleeps, events } = await harness((_request, response) => sendJson(response, 500, 'oops'), { maxRetries: 3, retryBaseDelayMs: 100 });
    const error = await rejection(client.countries.list());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).attempts).toBe(4);
    expect(error.message).toContain('after 4 attempts');
    expect(server.requests).toHaveLength(4);
    // Full jitter with random() = 0.5: half of 100, 200, 400.
    expect(sleeps).toEqual([50, 100, 200]);
    expect(events.map((event) => [event.attempt, event.status, event.retryInMs])).toEqual([
      [1, 500, 50], [2, 500, 100], [3, 500, 200], [4, 500, undefined],
    ]);
  });

  it('does not retry when maxRetries is 0', async () => {
    const { server, client } = await harness((_request, response) => sendJson(response, 503, ''), { maxRetries: 0 });
    expect(await rejection(client.countries.list())).toBeInstanceOf(ServerError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries 408 and 429, honouring Retry-After (seconds, capped)', async () => {
    const statuses: Array<[number, Record<string, string>]> = [
      [429, { 'retry-after': '0' }], [429, { 'retry-after': '1' }], [408, {}], [429, { 'retry-after': '120' }],
    ];
    const { server, client, sleeps } = await harness((_request, response, attempt) => {
      const planned = statuses[attempt - 1];
      if (planned) sendJson(response, planned[0], '', planned[1]);
      else sendJson(response, 200, { totalArticles: 1, totalSources: 2, totalCountries: 3 });
    }, { maxRetries: 4, retryBaseDelayMs: 100, maxRetryAfterMs: 5_000 });
    await expect(client.articles.statsAllTime()).resolves.toEqual({ totalArticles: 1, totalSources: 2, totalCountries: 3 });
    expect(server.requests).toHaveLength(5);
    // Retry-After plus jitter (random() = 0.5: a tenth more, at most half a second), and the backoff for the 408.
    expect(sleeps).toEqual([1100, 200, 5500]);
  });

  it('gives up on a lasting 429 with RateLimitError', async () => {
    const { server, client } = await harness((_request, response) => sendJson(response, 429, '', { 'retry-after': '0' }), { maxRetries: 2 });
    expect(await rejection(client.countries.list())).toBeInstanceOf(RateLimitError);
    expect(server.requests).toHaveLength(3);
  });

  it('waits for real when no sleep is injected (Retry-After: 0 then success)', async () => {
    const server = await startServer((_request, response, attempt) =>
      attempt === 1 ? sendJson(response, 429, '', { 'retry-after': '0' }) : sendJson(response, 200, []));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: API_KEY, retryBaseDelayMs: 1 });
    cleanups.push(() => server.close(), () => client.close());
    await expect(client.countries.list()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('maps 403 to ForbiddenError and other statuses to a plain ApiError', async () => {
    const { client } = await harness((request, response) => sendJson(response, request.url?.endsWith('/1') ? 403 : 418, { title: 'Nope' }));
    const forbidden = await rejection(client.countries.get(1));
    expect(forbidden.constructor).toBe(ForbiddenError);
    expect(forbidden.message).toBe('access denied (HTTP 403) to GET /api/data/countries/1: the API key is not allowed this resource: Nope');
    const error = await rejection(client.countries.list());
    expect(error.constructor).toBe(ApiError);
    expect((error as ApiError).status).toBe(418);
    expect(error.message).toBe('GET /api/data/countries failed with HTTP 418: Nope');
  });

  it('retries a dropped connection and succeeds', async () => {
    const { server, client } = await harness((request, response, attempt) => {
      if (attempt === 1) request.socket.destroy();
      else sendJson(response, 200, []);
    });
    await expect(client.sources.list()).resolves.toEqual([]);
    expect(server.requests).toHaveLength(2);
  });

  it('throws ConnectionError naming host:port after retrying a refused connection', async () => {
    const port = await unusedPort();
    const events: RequestEvent[] = [];
    const client = new NewsStatsClient({
      baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY, maxRetries: 2, retryBaseDelayMs: 1, onEvent: (event) => events.push(event),
    });
    cleanups.push(() => client.close());
    const error = await rejection(client.weeks.current());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as ConnectionError).code).toBe('ECONNREFUSED');
    expect((error as ConnectionError).attempts).toBe(3);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(events).toHaveLength(3);
  });

  it('throws TimeoutError when the server never answers', async () => {
    const { server, client } = await harness(() => { /* never answers */ }, { timeoutMs: 200, maxRetries: 1 });
    const started = performance.now();
    const error = await rejection(client.weeks.current());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as TimeoutError).timeoutMs).toBe(200);
    expect(error.message).toContain('timed out after 200 ms');
    expect(server.requests).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('times out a body that stalls after the headers', async () => {
    const { client } = await harness((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[1,');
    }, { timeoutMs: 200, maxRetries: 0 });
    expect(await rejection(client.countries.list())).toBeInstanceOf(TimeoutError);
  });

  it('reports a 200 that is not JSON as ResponseFormatError naming the path', async () => {
    const { client } = await harness((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>proxy login</html>');
    });
    const error = await rejection(client.people.get('x'));
    expect(error).toBeInstanceOf(ResponseFormatError);
    expect(error.message).toContain('/api/data/people/x');
    expect(error.message).not.toContain('\n');
  });

  it('never puts the key in a message, even when the server echoes it', async () => {
    const echo = { title: `bad key ${API_KEY}\nsecond line`, traceId: API_KEY };
    const { client } = await harness((request, response) => {
      const status = Number(request.url?.split('/').pop());
      if (status === 200) response.end(`not json ${API_KEY}`);
      else if (status === 1) { /* never answers */ }
      else sendJson(response, status, echo);
    }, { maxRetries: 1, timeoutMs: 200 });
    const errors = await Promise.all([400, 401, 403, 404, 500, 200, 1].map((status) => rejection(client.get(`/echo/${status}`))));
    const port = await unusedPort();
    const refused = new NewsStatsClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY, maxRetries: 0 });
    errors.push(await rejection(refused.countries.list()));
    await refused.close();
    expect(errors.map((error) => error.name)).toEqual([
      'BadRequestError', 'AuthenticationError', 'ForbiddenError', 'NotFoundError', 'ServerError', 'ResponseFormatError', 'TimeoutError', 'ConnectionError',
    ]);
    for (const error of errors) {
      expect(error.message).not.toContain(API_KEY);
      expect(error.message).not.toContain('\n');
      expect(JSON.stringify(error)).not.toContain(API_KEY);
    }
    expect(errors[0]?.message).toContain('bad key •••• second line');
  });
});

describe('parameter bounds', () => {
  it('throws InvalidParameterError naming the parameter and range before any request', async () => {
    const { server, client } = await harness(ok([]));
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => client.people.search({ q: 'x', limit: 101 }), 'limit must be an integer from 1 to 100 (got 101)'],
      [() => client.people.search({ q: 'x', limit: 2.5 }), 'limit must be an integer from 1 to 100 (got 2.5)'],
      [() => client.people.links('p', { limit: 0 }), 'limit must be an integer from 1 to 250 (got 0)'],
      [() => client.posts.recent({ count: 51 }), 'count must be an integer from 1 to 50 (got 51)'],
      [() => client.articles.recent({ limit: 501 }), 'limit must be an integer from 1 to 500 (got 501)'],
      [() => client.articles.stats({ days: 366 }), 'days must be an integer from 1 to 365 (got 366)'],
      // A JavaScript caller (no types) can still pass {}: the check stands behind the type.
      // @ts-expect-error at least one of q, personHash, fullName is required
      [() => client.people.search({}), 'people search needs at least one of q, personHash, fullName'],
      [() => client.people.search({ q: '', limit: 5 }), 'people search needs at least one of q, personHash, fullName'],
      [() => client.people.top({ startWeek: 2025.5 }), 'startWeek must be an integer (got 2025.5)'],
      [() => client.countries.get(Number.NaN), 'countryId must be an integer: a number up to 2^53, a bigint or a string of digits (got NaN)'],
      [() => client.people.get(''), 'personHash must be a non-empty string'],
    ];
    for (const [call, message] of calls) {
      const error = await rejection(call());
      expect(error, message).toBeInstanceOf(InvalidParameterError);
      expect(error.message).toBe(message);
    }
    const bound = await rejection(client.articles.stats({ days: 0 }));
    expect(bound).toMatchObject({ parameter: 'days', min: 1, max: 365 });
    expect(server.requests).toHaveLength(0);
  });

  it('accepts the bounds themselves', async () => {
    const { server, client } = await harness(ok([]));
    await client.people.search({ fullName: 'Ada', limit: 1 });
    await client.people.search({ personHash: 'ada', limit: 100 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('number modes', () => {
  const body = '{"articleHash":1152921504606846977,"sentiment":1.50,"count":3,"small":{"articleHash":42},"nested":[1e2,-0.25]}';

  it('lossless keeps every number as the text the server sent', async () => {
    const { client } = await harness(ok(body), { numbers: 'lossless' });
    const value = await client.get('/x') as Record<string, unknown>;
    expect(value.articleHash).toBeInstanceOf(LosslessNumber);
    expect(String(value.articleHash)).toBe('1152921504606846977');
    expect(String(value.sentiment)).toBe('1.50');
    expect(String((value.nested as unknown[])[0])).toBe('1e2');
    // The static type follows the mode.
    expectTypeOf<Awaited<ReturnType<typeof client.people.links>>[number]['articleHash']>().toEqualTypeOf<LosslessNumber>();
    expectTypeOf<Awaited<ReturnType<typeof client.people.links>>[number]['countryId']>().toEqualTypeOf<LosslessNumber | null | undefined>();
    expectTypeOf<Awaited<ReturnType<typeof client.weeks.current>>['currentWeek']>().toEqualTypeOf<LosslessNumber>();
    expectTypeOf<Awaited<ReturnType<typeof client.people.get>>['birthDate']>().toEqualTypeOf<string | null | undefined>();
  });

  it('native gives identifiers as strings of their digits at any size, every other number a number, never a bigint', async () => {
    const { client } = await harness(ok(body));
    expect(await client.get('/x')).toEqual({
      articleHash: '1152921504606846977', sentiment: 1.5, count: 3, small: { articleHash: '42' }, nested: [100, -0.25],
    });
    const big = await (await harness(ok('[9007199254740993, 9007199254740991, 12345678901234567890.5]'))).client.get('/y');
    // eslint-disable-next-line no-loss-of-precision -- the nearest doubles, as documented for a number beyond 2^53
    expect(big).toEqual([9007199254740992, 9007199254740991, 12345678901234567890.5]);
    expectTypeOf<Awaited<ReturnType<typeof client.people.links>>[number]['articleHash']>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<typeof client.people.links>>[number]['countryId']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Awaited<ReturnType<typeof client.weeks.current>>['currentWeek']>().toEqualTypeOf<number>();
  });
});

describe('close', () => {
  it('releases connections and reconnects if used again', async () => {
    const { server, client } = await harness(ok([]));
    await client.countries.list();
    await client.close();
    await client.countries.list();
    expect(server.requests).toHaveLength(2);
  });
});

describe('proxy', () => {
  async function recordingProxy() {
    const proxy = await startServer(() => { /* plain requests are not expected */ });
    const tunnelRequests: string[] = [];
    proxy.server.on('connect', (request, socket) => {
      tunnelRequests.push(request.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
    });
    cleanups.push(() => proxy.close());
    return { proxy, tunnelRequests };
  }

  it('goes through HTTPS_PROXY when it is set (read in any case)', async () => {
    const { proxy, tunnelRequests } = await recordingProxy();
    const saved = { ...process.env };
    process.env.https_proxy = proxy.baseUrl;
    try {
      // The proxy answers the CONNECT itself, so the made-up host is never looked up.
      const client = new NewsStatsClient({ baseUrl: 'https://stats.example.invalid', apiKey: API_KEY, maxRetries: 0 });
      cleanups.push(() => client.close());
      const error = await rejection(client.countries.list());
      expect(error).toBeInstanceOf(ConnectionError);
      expect((error as ConnectionError).viaProxy).toBe(true);
      expect(error.message).toContain('403');
      expect(error.message).toContain('through the proxy');
      expect(error.message).not.toContain(API_KEY);
    } finally {
      process.env = saved;
    }
    expect(tunnelRequests).toEqual(['stats.example.invalid:443']);
  });

  it('never sends loopback traffic through a proxy, where the key would travel in clear text', async () => {
    const { proxy, tunnelRequests } = await recordingProxy();
    const server = await startServer((_request, response) => response.end('[]'));
    cleanups.push(() => server.close());
    const saved = { ...process.env };
    process.env.HTTP_PROXY = proxy.baseUrl;
    process.env.HTTPS_PROXY = proxy.baseUrl;
    try {
      const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: API_KEY, maxRetries: 0 });
      cleanups.push(() => client.close());
      expect(await client.countries.list()).toEqual([]);
    } finally {
      process.env = saved;
    }
    expect(server.requests).toHaveLength(1);
    expect(proxy.requests).toHaveLength(0);
    expect(tunnelRequests).toEqual([]);
  });
});

describe('connections', () => {
  it('a call started as soon as the previous one answered reuses its connection (one TLS handshake with a real service, not one a call)', async () => {
    const { server, client } = await harness((request, response) => sendJson(response, 200, request.url?.includes('weeks') ? { currentWeek: 202647, last4StartWeek: 202644 } : []));
    let connections = 0;
    server.server.on('connection', () => (connections += 1));
    const week = await client.weeks.current();
    await client.people.top({ startWeek: week.last4StartWeek, endWeek: week.currentWeek });
    await client.countries.list();
    expect(server.requests).toHaveLength(3);
    expect(connections).toBe(1);
  });
});
