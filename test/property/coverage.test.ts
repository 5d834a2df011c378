/**
 * The property tests run the command lines of commands.ts against answers the sandbox never sends. A
 * verb added without a line there would go untested by them: every verb that reads records from the
 * service must have one.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/run/registry.js';
import { commandLines } from './commands.js';

/** Verbs whose records do not come from the service's answers (the profile, the login, local state). */
const NOT_FROM_THE_SERVICE = new Set(['config list', 'auth status', 'sync', 'tap']);

describe('the property tests\' command lines', () => {
  it('cover every verb that prints records read from the service', async () => {
    const names = Object.keys(commandLines({ personHash: 'p', otherPersonHash: 'q', countryId: 1, sourceId: 1, slug: 's' }));
    const missing: string[] = [];
    for (const entry of COMMANDS) {
      const noun = (await entry.load()).default;
      for (const verb of noun.verbs) {
        const name = verb.name ? `${entry.name} ${verb.name}` : entry.name;
        if (verb.prints === 'text' || verb.prints === 'nothing' || NOT_FROM_THE_SERVICE.has(name)) continue;
        if (!names.some((line) => line === name || line.startsWith(`${name} `))) missing.push(name);
      }
    }
    expect(missing).toEqual([]);
  });
});
