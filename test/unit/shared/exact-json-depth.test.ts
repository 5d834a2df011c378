/**
 * The depth limit of parseJson (what keeps a hostile answer nested a million deep from overflowing the
 * stack): lossless mode's JSON.parse path counts the depth in its walk instead of scanning the text
 * first, so it must refuse exactly the texts the scan (jsonDepthExceeds) refuses, on every path.
 */
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, NestingDepthError } from '../../../src/shared/exact-json/depth.js';
import { JSON_PARSE_MAX_CHARS, parseJson, type NumberMode } from '../../../src/shared/exact-json/parse.js';

const IDENTIFIERS = new Set(['articleHash']);

/** What parseJson made of the text: the depth refused, not JSON, or read. */
function verdict(text: string, mode: NumberMode, maxDepth: number): 'too deep' | 'not JSON' | 'read' {
  try {
    parseJson(text, mode, IDENTIFIERS, maxDepth);
    return 'read';
  } catch (error) {
    if (error instanceof NestingDepthError) return 'too deep';
    if (error instanceof SyntaxError) return 'not JSON';
    throw error;
  }
}

describe('parseJson with a maxDepth', () => {
  it('refuses what nests deeper, in both modes, whichever path reads the text', () => {
    const deep = `${'['.repeat(65)}${']'.repeat(65)}`;
    const limit = `${'['.repeat(64)}${']'.repeat(64)}`;
    const objects = `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`;
    // An articleHash beyond 2^53 sends the text the marking way; "__proto__" and a long text the slicing way.
    const marked = `${'[{"articleHash":12345678901234567890,"k":'.repeat(33)}1${'}]'.repeat(33)}`;
    const proto = `[${'['.repeat(64)}{"__proto__":1}${']'.repeat(64)}]`;
    const long = `${'['.repeat(65)}"${'x'.repeat(JSON_PARSE_MAX_CHARS)}"${']'.repeat(65)}`;
    const hostile = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const notJson = `${'['.repeat(100_000)}`;
    for (const mode of ['lossless', 'native'] as const) {
      expect(verdict(deep, mode, 64), mode).toBe('too deep');
      expect(verdict(limit, mode, 64), mode).toBe('read');
      expect(verdict(objects, mode, 64), mode).toBe('too deep');
      expect(verdict(marked, mode, 64), mode).toBe('too deep');
      expect(verdict(marked, mode, 66), mode).toBe('read');
      expect(verdict(proto, mode, 64), mode).toBe('too deep');
      expect(verdict(long, mode, 64), mode).toBe('too deep');
      expect(verdict(hostile, mode, 64), mode).toBe('too deep');
      expect(verdict(notJson, mode, 64), mode).toBe('too deep');
      expect(verdict('[1,', mode, 64), mode).toBe('not JSON');
    }
  });

  it('refuses exactly what jsonDepthExceeds finds, JSON or not (fast-check)', () => {
    const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', '1.50', '12345678901234567890', '"]"', '"{\\"["'),
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
        fc.array(tie('value'), { maxLength: 3 }).map((items) => `{${items.map((item, index) => `"${index === 0 ? 'articleHash' : `k${index}`}":${item}`).join(',')}}`),
      ),
    })).value;
    // Some texts cut short, so not JSON: the depth is still refused first.
    const text = fc.tuple(value, fc.nat()).map(([json, cut]) => (cut % 4 === 0 ? json.slice(0, cut % (json.length + 1)) : json));
    fc.assert(fc.property(text, fc.integer({ min: 0, max: 6 }), fc.constantFrom<NumberMode>('lossless', 'native'), (json, maxDepth, mode) => {
      expect(verdict(json, mode, maxDepth) === 'too deep').toBe(jsonDepthExceeds(json, maxDepth));
    }), { numRuns: 4000 });
  });
});
