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

/** Days since 1970-01-01 of a day of the proleptic Gregorian calendar (any year; month 1-12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  // H. Hinnant's days_from_civil: years run March to February, so the leap day ends a year.
  const shifted = month <= 2 ? year - 1 : year;
  const era = Math.floor(shifted / 400);
  const yearOfEra = shifted - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * The instant `text` writes, in milliseconds since 1970 (UTC), or NaN for other text or a time the
 * calendar lacks (02-30, 24:00). Counted, not built as a Date: the client's check of every timestamp
 * and a links row's week need no object (a Date and a result a row were 5 MB of a bulk sync's garbage).
 */
export function timestampMillis(text: string): number {
  const length = text.length;
  if (length < SHORTEST || length > LONGEST) return Number.NaN;
  const separated = text.charCodeAt(4) === 0x2d && text.charCodeAt(7) === 0x2d && (text.charCodeAt(10) === 0x54 || text.charCodeAt(10) === 0x20) && text.charCodeAt(13) === 0x3a && text.charCodeAt(16) === 0x3a;
  if (!separated) return Number.NaN;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  // Every month has 28 days: the month's length is asked only past them (a 29th of February is rare
  // enough that optimised code made without it was thrown away when one came).
  if (year < 0 || month < 1 || month > 12 || day < 1 || (day > 28 && day > daysInMonth(year, month)) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return Number.NaN;
  let at = SHORTEST;
  let millis = 0;
  // Nothing is read past the end (the text is mostly just the 19 characters): V8 threw away its
  // optimised code for a read out of bounds and made it again, in every process.
  if (length > SHORTEST && text.charCodeAt(at) === 0x2e) {
    let fractionDigits = 0;
    for (at += 1; at < length; at += 1) {
      const digit = text.charCodeAt(at) - 0x30;
      if (!(digit >= 0 && digit <= 9)) break;
      // Cut to the millisecond, never rounded into the next second.
      if (fractionDigits < 3) millis = millis * 10 + digit;
      fractionDigits += 1;
    }
    if (fractionDigits === 0 || fractionDigits > 9) return Number.NaN;
    if (fractionDigits < 3) millis *= 10 ** (3 - fractionDigits);
  }
  if (at < length && text.charCodeAt(at) === 0x5a) at += 1;
  if (at !== length) return Number.NaN;
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** True for a timestamp of the contract's form that is a real time (timestampMillis is not NaN). */
export function isTimestamp(text: string): boolean {
  return !Number.isNaN(timestampMillis(text));
}

/** The timestamp `text` writes, or undefined for other text or a time the calendar lacks (02-30, 24:00). */
export function parseTimestamp(text: string): Timestamp | undefined {
  const millis = timestampMillis(text);
  if (Number.isNaN(millis)) return undefined;
  // A valid text's fraction, if any, runs from after the seconds' point to the end or its Z.
  const fractionDigits = text.charCodeAt(SHORTEST) === 0x2e ? text.length - SHORTEST - 1 - (text.charCodeAt(text.length - 1) === 0x5a ? 1 : 0) : 0;
  return { date: new Date(millis), fractionDigits };
}
