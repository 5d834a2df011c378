/**
 * The service's week info (GET /weeks/current) is asked for at most once a run (Dependencies.weekInfo),
 * however many parts of the run need it: each relative window, the default window, and the caption's
 * partial week at a terminal. A second request would be a second chance for the week to turn between
 * them, and a window and its caption disagreeing. people movers, which resolves two relative windows,
 * is checked with its windows in movers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { countPath, logOf, runCli, runCliOnTerminal, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();
const PERSON = 'chiamaka-okafor-6303';

describe('the week info is asked once a run and shared', () => {
  it.each([
    ['people top (default window, caption)', ['people', 'top', '--limit', '3']],
    ['people top --per-week', ['people', 'top', '--per-week', '--weeks', 'last4', '--limit', '3']],
    ['people trend (default window, caption)', ['people', 'trend', PERSON]],
    ['people trend of two people', ['people', 'trend', PERSON, PERSON, '--weeks', 'last4']],
    ['people countries', ['people', 'countries', PERSON, '--weeks', 'last4']],
    ['countries focus', ['countries', 'focus', 'DE', '--weeks', 'last4']],
  ])('%s, at a terminal', async (_name, args) => {
    const { result, entries } = await logOf(logged.log, () => runCliOnTerminal(args, { env: { ...logged.env, NO_COLOR: '1' }, columns: 120 }));
    expect(result.code, result.stdout).toBe(0);
    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
  });

  it('export country-stats (its default complete4 window), piped', async () => {
    const { result, entries } = await logOf(logged.log, () => runCli(['export', 'country-stats', '--top', '2', '-f', 'csv'], { env: logged.env }));
    expect(result.code, result.stderr).toBe(0);
    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
  });
});
