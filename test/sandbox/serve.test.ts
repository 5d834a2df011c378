/**
 * `newsstats sandbox` plumbing: what serveSandbox prints and when it stops, and the flag parsers.
 * Signals come from a stand-in emitter, so the test process's own handlers are left alone.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SandboxOptionError } from '../../src/sandbox/server.js';
import { serveSandbox } from '../../src/sandbox/serve.js';
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
