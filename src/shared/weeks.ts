/**
 * ISO-8601 weeks written as YYYYWW integers, and the `--weeks` grammar.
 *
 * Everything here is pure: the CLI resolves specs that depend on "now" (current, lastN, last4)
 * against the week info the API reports, never against the local clock, so a client in another
 * time zone than the service still asks for the service's weeks.
 */
import { daysFromCivil } from './timestamp.js';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

export class WeekError extends Error {
  override name = 'WeekError';
}

/** Monday 00:00 UTC of ISO week 1 of `year`: the week that holds January 4th. */
function mondayOfWeekOne(year: number): number {
  const jan4 = Date.UTC(year, 0, 4);
  const isoDayIndex = (new Date(jan4).getUTCDay() + 6) % 7; // Monday = 0
  return jan4 - isoDayIndex * DAY_MS;
}

/** 52 or 53. December 28th always lies in the last ISO week of its year. */
export function weeksInYear(year: number): 52 | 53 {
  // A time, not a Date: the client's check asks it of every week field of every answer.
  return (isoWeekOfTime(Date.UTC(year, 11, 28)) % 100) as 52 | 53;
}

/** The ISO week (YYYYWW) that holds the given instant, read in UTC. */
export function isoWeekOf(date: Date): number {
  return isoWeekOfTime(date.getTime());
}

/**
 * The ISO week (YYYYWW) that holds the instant `time` (milliseconds since 1970), read in UTC. Counted
 * in days, without a Date: a bulk sync asks it of every links row (three Dates a row were 2 MB of its
 * garbage).
 */
export function isoWeekOfTime(time: number): number {
  const day = Math.floor(time / DAY_MS);
  // 1970-01-01 was a Thursday: with Monday as 0, its index is 3.
  const isoDayIndex = (((day + 3) % 7) + 7) % 7;
  // The Thursday of a week decides which year the week belongs to; week 1 holds the year's first Thursday.
  const thursday = day - isoDayIndex + 3;
  const year = yearOfDay(thursday);
  return year * 100 + Math.floor((thursday - daysFromCivil(year, 1, 1)) / 7) + 1;
}

/** The proleptic Gregorian year of the day `day` days after 1970-01-01 (H. Hinnant's civil_from_days). */
function yearOfDay(day: number): number {
  const shifted = day + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  // Years run March to February here: January and February belong to the next civil year.
  return yearOfEra + era * 400 + (dayOfYear >= 306 ? 1 : 0);
}

export function weekYear(week: number): number {
  return Math.floor(week / 100);
}

export function weekNumber(week: number): number {
  return week % 100;
}

/** True for a YYYYWW integer that names a real ISO week (202553 is not one: 2025 has 52). */
export function isValidWeek(week: number): boolean {
  if (!Number.isSafeInteger(week)) return false;
  const year = weekYear(week);
  const number = weekNumber(week);
  // Every year has 52 weeks: only a 53rd asks the year (the client's check asks this of every week field).
  return year >= 1000 && year <= 9999 && number >= 1 && (number <= 52 || (number === 53 && weeksInYear(year) === 53));
}

/** Monday 00:00 UTC of the week, as a Date. */
export function mondayOf(week: number): Date {
  return new Date(mondayOfWeekOne(weekYear(week)) + (weekNumber(week) - 1) * WEEK_MS);
}

/** The week `count` weeks after `week` (before, when negative), across year ends. */
export function addWeeks(week: number, count: number): number {
  return isoWeekOf(new Date(mondayOf(week).getTime() + count * WEEK_MS));
}

/** How many weeks `to` lies after `from` (negative when before). */
export function weeksBetween(from: number, to: number): number {
  return Math.round((mondayOf(to).getTime() - mondayOf(from).getTime()) / WEEK_MS);
}

/** Every week from `start` to `end`, both included. */
export function listWeeks(start: number, end: number): number[] {
  const count = weeksBetween(start, end);
  return Array.from({ length: count + 1 }, (_, index) => addWeeks(start, index));
}

/**
 * Weeks for a message: `1 week 202645`, `12 weeks 202636..202647`, and weeks with gaps as their runs,
 * `3 weeks 202640, 202643..202644` (a range over a gap would claim the weeks missing from it).
 */
export function describeWeeks(weeks: readonly number[]): string {
  const sorted = [...new Set(weeks)].sort((a, b) => a - b);
  if (sorted.length === 0) return '0 weeks';
  const runs: Array<[number, number]> = [];
  for (const week of sorted) {
    const last = runs.at(-1);
    // Only real weeks make a range: the links partition of rows without a mentionDate is week 0.
    if (last && isValidWeek(last[1]) && isValidWeek(week) && weeksBetween(last[1], week) === 1) last[1] = week;
    else runs.push([week, week]);
  }
  const listed = runs.map(([first, last]) => (first === last ? String(first) : `${first}..${last}`)).join(', ');
  return `${sorted.length} ${sorted.length === 1 ? 'week' : 'weeks'} ${listed}`;
}

/** Parses "202647" into 202647, rejecting anything that is not a real ISO week. */
export function parseWeek(text: string): number {
  if (!/^\d{6}$/.test(text)) {
    const meant = weekWrittenOtherwise(text);
    throw new WeekError(`"${text}" is not a week: write YYYYWW, ${meant === undefined ? 'for example 202647' : `here ${meant}`}`);
  }
  const week = Number(text);
  if (!isValidWeek(week)) {
    const year = weekYear(week);
    throw new WeekError(
      `${text} is not an ISO week: ${year} has weeks ${year}01 to ${year}${weeksInYear(year)}`,
    );
  }
  return week;
}

