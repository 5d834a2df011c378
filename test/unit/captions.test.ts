import { describe, expect, it } from 'vitest';
import { caption, filterCaption, partialCaption, windowCaption } from '../../src/cli/commands/people/captions.js';
import { parseWeek, parseWeekSpec, windowFromBounds } from '../../src/shared/weeks.js';

describe('captions (#18)', () => {
  it('name the window, how it was chosen, and a partial current week only when the window holds it', () => {
    expect(windowCaption({ startWeek: 202644, endWeek: 202647 }, 202647)).toBe('weeks 202644–202647 · 202647 so far (partial)');
    expect(windowCaption({ startWeek: 202644, endWeek: 202647, defaulted: 'default last4' }, 202648)).toBe('weeks 202644–202647 (default last4)');
    expect(windowCaption({ startWeek: 202646, endWeek: 202646 }, undefined)).toBe('week 202646');
    expect(partialCaption([{ startWeek: 202640, endWeek: 202643 }, { startWeek: 202647, endWeek: 202647 }], 202647)).toBe(' · 202647 so far (partial)');
  });

  it('name the filters as given, the gender by name', () => {
    expect(filterCaption({ country: 'DE', fromCountry: 'FR', gender: 1, minAge: 30, maxAge: 60, category: 'politics', fresh: true }))
      .toEqual(['country DE', 'from FR', 'female', 'aged 30–60', 'category politics', 'fresh only']);
    expect(filterCaption({ gender: 9, maxAge: 40 })).toEqual(['gender 9', 'aged up to 40']);
    expect(caption('Top 5 people by mentions', 'week 202646', [], ['country DE'])).toBe('Top 5 people by mentions · week 202646 · country DE');
  });
});

describe('week slips suggest the spelling meant (#18)', () => {
  it.each([
    ['2026-W46', '202646'],
    ['2026w46', '202646'],
    ['2026-W46-3', '202646'],
    ['2026-11-18', '202647'],
    ['2026-W40..2026-W46', '202640..202646'],
    ['last 4', 'last4'],
  ])('%s → %s', (typed, meant) => {
    expect(() => parseWeekSpec(typed)).toThrow(`did you mean ${meant}?`);
  });

  it('no guess where the rewrite is no valid spec; reversed ranges and bounds are put in order', () => {
    expect(() => parseWeekSpec('2025-W53')).toThrow(/is not a week spec: use /);
    expect(() => parseWeekSpec('last 999')).toThrow(/is not a week spec: use /);
    expect(() => parseWeekSpec('202647..202640')).toThrow('did you mean 202640..202647?');
    expect(() => windowFromBounds(202647, 202640)).toThrow('did you mean --start 202640 --end 202647?');
    expect(() => parseWeek('2026-W40')).toThrow('write YYYYWW, here 202640');
  });
});
