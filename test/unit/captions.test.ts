import { describe, expect, it } from 'vitest';
import { caption, filterCaption, partialCaption, windowCaption } from '../../src/cli/commands/people/captions.js';

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
