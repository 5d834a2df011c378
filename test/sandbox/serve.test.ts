/**
 * `newsstats sandbox` plumbing: what serveSandbox prints and when it stops, and the flag parsers.
 * Signals come from a stand-in emitter, so the test process's own handlers are left alone.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SandboxOptionError } from '../../src/sandbox/server.js';
import { parseSandboxNow, sandboxOptionsFromFlags, serveSandbox } from '../../src/sandbox/serve.js';
import { client } from './helpers.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('serveSandbox', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`prints the URL alone on stdout, a banner on stderr, serves, and stops on ${signal}`, async () => {
      const stdout = capture();
      const stderr = capture();
      const signals = new EventEmitter();
      const served = serveSandbox(
        { key: 'serve-key', now: new Date('2026-03-04T00:00:00Z') },
        { stdout: stdout.stream, stderr: stderr.stream },
        signals,
      );
      await until(() => stdout.text().endsWith('\n'));
      expect(stdout.text()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      const url = stdout.text().trim();
      expect(stderr.text()).toBe(
        `newsstats sandbox: serving synthetic data at ${url} (key: serve-key). Ctrl-C stops.\n`,
      );
      const http = client(url, 'serve-key');
      expect((await http.get('/api/data/weeks/current')).status).toBe(200);
      await http.close();

      signals.emit(signal);
      await served;
      expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
      await expect(fetch(url + '/api/data/weeks/current')).rejects.toThrow();
    });
  }

  it('rejects when the sandbox cannot start, printing nothing on stdout', async () => {
    const stdout = capture();
    const stderr = capture();
    await expect(
      serveSandbox({ failRate: 2 }, { stdout: stdout.stream, stderr: stderr.stream }, new EventEmitter()),
    ).rejects.toBeInstanceOf(SandboxOptionError);
    expect(stdout.text()).toBe('');
  });
});

describe('parseSandboxNow', () => {
  it('reads YYYY-MM-DD as midnight UTC', () => {
    expect(parseSandboxNow('2026-03-04').toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(parseSandboxNow('2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('rejects other text and impossible dates', () => {
    for (const text of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-3-4', 'today', '', '2026-03-04T10:00:00']) {
      expect(() => parseSandboxNow(text), text).toThrow(SandboxOptionError);
    }
  });
});

describe('sandboxOptionsFromFlags', () => {
  it('converts flag text into options', () => {
    expect(
      sandboxOptionsFromFlags({
        host: '0.0.0.0',
        port: '8787',
        key: 'k',
        seed: '42',
        now: '2026-03-04',
        failRate: '0.25',
        latency: '100',
        rateLimit: '50',
        log: 'requests.log',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 8787,
      key: 'k',
      seed: 42,
      now: new Date('2026-03-04T00:00:00Z'),
      failRate: 0.25,
      latencyMs: 100,
      rateLimit: 50,
      logFile: 'requests.log',
    });
    expect(sandboxOptionsFromFlags({})).toEqual({});
  });

  it('names the flag whose text is not a number', () => {
    expect(() => sandboxOptionsFromFlags({ port: 'http' })).toThrow('--port "http" is not an integer');
    expect(() => sandboxOptionsFromFlags({ seed: '1.5' })).toThrow('--seed "1.5" is not an integer');
    expect(() => sandboxOptionsFromFlags({ rateLimit: '' })).toThrow('--rate-limit "" is not an integer');
    expect(() => sandboxOptionsFromFlags({ failRate: 'half' })).toThrow('--fail-rate "half" is not a number');
    expect(() => sandboxOptionsFromFlags({ latency: '' })).toThrow('--latency "" is not a number');
  });
});
