/**
 * The client's pace: maxRequestsPerSecond spaces attempts; a 429 slows every call of the client, and
 * Retry-After waits carry jitter. Against the sandbox's rate limit, a burst of calls all succeed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient, type ClientOptions } from '../../../src/api/client.js';
import { retryAfterDelayMs } from '../../../src/api/core/retry.js';
import { TEST_HOOKS, type RequestEvent } from '../../../src/api/options.js';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A client whose waits take no time: a clock that moves only when it sleeps, the sleeps recorded. */
function fakeTimeClient(server: LocalServer, options: Partial<ClientOptions> = {}) {
  const sleeps: number[] = [];
  let clock = 0;
  const client = new NewsStatsClient({
    baseUrl: server.baseUrl,
    apiKey: 'k',
    [TEST_HOOKS]: { sleep: async (ms: number) => { sleeps.push(ms); clock += ms; }, random: () => 0.5, now: () => clock },
    ...options,
  } as ClientOptions);
  cleanups.push(() => client.close());
  return { client, sleeps };
}

describe('maxRequestsPerSecond', () => {
  it('spaces the starts of concurrent calls 1000/rate ms apart', async () => {
    const server = await startServer((_request, response) => sendJson(response, 200, []));
    cleanups.push(() => server.close());
    const { client, sleeps } = fakeTimeClient(server, { maxRequestsPerSecond: 4 });
    await Promise.all(Array.from({ length: 5 }, () => client.countries.list()));
    expect(server.requests).toHaveLength(5);
    // Each start 250 ms after the one before (the fake clock moves as each waits): the fifth at 1000 ms.
    expect(sleeps).toEqual([250, 250, 250, 250]);
  });

  it('is refused unless positive, by a ConfigurationError naming it', () => {
    for (const bad of [0, -1, Number.NaN, Infinity]) {
      expect(() => new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey: 'k', maxRequestsPerSecond: bad }), String(bad))
        .toThrow(expect.objectContaining({ name: 'ConfigurationError', setting: 'maxRequestsPerSecond' }));
    }
  });
});

describe('Retry-After', () => {
  it('is waited with jitter: up to a fifth more, at most a second more', () => {
    expect(retryAfterDelayMs(1000, () => 0)).toBe(1000);
    expect(retryAfterDelayMs(1000, () => 0.999)).toBe(1199);
    expect(retryAfterDelayMs(30_000, () => 0.999)).toBe(30_999);
    expect(retryAfterDelayMs(0, () => 0.999)).toBe(0);
  });

  it('pauses every call of the client, not only the one that got it', async () => {
    let first = true;
    const server = await startServer((request, response) => {
      if (first && request.url?.endsWith('/countries')) {
        first = false;
        sendJson(response, 429, '', { 'retry-after': '2' });
      } else sendJson(response, 200, []);
    });
    cleanups.push(() => server.close());
    const { client, sleeps } = fakeTimeClient(server);
    await client.countries.list();
    // The pause is the client's: a call that never got a 429 waits out what is left of it too.
    await client.sources.list();
    expect(sleeps).toEqual([2200]);
    expect(server.requests.map((request) => request.url)).toEqual(['/api/data/countries', '/api/data/countries', '/api/data/sources']);
  });
});

describe('against the sandbox\'s rate limit of 10 a second', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });

  it('40 concurrent calls all succeed within their retries', async () => {
    sandbox = await startSandbox({ key: 'pace', rateLimit: 10, now: new Date('2026-11-20T12:00:00Z') });
    const events: RequestEvent[] = [];
    const client = new NewsStatsClient({ baseUrl: sandbox.url, apiKey: 'pace', onEvent: (event) => events.push(event) });
    cleanups.push(() => client.close());
    const results = await Promise.allSettled(Array.from({ length: 40 }, (_, index) => client.countries.get(index % 5 + 1)));
    const failures = results.filter((result) => result.status === 'rejected');
    expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
    const limited = events.filter((event) => event.status === 429).length;

    // Without a shared pace every retry of the first 30 arrives in the same second again (79 429s
    // and 14 failures when measured); with it, far fewer.
    expect(limited).toBeLessThan(60);
  });
});
