/**
 * `newsstats sandbox` flags: parsed into typed values by the CLI (a bad number is a usage error
 * naming the flag), range-checked by the sandbox itself, and carried through to the server it starts.
 */
import { describe, expect, it } from 'vitest';
import { runCli, spawnCli } from './harness.js';

describe.concurrent('newsstats sandbox flags', () => {
  it.each([
    [['--port', 'http'], "error: option '--port <port>' argument 'http' is invalid. --port takes an integer."],
    [['--now', '2026-02-30'], "error: option '--now <YYYY-MM-DD>' argument '2026-02-30' is invalid. --now takes a date written YYYY-MM-DD, e.g. 2026-03-02."],
    [['--fail-rate', 'half'], "error: option '--fail-rate <share>' argument 'half' is invalid. --fail-rate takes a number, e.g. 0.25."],
    [['--port', '0', '--fail-rate', '2'], 'error: --fail-rate must be a number from 0 to 1, not 2'],
    [['--port', '70000'], 'error: --port must be an integer from 0 to 65535, not 70000'],
  ])('sandbox %j exits 2 with one line naming the flag', async (flags, line) => {
    const result = await runCli(['sandbox', ...flags]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd()).toBe(line);
  });

  it('carries typed flags through to the server it starts', async () => {
    let url = '';
    let weekInfo: unknown;
    const result = await spawnCli(['sandbox', '--port', '0', '--now', '2021-01-05', '--seed', '7', '--key', 'flag-key', '--latency', '0', '--rate-limit', '1000'], {
      onSpawn: (child) => {
        child.stdout!.setEncoding('utf8').once('data', (line: string) => {
          url = line.trim();
          void fetch(`${url}/api/data/weeks/current`, { headers: { 'X-Api-Key': 'flag-key' } })
            .then((response) => response.json())
            .then((body) => (weekInfo = body))
            .finally(() => child.kill('SIGTERM'));
        });
      },
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The --now of 2021-01-05 lies in ISO week 202101; the last-4 window crosses 2020's week 53.
    expect(weekInfo).toEqual({ currentWeek: 202101, last4StartWeek: 202051 });
    expect(result.code).toBe(0);
  });
});
