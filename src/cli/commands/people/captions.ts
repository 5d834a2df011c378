/**
 * The line above a terminal table or chart: what the rows are, over which weeks, with which
 * filters. Every part a reader needs to trust a number is named: the window (also when it was the
 * default), a week still going (its counts are partial), and each filter as given. Pure.
 */
import { GENDER_CODES } from '../../../api/gender.js';
import type { WeekWindow } from '../../../shared/weeks.js';
import type { RankingFlags } from '../../flags/ranking.js';

/** A window as a caption names it; `defaulted` says how it was chosen when the user did not (`default last4`). */
export interface CaptionWindow extends WeekWindow {
  defaulted?: string;
}

/** `week 202647` or `weeks 202644–202647`. */
export function weeksCaption(window: WeekWindow): string {
  return window.startWeek === window.endWeek ? `week ${window.startWeek}` : `weeks ${window.startWeek}–${window.endWeek}`;
}

/**
 * `weeks 202644–202647`, `week 202647`, with `(default last4)` when no window was given, and
 * `· 202647 so far (partial)` when the window holds the current week: its counts are still growing.
 */
export function windowCaption(window: CaptionWindow, currentWeek: number | undefined): string {
  const defaulted = window.defaulted === undefined ? '' : ` (${window.defaulted})`;
  return `${weeksCaption(window)}${defaulted}${partialCaption([window], currentWeek)}`;
}

/** ` · 202647 so far (partial)` when any of the windows holds the current week, else nothing. */
export function partialCaption(windows: readonly WeekWindow[], currentWeek: number | undefined): string {
  if (currentWeek === undefined) return '';
  return windows.some((window) => window.startWeek <= currentWeek && currentWeek <= window.endWeek) ? ` · ${currentWeek} so far (partial)` : '';
}

/** The ranking filters as the user gave them: `country DE · from FR · female · aged 30–60 · politics · fresh only`. */
export function filterCaption(flags: Partial<RankingFlags>): string[] {
  const genderName = Object.entries(GENDER_CODES).find(([, code]) => code === flags.gender)?.[0];
  const age = flags.minAge !== undefined && flags.maxAge !== undefined ? `aged ${flags.minAge}–${flags.maxAge}`
    : flags.minAge !== undefined ? `aged ${flags.minAge}+`
      : flags.maxAge !== undefined ? `aged up to ${flags.maxAge}` : undefined;
  return [
    flags.country !== undefined && `country ${flags.country}`,
    flags.fromCountry !== undefined && `from ${flags.fromCountry}`,
    flags.gender !== undefined && (genderName ?? `gender ${flags.gender}`),
    age,
    flags.category !== undefined && `category ${flags.category}`,
    flags.fresh && 'fresh only',
  ].filter((part): part is string => typeof part === 'string');
}

/** Parts joined as captions write them. */
export function caption(...parts: ReadonlyArray<string | readonly string[]>): string {
  return parts.flat().filter((part) => part !== '').join(' · ');
}
