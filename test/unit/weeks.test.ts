import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addWeeks,
  describeWeeks,
  isoWeekOf,
  isoWeekOfTime,
  isValidWeek,
  listWeeks,
  mondayOf,
  parseWeek,
  parseWeekSpec,
  resolveWeekWindow,
  WeekError,
  weeksBetween,
  weeksInYear,
} from '../../src/shared/weeks.js';

const day = (text: string) => new Date(`${text}T12:00:00Z`);

describe('ISO weeks', () => {
  it('knows which years have 53 weeks', () => {
    const longYears = [2015, 2020, 2026, 2032, 2037].map(weeksInYear);
    expect(longYears).toEqual([53, 53, 53, 53, 53]);
    expect([2019, 2021, 2024, 2025, 2027].map(weeksInYear)).toEqual([52, 52, 52, 52, 52]);
  });

  it('puts early January and late December in the right ISO year', () => {
    expect(isoWeekOf(day('2021-01-01'))).toBe(202053); // a Friday: still 2020's week 53
    expect(isoWeekOf(day('2021-01-04'))).toBe(202101);
    expect(isoWeekOf(day('2024-12-30'))).toBe(202501); // a Monday: already 2025's week 1
    expect(isoWeekOf(day('2026-12-31'))).toBe(202653);
    expect(isoWeekOf(day('2027-01-03'))).toBe(202653); // Sunday closes week 53
    expect(isoWeekOf(day('2026-11-22'))).toBe(202647);
  });

  it('counts the week of any instant as the calendar does (days counted, no Date made)', () => {
    // The definition, by Dates: the Thursday of the instant's Monday-to-Sunday week, and that year's January 4th.
    const byDates = (time: number): number => {
      const date = new Date(time);
      const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
      const thursday = new Date(day + (3 - ((new Date(day).getUTCDay() + 6) % 7)) * 86_400_000);
      const year = thursday.getUTCFullYear();
      const jan4 = Date.UTC(year, 0, 4);
      const mondayOfWeekOne = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000;
      return year * 100 + Math.floor((thursday.getTime() - mondayOfWeekOne) / (7 * 86_400_000)) + 1;
    };
    // Date.UTC reads the years 0-99 as 1900-1999, so the reference holds from the year 100 on.
    const instants = fc.integer({ min: Date.UTC(100, 0, 10), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(fc.property(instants, (time) => {
      expect(isoWeekOfTime(time)).toBe(byDates(time));
      expect(isoWeekOf(new Date(time))).toBe(byDates(time));
    }), { numRuns: 5000 });
    for (const text of ['1970-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z', '2000-01-02T23:59:59Z', '2000-01-03T00:00:00Z', '1600-12-31T12:00:00Z']) {
      expect(isoWeekOfTime(Date.parse(text)), text).toBe(byDates(Date.parse(text)));
    }
    expect(isoWeekOfTime(Date.parse('0050-06-01T00:00:00Z'))).toBe(5022);
  });

  it('finds the Monday of a week', () => {
    expect(mondayOf(202101).toISOString()).toBe('2021-01-04T00:00:00.000Z');
    expect(mondayOf(202653).toISOString()).toBe('2026-12-28T00:00:00.000Z');
    expect(mondayOf(202501).toISOString()).toBe('2024-12-30T00:00:00.000Z');
  });

  it('adds weeks across year ends, 53-week years included', () => {
    expect(addWeeks(202101, -3)).toBe(202051);
    expect(addWeeks(202101, -1)).toBe(202053);
    expect(addWeeks(202653, 1)).toBe(202701);
    expect(addWeeks(202552, 1)).toBe(202601);
    expect(addWeeks(202701, -3)).toBe(202651);
    expect(addWeeks(202647, 0)).toBe(202647);
    expect(addWeeks(202001, 104)).toBe(202152); // 2020 has 53 weeks: 104 weeks on lands in 2021 week 52
  });

  it('counts and lists the weeks of a range', () => {
    expect(weeksBetween(202050, 202102)).toBe(5);
    expect(listWeeks(202051, 202102)).toEqual([202051, 202052, 202053, 202101, 202102]);
    expect(listWeeks(202551, 202602)).toEqual([202551, 202552, 202601, 202602]);
    expect(listWeeks(202647, 202647)).toEqual([202647]);
  });

  it('validates weeks', () => {
    expect(isValidWeek(202653)).toBe(true);
    expect(isValidWeek(202553)).toBe(false);
    expect(isValidWeek(202600)).toBe(false);
    expect(isValidWeek(202654)).toBe(false);
  });
});

describe('parseWeek', () => {
  it('accepts real weeks', () => {
    expect(parseWeek('202653')).toBe(202653);
  });

  it('names the problem with impossible or malformed weeks', () => {
    expect(() => parseWeek('202553')).toThrow('202553 is not an ISO week: 2025 has weeks 202501 to 202552');
    expect(() => parseWeek('202600')).toThrow(WeekError);
    expect(() => parseWeek('20261')).toThrow('"20261" is not a week: write YYYYWW');
    expect(() => parseWeek('2026-47')).toThrow(WeekError);
  });
});

describe('parseWeekSpec', () => {
  it('parses every form of the grammar', () => {
    expect(parseWeekSpec('current')).toEqual({ kind: 'current' });
    expect(parseWeekSpec('last4')).toEqual({ kind: 'last4' });
    expect(parseWeekSpec('LAST12')).toEqual({ kind: 'last', count: 12 });
    expect(parseWeekSpec('202647')).toEqual({ kind: 'range', startWeek: 202647, endWeek: 202647 });
    expect(parseWeekSpec('202640..202652')).toEqual({ kind: 'range', startWeek: 202640, endWeek: 202652 });
  });

  it('refuses reversed ranges, impossible weeks and nonsense', () => {
    expect(() => parseWeekSpec('202652..202640')).toThrow('the range is reversed');
    expect(() => parseWeekSpec('202550..202553')).toThrow('2025 has weeks 202501 to 202552');
    expect(() => parseWeekSpec('last0')).toThrow('lastN takes N from 1');
    expect(() => parseWeekSpec('lastweek')).toThrow('is not a week spec');
    expect(() => parseWeekSpec('')).toThrow(WeekError);
  });
});

describe('resolveWeekWindow', () => {
  const info = { currentWeek: 202101, last4StartWeek: 202051 };

  it('takes last4 exactly from the service', () => {
    expect(resolveWeekWindow({ kind: 'last4' }, { currentWeek: 202647, last4StartWeek: 202644 })).toEqual({
      startWeek: 202644,
      endWeek: 202647,
    });
  });

  it('counts lastN back across a 53-week year', () => {
    expect(resolveWeekWindow({ kind: 'last', count: 4 }, info)).toEqual({ startWeek: 202051, endWeek: 202101 });
    expect(resolveWeekWindow({ kind: 'last', count: 2 }, info)).toEqual({ startWeek: 202053, endWeek: 202101 });
    expect(resolveWeekWindow({ kind: 'last', count: 1 }, info)).toEqual({ startWeek: 202101, endWeek: 202101 });
  });

  it('resolves current and explicit ranges', () => {
    expect(resolveWeekWindow({ kind: 'current' }, info)).toEqual({ startWeek: 202101, endWeek: 202101 });
    expect(resolveWeekWindow({ kind: 'range', startWeek: 202610, endWeek: 202612 })).toEqual({ startWeek: 202610, endWeek: 202612 });
  });

  it('needs week info for relative specs', () => {
    expect(() => resolveWeekWindow({ kind: 'current' })).toThrow(WeekError);
  });
});

describe('completeN: the N complete weeks before the current one (#31)', () => {
  const info = { currentWeek: 202602, last4StartWeek: 202551 };
  it('ends the week before the current one, across a year end', () => {
    expect(parseWeekSpec('complete4')).toEqual({ kind: 'complete', count: 4 });
    expect(resolveWeekWindow(parseWeekSpec('complete4'), info)).toEqual({ startWeek: 202550, endWeek: 202601 });
    expect(resolveWeekWindow(parseWeekSpec('Complete1'), info)).toEqual({ startWeek: 202601, endWeek: 202601 });
  });
  it('bounds and slips as lastN has them', () => {
    expect(() => parseWeekSpec('complete0')).toThrow('completeN takes N from 1 to 520');
    expect(() => parseWeekSpec('complete 4')).toThrow('did you mean complete4?');
  });
});

/**
 * Week slips (#18): the rewrites the CLI's slip test (test/e2e/daily-path.test.ts, "a slip suggests
 * what it meant") does not walk. Its table has the messages, exit code and no request for the rest.
 */
describe('a week slip suggests the spelling meant', () => {
  it.each([
    ['2026w46', '202646'],
    ['2026-W46-3', '202646'],
  ])('%s → %s', (typed, meant) => {
    expect(() => parseWeekSpec(typed)).toThrow(`did you mean ${meant}?`);
  });

  it('no guess where the rewrite is no valid spec', () => {
    expect(() => parseWeekSpec('2025-W53')).toThrow(/is not a week spec: use /);
    expect(() => parseWeekSpec('last 999')).toThrow(/is not a week spec: use /);
  });
});

describe('describeWeeks (the weeks a sync wrote, #31)', () => {
  it.each([
    [[202645, 202645], '1 week 202645'],
    [[202647, 202636, 202637, 202638, 202639, 202640, 202641, 202642, 202643, 202644, 202645, 202646], '12 weeks 202636..202647'],
    // Two weeks apart are two weeks, not a range claiming the one between.
    [[202640, 202642], '2 weeks 202640, 202642'],
    [[202640, 202643, 202644], '3 weeks 202640, 202643..202644'],
    // Adjacent across a year of 53 weeks.
    [[202053, 202101], '2 weeks 202053..202101'],
    // Week 0 (the links partition of rows without a mentionDate) is no neighbour of 190001.
    [[0, 190001, 190002], '3 weeks 0, 190001..190002'],
  ])('%j: %s', (weeks, described) => {
    expect(describeWeeks(weeks)).toBe(described);
  });
});
