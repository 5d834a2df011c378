/**
 * The timestamp reader (shared/timestamp.ts) reads its form character by character: it must accept and
 * refuse exactly what the regular expression of that form does, and give the same instant.
 */
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isTimestamp, parseTimestamp, timestampMillis, type Timestamp } from '../../../src/shared/timestamp.js';

/** The form as a regular expression: the definition the reader is checked against. */
function byExpression(text: string): Timestamp | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3))));
  if (year < 100) date.setUTCFullYear(date.getUTCFullYear() - 1900); // Date.UTC reads years 0-99 as 1900-1999
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && hour < 24 && minute < 60 && second < 60 ? { date, fractionDigits: fraction.length } : undefined;
}

describe('parseTimestamp, timestampMillis, isTimestamp', () => {
  test('reads what the form allows, the fraction cut to the millisecond', () => {
    expect(parseTimestamp('2026-11-23T13:31:04')).toEqual({ date: new Date(Date.UTC(2026, 10, 23, 13, 31, 4)), fractionDigits: 0 });
    expect(parseTimestamp('2026-11-23 13:31:04.5Z')).toEqual({ date: new Date(Date.UTC(2026, 10, 23, 13, 31, 4, 500)), fractionDigits: 1 });
    expect(parseTimestamp('2024-02-29T23:59:59.999999999')).toEqual({ date: new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)), fractionDigits: 9 });
    for (const text of ['2025-02-29T00:00:00', '2026-11-23T13:31:04.', '2026-11-23T13:31:04.1234567890', '2026-11-23T13:31:04ZZ', '2026-11-23t13:31:04', '0099-02-29T00:00:00', '２026-11-23T13:31:04']) {
      expect(parseTimestamp(text), text).toBeUndefined();
    }
  });

  test('reads the years 0000-0099 as themselves, not as 1900-1999 (the contract bounds no year)', () => {
    expect(parseTimestamp('0050-01-01T00:00:00')?.date.toISOString()).toBe('0050-01-01T00:00:00.000Z');
    expect(parseTimestamp('0000-02-29T12:00:00')?.date.toISOString()).toBe('0000-02-29T12:00:00.000Z');
    expect(parseTimestamp('0096-02-29T00:00:00')?.date.toISOString()).toBe('0096-02-29T00:00:00.000Z');
  });

  test('agrees with the regular expression of the form on any text near it', () => {
    const near = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789-: TZ.'), minLength: 17, maxLength: 32 }),
      fc.tuple(fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }), fc.stringMatching(/^(\.\d{0,10})?Z?Z?$/), fc.constantFrom('T', ' ', 't'))
        .map(([date, tail, separator]) => date.toISOString().slice(0, 19).replace('T', separator) + tail),
      fc.tuple(fc.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/), fc.stringMatching(/^(\.\d{1,9})?Z?$/)).map(([text, tail]) => text + tail),
    );
    fc.assert(fc.property(near, (text) => {
      const expected = byExpression(text);
      expect(parseTimestamp(text)).toEqual(expected);
      // The check and a links row's week read the instant without a Date: the same verdict, the same instant.
      expect(isTimestamp(text)).toBe(expected !== undefined);
      expect(timestampMillis(text)).toBe(expected === undefined ? Number.NaN : expected.date.getTime());
    }), { numRuns: 3000 });
  });
});
