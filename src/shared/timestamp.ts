/**
 * The contract's timestamps (`YYYY-MM-DDTHH:MM:SS`, UTC, no offset) read as instants, for the client's
 * check (a timestamp that is no date is a contract violation, api/validate.ts) and the formats that
 * have a date type (xlsx, Parquet). One reading, so the check, a cell and a column never disagree on
 * what is a date.
 */

// A space for the T, a trailing Z and a fraction are read too: they say the same instant.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/;

export interface Timestamp {
  /** The instant, to the millisecond (a finer fraction is cut, never rounded into the next second). */
  date: Date;
  /** Digits of the fraction as written: more than 3 means `date` dropped some. */
  fractionDigits: number;
}

/** The timestamp `text` writes, or undefined for other text or a time the calendar lacks (02-30, 24:00). */
export function parseTimestamp(text: string): Timestamp | undefined {
  const match = TIMESTAMP.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = match[7] ?? '';
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  // Date.UTC rolls a day the month lacks into the next month: that is not the day sent.
  const sameDay = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return sameDay && hour < 24 && minute < 60 && second < 60 ? { date, fractionDigits: fraction.length } : undefined;
}
