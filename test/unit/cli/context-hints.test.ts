import { describe, expect, it } from 'vitest';
import { contextArgs, withContext } from '../../../src/cli/help/context-hints.js';

describe('hints keep --profile, --base-url and --sandbox (#31)', () => {
  it('finds the context flags as given, both spellings, never after --', () => {
    expect(contextArgs(['--profile', 'prod', 'weeks', '--base-url=http://x:1/p', '--sandbox', '--', '--profile', 'no'])).toEqual([
      ['--profile', 'prod'], ['--base-url', 'http://x:1/p'], ['--sandbox'],
    ]);
  });

  it('adds them to each suggested command that lacks them, quoted for a shell', () => {
    expect(withContext('hint: run `newsstats auth login`, or set NEWSSTATS_API_KEY', ['--profile', 'my lan', 'weeks']))
      .toBe("hint: run `newsstats --profile 'my lan' auth login`, or set NEWSSTATS_API_KEY");
    expect(withContext("error: did you mean newsstats people search 'Hira Abbasi'?", ['--sandbox', 'people', 'get', 'Hira Abbasi']))
      .toBe("error: did you mean newsstats --sandbox people search 'Hira Abbasi'?");
    expect(withContext('did you mean newsstats --sandbox people top?', ['--sandbox', 'top'])).toBe('did you mean newsstats --sandbox people top?');
  });

  it('gives config only --profile: it acts on a profile, never on a service', () => {
    expect(withContext('run `newsstats config set allow-insecure-http true`', ['--base-url', 'http://10.0.0.5', '--sandbox', 'weeks']))
      .toBe('run `newsstats config set allow-insecure-http true`');
  });

  it('leaves a line without a suggested command, or a run without context, as it was', () => {
    expect(withContext('error: newsstats is being rebuilt', ['--profile', 'prod'])).toBe('error: newsstats is being rebuilt');
    expect(withContext('run `newsstats auth login`', ['weeks'])).toBe('run `newsstats auth login`');
  });
});
