/**
 * The contract's timestamps (`YYYY-MM-DDTHH:MM:SS`, UTC, no offset) read as instants, for the client's
 * check (a timestamp that is no date is a contract violation, api/validate.ts) and the formats that
 * have a date type (xlsx, Parquet). One reading, so the check, a cell and a column never disagree on
 * what is a date.
 */

// The form read: `YYYY-MM-DD[T ]HH:MM:SS`, then a fraction of 1 to 9 digits and a Z, both optional (a
// space for the T, a fraction and a Z say the same instant). Read character by character rather than
// by a regular expression: a bulk sync reads three timestamps of every links row (the client's check,
// the partition's week, the Parquet column), and the match arrays were a tenth of its garbage.
const SHORTEST = 'YYYY-MM-DDTHH:MM:SS'.length;
const LONGEST = SHORTEST + '.123456789Z'.length;

/** The `count` decimal digits at `at` as a number, or -1 when one is not a digit. */
function digitsAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let index = at; index < at + count; index += 1) {
    const digit = text.charCodeAt(index) - 0x30;
    if (!(digit >= 0 && digit <= 9)) return -1;
    value = value * 10 + digit;
  }
  return value;
}

export interface Timestamp {
  /** The instant, to the millisecond (a finer fraction is cut, never rounded into the next second). */
  date: Date;
  /** Digits of the fraction as written: more than 3 means `date` dropped some. */
  fractionDigits: number;
}

/** The timestamp `text` writes, or undefined for other text or a time the calendar lacks (02-30, 24:00). */
export function parseTimestamp(text: string): Timestamp | undefined {
  const length = text.length;
  if (length < SHORTEST || length > LONGEST) return undefined;
  const separated = text.charCodeAt(4) === 0x2d && text.charCodeAt(7) === 0x2d && (text.charCodeAt(10) === 0x54 || text.charCodeAt(10) === 0x20) && text.charCodeAt(13) === 0x3a && text.charCodeAt(16) === 0x3a;
  if (!separated) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  let at = SHORTEST;
  let fractionDigits = 0;
  let millis = 0;
  if (text.charCodeAt(at) === 0x2e) {
    for (at += 1; at < length; at += 1) {
      const digit = text.charCodeAt(at) - 0x30;
      if (!(digit >= 0 && digit <= 9)) break;
      // Cut to the millisecond, never rounded into the next second.
      if (fractionDigits < 3) millis = millis * 10 + digit;
      fractionDigits += 1;
    }
    if (fractionDigits === 0 || fractionDigits > 9) return undefined;
    if (fractionDigits < 3) millis *= 10 ** (3 - fractionDigits);
  }
  if (text.charCodeAt(at) === 0x5a) at += 1;
  if (at !== length) return undefined;
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  // Date.UTC reads years 0-99 as 1900-1999; the year is set on its own so 0050 stays the year 50.
  date.setUTCFullYear(year, month - 1, day);
  // Date.UTC rolls a day the month lacks into the next month: that is not the day sent.
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && hour < 24 && minute < 60 && second < 60 ? { date, fractionDigits } : undefined;
}
