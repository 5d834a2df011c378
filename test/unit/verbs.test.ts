/**
 * Verb declarations: a flag table's keys are the attribute names commander gives the flags, so the
 * types inferred from the table are the values run() really receives.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/run/registry.js';
import { switchFlag } from '../../src/cli/flags/options.js';
import { verb } from '../../src/cli/run/spec.js';

describe('verb()', () => {
  it('refuses a flag table key that is not the flag\'s attribute name', () => {
    const misnamed = verb({ name: 'x', summary: 'x', examples: [], flags: { weekly: switchFlag('--per-week', 'x') }, run: async () => undefined });
    expect(() => misnamed.options?.()).toThrow('flag table key "weekly" does not match --per-week (attribute "perWeek")');
  });

  it('joins positional declarations into commander\'s argument syntax', () => {
    const declared = verb({ name: 'x', summary: 'x', examples: [], args: ['<key>', '[value]'], run: async () => undefined });
    expect(declared.arguments).toBe('<key> [value]');
  });

  it('every verb of every noun builds its flags under their own names', async () => {
    const names: string[] = [];
    for (const entry of COMMANDS) {
      for (const spec of (await entry.load()).default.verbs) {
        for (const option of spec.options?.() ?? []) names.push(`${entry.name} ${spec.name} ${option.attributeName()}`.replace('  ', ' '));
      }
    }
    expect(names).toContain('people top perWeek');
    expect(names).toContain('people links context');
    expect(names).toContain('export links concurrency');
    expect(names).toContain('sandbox failRate');
    expect(new Set(names).size).toBe(names.length);
  });
});
