/**
 * Query-string parsing and validation. Every function either returns a well-formed value (with
 * the documented default filled in) or throws a 400 HttpProblem whose title names the parameter
 * and what it accepts, so a client's error message can quote the title as is.
 */
import { WeekError, addWeeks, isValidWeek, parseWeek, type WeekWindow } from '../../shared/weeks.js';
import type { SortBy, WeekInfo } from '../../api/types.js';
import { parseIntegerText } from '../../shared/numbers.js';
import { badRequest } from './problem.js';

/** The decoded query: one value per name (a repeated name is a 400, see readQuery). */
export type Query = ReadonlyMap<string, string>;

export interface Bound {
  min: number;
  max: number;
}

/**
 * Decodes the query string. A parameter given twice is rejected: none of the contract's parameters
 * is a list, and silently picking the first or the last would hide a client bug.
 */
export function readQuery(search: string): Query {
  const query = new Map<string, string>();
  if (search === '') return query;
  for (const [name, value] of new URLSearchParams(search)) {
    if (query.has(name)) throw badRequest(`${name} is given more than once`);
    query.set(name, value);
  }
  return query;
}

export function optionalInteger(query: Query, name: string): number | undefined {
  const text = query.get(name);
  if (text === undefined) return undefined;
  const value = parseIntegerText(text);
  if (value === undefined) throw badRequest(`${name} must be an integer`);
  return value;
}

/** An integer within [min, max]; `fallback` when absent. Out of range and non-integer share one title. */
export function boundedInteger(query: Query, name: string, bound: Bound, fallback: number): number;
export function boundedInteger(query: Query, name: string, bound: Bound): number | undefined;
export function boundedInteger(query: Query, name: string, bound: Bound, fallback?: number): number | undefined {
  const text = query.get(name);
  if (text === undefined) return fallback;
  const value = parseIntegerText(text);
  if (value === undefined || value < bound.min || value > bound.max) {
    throw badRequest(`${name} must be an integer from ${bound.min} to ${bound.max}`);
  }
  return value;
}

/** true/false/1/0 in any letter case, as ASP.NET model binding and most clients write them. */
export function optionalBoolean(query: Query, name: string, fallback: boolean): boolean {
  const text = query.get(name);
  if (text === undefined) return fallback;
  switch (text.trim().toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw badRequest(`${name} must be true or false (or 1 or 0)`);
  }
}

/** A text filter; blank counts as absent, so `q=` neither matches everything nor nothing. */
export function optionalText(query: Query, name: string): string | undefined {
  const text = query.get(name)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

export function sortByParam(query: Query): SortBy {
  const text = query.get('sortBy');
  if (text === undefined) return 'mentions';
  const value = text.trim().toLowerCase();
  if (value === 'mentions' || value === 'dominance') return value;
  throw badRequest('sortBy must be mentions or dominance');
}

function weekParam(query: Query, name: string): number | undefined {
  const text = query.get(name);
  if (text === undefined) return undefined;
  try {
    return parseWeek(text.trim());
  } catch (error) {
    if (error instanceof WeekError) throw badRequest(`${name}: ${error.message}`);
    throw error;
  }
}

/**
 * The startWeek/endWeek window, with the sandbox's defaults:
 * - neither given: the service's last-4 window, last4StartWeek..currentWeek;
 * - only endWeek: the 4 weeks ending at endWeek;
 * - only startWeek: startWeek..currentWeek.
 * A window that ends after the current week is a 400 (the service has no statistics for the
 * future, and a client that asks for them has usually read its own clock instead of weeks/current),
 * and so is a reversed one.
 */
export function weekWindow(query: Query, info: WeekInfo): WeekWindow {
  const start = weekParam(query, 'startWeek');
  const end = weekParam(query, 'endWeek');
  const endWeek = end ?? info.currentWeek;
  const startWeek = start ?? (end === undefined ? info.last4StartWeek : addWeeks(end, -3));
  if (endWeek > info.currentWeek) {
    throw badRequest(`endWeek ${endWeek} is after the current week ${info.currentWeek}`);
  }
  if (startWeek > endWeek) {
    throw badRequest(`startWeek ${startWeek} comes after endWeek ${endWeek}`);
  }
  if (!isValidWeek(startWeek)) throw badRequest(`startWeek ${startWeek} is not an ISO week`);
  return { startWeek, endWeek };
}

/**
 * An identifier integer (countryId, sourceId) from a path segment or the query: not an integer is a
 * 400. The contract bounds no identifier, so an integer of any size is one; beyond 2^53 it names no
 * sandbox country or source (they are numbered from 1), so it is given as Infinity, which finds
 * nothing: a 404 in a path (contract rule 2), an empty list as a filter.
 */
function identifierValue(text: string, name: string): number {
  if (text.trim() !== text) throw badRequest(`${name} must be an integer`);
  const value = parseIntegerText(text);
  if (value !== undefined) return value;
  if (/^[+-]?\d+$/.test(text)) return Number.POSITIVE_INFINITY;
  throw badRequest(`${name} must be an integer`);
}

/** A numeric path segment (countryId, sourceId), as identifierValue reads it. */
export function pathInteger(segment: string, name: string): number {
  return identifierValue(segment, name);
}

/** An identifier query parameter (countryId, fromCountryId), as identifierValue reads it. */
export function optionalIdentifier(query: Query, name: string): number | undefined {
  const text = query.get(name);
  return text === undefined ? undefined : identifierValue(text.trim(), name);
}
