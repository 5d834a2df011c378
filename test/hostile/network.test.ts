/**
 * A hostile or broken service and a hostile proxy, met through the real CLI (issue #8, items 2, 4-9).
 * Every wait is bounded by --timeout (a fraction of a second where the test waits it out) and small
 * --retries; the runner kills a child after 15 s.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectFailure, expectSuccess } from '../e2e/harness.js';
import {
  COUNTRIES, KEY, WEEK_INFO, hang, hostileProxy, hostileServer, hugeCountries, json, makeCertificate, ranked, run, runProcess, sequence,
  silentTcpServer, tlsServer, type HostileServer,
} from './servers.js';

const env = (server: { url: string }, extra: Record<string, string> = {}) => ({ NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY, ...extra });
const FAST = ['--timeout', '1', '--retries', '1', '-q'];
/** For a peer that never answers: each of the two attempts waits out its deadline. */
const HANG = ['--timeout', '0.25', '--retries', '1', '-q'];


// Tests with servers of their own run at once (describe.concurrent): most of their time is waiting
// out a deadline or a Retry-After, which need not be waited one after another.
describe.concurrent('item 2: one deadline per attempt, proxies that fail CONNECT', () => {
  // A name that is not loopback, so the proxy is used; the proxy never resolves it.
  const remote = { url: 'https://stats.example.test' };

  for (const mode of ['close', 'reset'] as const) {
    test(`a proxy that ${mode}s on CONNECT is a bounded failed attempt: exit 5, one CONNECT per attempt, proxy named without credentials`, async () => {
      const proxy = await hostileProxy(mode);
      try {
        const proxyUrl = proxy.url.replace('http://', 'http://user:proxy-secret@');
        const result = await run(['weeks', ...FAST], { env: env(remote, { HTTPS_PROXY: proxyUrl }) });
        const line = expectFailure(result, 5, `through the proxy ${proxy.url.slice('http://'.length)}`);
        expect(line).not.toContain('proxy-secret');
        // undici alone reconnects without end (13,357 CONNECTs in 15 s): here, retries + 1.
        expect(proxy.connects()).toBeGreaterThanOrEqual(1);
        expect(proxy.connects()).toBeLessThanOrEqual(2);
      } finally {
        await proxy.close();
      }
    });
  }

  test('a proxy that refuses connections is a failed attempt naming it: exit 5', async () => {
    const gone = await hostileProxy('close');
    await gone.close();
    const result = await run(['weeks', ...FAST], { env: env(remote, { HTTPS_PROXY: gone.url }) });
    expectFailure(result, 5, new RegExp(`ECONNREFUSED.*after 2 attempts \\(through the proxy ${gone.url.slice('http://'.length)}\\)`));
  });

  test('a proxy that never answers CONNECT: --timeout holds in the connect phase and the message names it', async () => {
    const proxy = await hostileProxy('silent');
    try {
      const result = await run(['weeks', ...HANG], { env: env(remote, { HTTPS_PROXY: proxy.url }) });
      expectFailure(result, 5, /timed out after 250 ms while connecting .*after 2 attempts.*through the proxy 127\.0\.0\.1:\d+/);
      expect(proxy.connects()).toBeLessThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  });

  test('a TLS handshake that never finishes is cut by --timeout, naming the phase', async () => {
    const server = await silentTcpServer();
    try {
      const result = await run(['weeks', ...HANG], { env: env(server) });
      expectFailure(result, 5, /timed out after 250 ms while connecting \(DNS, TCP, TLS/);
    } finally {
      await server.close();
    }
  });

  test('over TLS (throwaway certificate), headers that never come time out in their own phase', async () => {
    const certificate = makeCertificate();
    const server = await tlsServer(certificate, { '/api/data/weeks/current': hang, '/api/data/countries': json(COUNTRIES) });
    try {
      // Processes: Node reads NODE_EXTRA_CA_CERTS once, as it starts.
      const tlsEnv = env(server, { NODE_EXTRA_CA_CERTS: certificate.certFile });
      // The certificate is trusted: a healthy endpoint on the same server works.
      expect(JSON.parse(expectSuccess(await runProcess(['countries', 'list', '-f', 'json', '--no-cache'], { env: tlsEnv })))).toEqual(COUNTRIES);
      // Three seconds, one attempt: a fresh process's TLS handshake on loopback fits in it many times
      // over even beside busy processes (half a second did not, once, at load 20), so the wait that
      // runs out is the headers'.
      const result = await runProcess(['weeks', '--timeout', '3', '--retries', '0', '-q'], { env: tlsEnv });
      expectFailure(result, 5, /timed out after 3000 ms waiting for the response headers/);
    } finally {
      await server.close();
    }
  });
});

describe('items 4-9: what the service sends', () => {
  let server: HostileServer;
  const routes = {
    '/api/data/weeks/current': json(WEEK_INFO),
    '/api/data/countries': hugeCountries(3 * 1024 * 1024),
    '/api/data/sources': json('['.repeat(100_000) + ']'.repeat(100_000)),
    '/api/data/people/top': json({ items: ranked(3) }),
    '/api/data/people/search': json('[]', 400, {}),
    '/api/data/posts/recent': json({ title: 'bad \u001b]0;pwned\u0007 \u001b[2J title \u202eevil\u202c', status: 400, traceId: 'trace\u009b31m' }, 400),
    '/api/data/articles/recent': json('', 302, { location: 'https://api2.example.com/api/data/articles/recent?token=abc' }),
    '/api/data/articles/stats': json({ title: 'Forbidden', status: 403 }, 403),
    '/api/data/articles/stats/all-time': json({ title: 'teapot' }, 418),
    '/api/data/people/p1/links': json([]),
    '/api/data/people/p2/links': json([]),
  };
  beforeAll(async () => {
    server = await hostileServer(routes);
  });
  afterAll(() => server.close());

  test('item 4: a body over the limit is abandoned with exit 5 naming the request and the limit', async () => {
    const result = await run(['countries', 'list', '--no-cache', '--max-response-mb', '1', ...FAST], { env: env(server) });
    expectFailure(result, 5, 'the response to GET /api/data/countries is larger than the limit of 1 MiB');
  });

  test('item 4: nesting deeper than any answer ends in exit 5 with a clear line, never a stack overflow', async () => {
    const result = await run(['sources', 'list', '--no-cache', ...FAST], { env: env(server) });
    expectFailure(result, 5, 'the response to GET /api/data/sources is nested deeper than 64 levels');
  });

  test('item 5: a ranking that is an object, not an array, is exit 5 naming the endpoint and the shape', async () => {
    const result = await run(['people', 'top', '--limit', '3', '-f', 'json', ...FAST], { env: env(server) });
    expectFailure(result, 5, 'the service answered GET /api/data/people/top with an unexpected shape: expected an array, got an object');
  });

  test('item 7: control characters and bidi overrides in a problem never reach the terminal', async () => {
    const result = await run(['posts', 'recent', ...FAST], { env: env(server) });
    const line = expectFailure(result, 2, 'bad');
    expect(result.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(line).toContain('title');
  });

  test('item 8: a redirect is never followed; exit 5 names where it pointed (no query)', async () => {
    const before = server.requests.length;
    const result = await run(['articles', 'recent', ...FAST], { env: env(server) });
    const line = expectFailure(result, 5, 'the service redirected to https://api2.example.com/api/data/articles/recent');
    expect(result.stderr).toContain('hint: set --base-url (or the profile key base-url) to the final address');
    expect(line).not.toContain('token=abc');
    expect(server.requests.slice(before).map((url) => url.split('?')[0])).toEqual(['/api/data/articles/recent']);
  });

  test('item 8: 403 is exit 3 with its own message; a status the contract does not list is exit 5, never 1', async () => {
    expectFailure(await run(['articles', 'stats', ...FAST], { env: env(server) }), 3, 'access denied (HTTP 403)');
    expectFailure(await run(['articles', 'stats', '--all-time', ...FAST], { env: env(server) }), 5, 'HTTP 418');
  });
});

describe.concurrent('item 5: values that are well-typed but impossible', () => {
  const cases: Array<{ name: string; routes: Record<string, ReturnType<typeof json>>; args: string[]; message: string }> = [
    {
      name: 'week info whose last4StartWeek is after currentWeek',
      routes: { '/api/data/weeks/current': json({ currentWeek: 202647, last4StartWeek: 202650 }), '/api/data/people/top': json(ranked(1)) },
      args: ['people', 'top', '--weeks', 'last4'],
      message: 'unexpected shape: last4StartWeek 202650 is not within a year before currentWeek 202647',
    },
    {
      name: 'week info spanning centuries',
      routes: { '/api/data/weeks/current': json({ currentWeek: 202647, last4StartWeek: 190001 }), '/api/data/people/top': json(ranked(1)) },
      args: ['people', 'top', '--weeks', 'last4'],
      message: 'unexpected shape: last4StartWeek 190001 is not within a year before currentWeek 202647',
    },
    {
      name: 'week info that is not numbers',
      routes: { '/api/data/weeks/current': json({ currentWeek: 'soon', last4StartWeek: 202644 }) },
      args: ['people', 'top', '--weeks', 'last4'],
      message: 'field "currentWeek": expected a week (YYYYWW), got a string',
    },
    {
      // Beyond 2^53 is an identifier like any other (the contract bounds none); a fraction is none.
      name: 'a countryId with a fraction in the countries list',
      routes: {
        '/api/data/weeks/current': json(WEEK_INFO),
        '/api/data/countries': json('[{"countryId":90071992547409930.5,"countryName":"Germany","countryIso":"DE"}]'),
        '/api/data/people/top': json(ranked(1)),
      },
      args: ['people', 'top', '--country', 'DE', '--no-cache'],
      message: 'GET /api/data/countries with an unexpected shape: item 1: field "countryId": expected an integer, got 90071992547409930.5',
    },
    {
      name: 'an empty personHash in a ranking',
      routes: { '/api/data/weeks/current': json(WEEK_INFO), '/api/data/people/top': json([{ rank: 1, personHash: '', fullName: 'X' }]) },
      args: ['export', 'links', '--top', '1'],
      message: 'GET /api/data/people/top with an unexpected shape: item 1: field "personHash" is empty',
    },
    {
      name: 'a personHash holding a lone surrogate',
      routes: { '/api/data/weeks/current': json(WEEK_INFO), '/api/data/people/top': json('[{"rank":1,"personHash":"p\\ud800","fullName":"X"}]') },
      args: ['export', 'links', '--top', '1'],
      message: 'field "personHash" is not valid Unicode',
    },
  ];
  test('an answer that is not JSON after the week info came back: the week info tells the host is the API, not asked again', async () => {
    const server = await hostileServer({ '/api/data/weeks/current': json(WEEK_INFO), '/api/data/people/top': json('[{"rank": 1,') });
    try {
      expectFailure(await run(['people', 'top', '--weeks', 'last4', ...FAST], { env: env(server) }), 5, 'invalid JSON in the response to GET /api/data/people/top');
      expect(server.requests.filter((url) => url.startsWith('/api/data/weeks/current'))).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  for (const { name, routes, args, message } of cases) {
    test(`${name}: exit 5, never a usage error, a TypeError or exit 0`, async () => {
      const server = await hostileServer(routes);
      try {
        expectFailure(await run([...args, ...FAST], { env: env(server) }), 5, message);
      } finally {
        await server.close();
      }
    });
  }

  test('unknown fields and null where the contract allows it stay fine', async () => {
    const server = await hostileServer({
      // people top without --weeks asks for the week info first, to pin (and name) its default window.
      '/api/data/weeks/current': json(WEEK_INFO),
      '/api/data/people/top': json([{ ...ranked(1)[0], birthDate: null, somethingNew: { deep: [1] } }]),
    });
    try {
      const rows = JSON.parse(expectSuccess(await run(['people', 'top', '-f', 'json', ...FAST], { env: env(server) })));
      expect(rows).toHaveLength(1);
      expect(rows[0].personHash).toBe('p1');
    } finally {
      await server.close();
    }
  });
});

test('item 6: --top N takes at most N people even when the service sends more', async () => {
  const routes: Record<string, ReturnType<typeof json>> = { '/api/data/weeks/current': json(WEEK_INFO), '/api/data/people/top': json(ranked(5)) };
  for (let index = 1; index <= 5; index++) routes[`/api/data/people/p${index}/links`] = json([]);
  const server = await hostileServer(routes);
  try {
    expectSuccess(await run(['export', 'links', '--top', '2', '-f', 'json', ...FAST], { env: env(server) }));
    const linkRequests = server.requests.filter((url) => url.includes('/links')).map((url) => url.split('?')[0]);
    expect(linkRequests.sort()).toEqual(['/api/data/people/p1/links', '/api/data/people/p2/links']);
  } finally {
    await server.close();
  }
});

describe.concurrent('item 9: Retry-After', () => {
  test('a long wait says so on stderr, unless -q', async () => {
    const server = await hostileServer({
      '/api/data/weeks/current': sequence(json({ title: 'slow down' }, 429, { 'retry-after': '3' }), json(WEEK_INFO)),
    });
    try {
      const result = await run(['weeks', '-f', 'json', '--retries', '1'], { env: env(server) });
      expect(JSON.parse(expectSuccess(result))).toEqual(WEEK_INFO);
      // The wait is the service's 3 s plus up to a fifth more of jitter (core/retry.ts retryAfterDelayMs).
      expect(result.stderr).toMatch(/^rate limited: waiting [34] s as the service asked$/m);
    } finally {
      await server.close();
    }
  });

  test('Retry-After on a 503 says "service unavailable", not "rate limited"', async () => {
    const service = await hostileServer({
      '/api/data/weeks/current': sequence(json({ title: 'maintenance' }, 503, { 'retry-after': '3' }), json(WEEK_INFO)),
    });
    try {
      const result = await run(['weeks', '-f', 'json', '--retries', '1'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
      expect(JSON.parse(expectSuccess(result))).toEqual(WEEK_INFO);
      expect(result.stderr).toMatch(/^service unavailable: waiting [34] s as the service asked$/m);
    } finally {
      await service.close();
    }
  });

  test('a Retry-After that makes no sense falls back to the ordinary backoff (and says nothing)', async () => {
    const server = await hostileServer({
      '/api/data/weeks/current': sequence(
        json({ title: 'busy' }, 503, { 'retry-after': '-5' }),
        json({ title: 'busy' }, 503, { 'retry-after': 'soon, maybe' }),
        json(WEEK_INFO),
      ),
    });
    try {
      const result = await run(['weeks', '-f', 'json', '--retries', '2', '-v'], { env: env(server) });
      expect(JSON.parse(expectSuccess(result))).toEqual(WEEK_INFO);
      expect(result.stderr).not.toContain('rate limited: waiting');
      // The ordinary backoff: at most 250 ms, then 500 ms (full jitter).
      const waits = [...result.stderr.matchAll(/retrying in (\d+)ms/g)].map((match) => Number(match[1]));
      expect(waits).toHaveLength(2);
      expect(waits[0]).toBeLessThanOrEqual(250);
      expect(waits[1]).toBeLessThanOrEqual(500);
    } finally {
      await server.close();
    }
  });
});
