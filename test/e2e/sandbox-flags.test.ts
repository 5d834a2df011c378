/**
 * `newsstats sandbox` flags: parsed into typed values by the CLI (a bad number is a usage error
 * naming the flag), range-checked by the sandbox itself, and carried through to the server it starts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startOfTodayUtc } from '../../src/sandbox/server.js';
import { runCli, runServingCli } from './harness.js';

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
    const result = await runServingCli(['sandbox', '--port', '0', '--now', '2021-01-05', '--seed', '7', '--key', 'flag-key', '--latency', '0', '--rate-limit', '1000'], async (line) => {
      url = line.trim();
      weekInfo = await (await fetch(`${url}/api/data/weeks/current`, { headers: { 'X-Api-Key': 'flag-key' } })).json();
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The --now of 2021-01-05 lies in ISO week 202101; the last-4 window crosses 2020's week 53.
    expect(weekInfo).toEqual({ currentWeek: 202101, last4StartWeek: 202051 });
    expect(result.code).toBe(0);
  });
});

/** #18: the sandbox's clock said "today" but moved with the wall clock, so two runs seconds apart differed. */
describe('the sandbox clock without --now', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is today\'s date at 00:00 UTC', () => {
    expect(startOfTodayUtc(new Date('2026-11-25T19:07:31.250Z')).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    expect(startOfTodayUtc(new Date('2026-11-25T23:59:59.999Z')).toISOString()).toBe('2026-11-25T00:00:00.000Z');
  });

  it('gives the same answers to two --sandbox runs of one day, hours apart, the current week included', async () => {
    const runAt = async (time: string) => {
      // Only Date is faked: the sandbox reads its clock from it; timers and I/O run as usual.
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(time) });
      const result = await runCli(['--sandbox', 'people', 'top', '--weeks', 'current', '--limit', '5', '-f', 'json'], { env: { NEWSSTATS_API_KEY: undefined } });
      vi.useRealTimers();
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const morning = await runAt('2026-11-25T08:00:00Z');
    expect(JSON.parse(morning)).toHaveLength(5);
    expect(await runAt('2026-11-25T20:30:00Z')).toBe(morning);
  });
});