/** A parsed `--weeks` value, before it is resolved against the service's current week. */
export type WeekSpec =
  | { kind: 'current' }
  /** The service's own last-4 window: last4StartWeek..currentWeek. */
  | { kind: 'last4' }
  /** N weeks ending at currentWeek. */
  | { kind: 'last'; count: number }
  /** The N complete weeks before currentWeek: what a file meant to hold whole weeks asks for (#31). */
  | { kind: 'complete'; count: number }
  | { kind: 'range'; startWeek: number; endWeek: number };

export const WEEK_SPEC_GRAMMAR = 'current, last4, lastN (N weeks to the current one), completeN (the N complete weeks before it), YYYYWW or YYYYWW..YYYYWW';

/** Longest lastN accepted: ten years of weeks is already more than any ranking needs. */
export const MAX_LAST_WEEKS = 520;

export function parseWeekSpec(text: string): WeekSpec {
  const spec = text.trim().toLowerCase();
  if (spec === 'current') return { kind: 'current' };
  if (spec === 'last4') return { kind: 'last4' };
  const last = /^last(\d+)$/.exec(spec);
  if (last) {
    const count = Number(last[1]);
    if (count < 1 || count > MAX_LAST_WEEKS) {
      throw new WeekError(`"${text}": lastN takes N from 1 to ${MAX_LAST_WEEKS}`);
    }
    return { kind: 'last', count };
  }
  const complete = /^complete(\d+)$/.exec(spec);
  if (complete) {
    const count = Number(complete[1]);
    if (count < 1 || count > MAX_LAST_WEEKS) {
      throw new WeekError(`"${text}": completeN takes N from 1 to ${MAX_LAST_WEEKS}`);
    }
    return { kind: 'complete', count };
  }
  const range = /^(\d+)\.\.(\d+)$/.exec(spec);
  if (range) {
    const startWeek = parseWeek(range[1]!);
    const endWeek = parseWeek(range[2]!);
    if (startWeek > endWeek) {
      throw new WeekError(`"${text}": the range is reversed (${startWeek} comes after ${endWeek}); did you mean ${endWeek}..${startWeek}?`);
    }
    return { kind: 'range', startWeek, endWeek };
  }
  if (/^\d+$/.test(spec)) {
    const week = parseWeek(spec);
    return { kind: 'range', startWeek: week, endWeek: week };
  }
  const meant = specWrittenOtherwise(spec);
  if (meant !== undefined) throw new WeekError(`"${text}" is not a week spec; did you mean ${meant}?`);
  throw new WeekError(`"${text}" is not a week spec: use ${WEEK_SPEC_GRAMMAR}`);
}

/**
 * What a week spec written another common way meant, when that is clear and valid: `last 4` is
 * last4, an ISO week string `2026-W46` (or `2026W46`, `2026-W46-3`) is 202646, a date is its week,
 * and each side of a range the same way.
 */
function specWrittenOtherwise(spec: string): string | undefined {
  const last = /^(last|complete)[\s-]+(\d+)$/.exec(spec);
  const sides = spec.split('..');
  const weeks = sides.map((side) => (/^\d{6}$/.test(side) ? side : weekWrittenOtherwise(side)));
  const meant = last ? `${last[1]}${last[2]}` : sides.length <= 2 && weeks.every((week) => week !== undefined) ? weeks.join('..') : undefined;
  if (meant === undefined) return undefined;
  try {
    parseWeekSpec(meant);
    return meant;
  } catch {
    // A reversed range or a week the year lacks: no guess is better than a wrong one.
    return undefined;
  }
}

/** One week written as ISO 8601 writes it (`2026-W46`, `2026W46`, `2026-W46-3`) or as a date, as YYYYWW. */
function weekWrittenOtherwise(text: string): string | undefined {
  const iso = /^(\d{4})-?w(\d{2})(?:-?[1-7])?$/i.exec(text.trim());
  if (iso && isValidWeek(Number(`${iso[1]}${iso[2]}`))) return `${iso[1]}${iso[2]}`;
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (date) {
    const day = new Date(Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3])));
    if (day.toISOString().slice(0, 10) === text.trim()) return String(isoWeekOf(day));
  }
  return undefined;
}

/** True when resolving the spec needs the service's week info. */
export function needsWeekInfo(spec: WeekSpec): boolean {
  return spec.kind !== 'range';
}

export interface WeekWindow {
  startWeek: number;
  endWeek: number;
}

/** The service's week info (GET /api/data/weeks/current) as plain numbers: what relative specs resolve against. */
export interface WeekInfoNumbers {
  currentWeek: number;
  last4StartWeek: number;
}

export function resolveWeekWindow(spec: WeekSpec, info?: WeekInfoNumbers): WeekWindow {
  if (spec.kind === 'range') return { startWeek: spec.startWeek, endWeek: spec.endWeek };
  if (!info) throw new WeekError(`resolving "${spec.kind}" needs the service's current week`);
  switch (spec.kind) {
    case 'current':
      return { startWeek: info.currentWeek, endWeek: info.currentWeek };
    case 'last4':
      return { startWeek: info.last4StartWeek, endWeek: info.currentWeek };
    case 'last':
      return { startWeek: addWeeks(info.currentWeek, -(spec.count - 1)), endWeek: info.currentWeek };
    case 'complete':
      return { startWeek: addWeeks(info.currentWeek, -spec.count), endWeek: addWeeks(info.currentWeek, -1) };
  }
}

/** Builds a window from --start/--end flags; both are needed, in order. */
export function windowFromBounds(start: number, end: number): WeekWindow {
  if (start > end) {
    throw new WeekError(`--start ${start} comes after --end ${end}; did you mean --start ${end} --end ${start}?`);
  }
  return { startWeek: start, endWeek: end };
}
