/**
 * The client's options and hooks: a bad option is a ConfigurationError naming it (not a RangeError,
 * and not a client whose every call then fails), a throwing onEvent hook does not fail the call, and
 * what every method returns is a real Promise.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NewsStatsClient, type ClientOptions } from '../../../src/api/client.js';
import { ConfigurationError, InvalidParameterError } from '../../../src/api/errors.js';
import { sendJson, startServer, type LocalServer } from './local-server.js';

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BASE = { baseUrl: 'https://stats.example.com', apiKey: 'k' };
const WEEKS = { currentWeek: 202647, last4StartWeek: 202644 };

function configurationErrorOf(options: Partial<ClientOptions>): ConfigurationError {
  try {
    new NewsStatsClient({ ...BASE, ...options });
  } catch (error) {
    if (error instanceof ConfigurationError) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('client options out of range', () => {
  const BAD: Array<[keyof ClientOptions, unknown]> = [
    ['timeoutMs', 0], ['timeoutMs', 2 ** 40], ['timeoutMs', -1], ['timeoutMs', Number.NaN], ['timeoutMs', '30'],
    ['totalTimeoutMs', 0], ['totalTimeoutMs', 2 ** 31],
    ['maxConnections', 0], ['maxConnections', 2.5],
    ['maxRetries', -1], ['maxRetries', 1.5],
    ['maxResponseBytes', 0],
    ['retryBaseDelayMs', 2 ** 40], ['maxRetryAfterMs', -5],
  ];
  for (const [name, value] of BAD) {
    it(`${name}: ${String(value)} is a ConfigurationError naming ${name}`, () => {
      const error = configurationErrorOf({ [name]: value });
      expect(error.setting).toBe(name);
      expect(error.message).toMatch(new RegExp(`^${name} must be`));
    });
  }

  it('timeoutMs: 2 ** 40 is refused rather than timing every attempt out after 1 ms (the timer\'s overflow)', () => {
    expect(configurationErrorOf({ timeoutMs: 2 ** 40 }).message).toContain('24.8 days');
  });

  it('the largest timer a runtime holds is accepted, and a fraction of a millisecond too', () => {
    expect(() => new NewsStatsClient({ ...BASE, timeoutMs: 2 ** 31 - 1, totalTimeoutMs: 0.5 })).not.toThrow();
  });

  it('a call\'s own timeoutMs out of range rejects with InvalidParameterError naming it, before any request', async () => {
    server = await startServer((_request, response) => sendJson(response, 200, WEEKS));
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    await expect(client.weeks.current({ timeoutMs: 2 ** 40 })).rejects.toSatisfy((error) => error instanceof InvalidParameterError && error.parameter === 'timeoutMs');
    expect(server.requests).toHaveLength(0);
    await client.close();
  });
});

describe('the onEvent hook', () => {
  it('throwing does not fail the call: the answer arrives, and the hook is told of every attempt', async () => {
    server = await startServer((_request, response, attempt) => {
      if (attempt === 1) response.writeHead(503, { 'retry-after': '0' }).end('{}');
      else sendJson(response, 200, WEEKS);
    });
    let calls = 0;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const client = new NewsStatsClient({
      baseUrl: server.baseUrl, apiKey: 'k',
      onEvent: () => {
        calls += 1;
        throw new Error('a bug in the caller\'s logger');
      },
    });
    try {
      await expect(client.weeks.current()).resolves.toEqual(WEEKS);
      expect(calls).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      // Said once, as a warning: the caller's bug is not hidden either.
      expect(warnings.filter((warning) => warning.name === 'NewsStatsHookWarning')).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
      await client.close();
    }
  });
});

describe('APIPromise', () => {
  it('is instanceof Promise, and then/catch/finally/withResponse all work', async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-9' }).end(JSON.stringify(WEEKS));
    });
    const client = new NewsStatsClient({ baseUrl: server.baseUrl, apiKey: 'k' });
    const promise = client.weeks.current();
    expect(promise).toBeInstanceOf(Promise);
    expect(await promise).toEqual(WEEKS);
    expect(await promise.then((weeks) => weeks.currentWeek)).toBe(202647);
    expect((await promise.withResponse()).response.requestId).toBe('r-9');
    expect(await Promise.all([promise])).toEqual([WEEKS]);
    let finished = false;
    await promise.finally(() => { finished = true; });
    expect(finished).toBe(true);
    await client.close();
  });
});
