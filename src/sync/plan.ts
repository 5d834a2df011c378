/**
 * Which partitions a run writes: pure, from the state, the options and the service's current week.
 * Completed ISO weeks only (the current one, partial, with includeCurrent), oldest first; a week is
 * fetched again only when its partition has not landed or --refresh names it.
 */
import { MAX_LAST_WEEKS, addWeeks, isValidWeek, listWeeks, weeksBetween } from '../shared/weeks.js';
import { partialWeeks, weeksDone, type SyncState } from './state.js';
import { STREAMS, type StreamName } from './streams.js';

/** Weeks a run covers when no --since is given: the last 12 completed. */
export const DEFAULT_WEEKS = 12;

export interface PlanOptions {
  streams: readonly StreamName[];
  /** First week to hold (default: DEFAULT_WEEKS completed weeks back from `until`). */
  since?: number;
  /** Last week to hold (default: the last completed week): a backfill of a range of weeks. */
  until?: number;
  /** A week to fetch again even though its partitions have landed. */
  refresh?: number;
  /** Also fetch the current, partial week (never recorded as done: every run fetches it again). */
  includeCurrent?: boolean;
}

export interface Task {
  stream: StreamName;
  /** Absent for a reference table. */
  week?: number;
  /** The current week: written, but not recorded as done. */
  partial?: boolean;
}

export class PlanError extends Error {
  override name = 'PlanError';
}

/**
 * Whether the service must be asked for its current week. Not when the state already knows a week
 * the local clock has not passed: then no week can have been completed since, and a run with nothing
 * to fetch makes no request at all.
 */
export function needsCurrentWeek(state: SyncState, localWeek: number, options: Pick<PlanOptions, 'includeCurrent'>): boolean {
  return options.includeCurrent === true || state.currentWeek === undefined || localWeek > state.currentWeek;
}

/** The completed weeks a run covers, oldest first. */
export function plannedWeeks(currentWeek: number, options: Pick<PlanOptions, 'since' | 'until'>): number[] {
  const completed = addWeeks(currentWeek, -1);
  if (options.until !== undefined && options.until > completed) {
    throw new PlanError(`--until ${options.until} is not a completed week (the service's current week is ${currentWeek})`);
  }
  const last = options.until ?? completed;
  const since = options.since ?? addWeeks(last, -(DEFAULT_WEEKS - 1));
  if (since > last) return [];
  if (weeksBetween(since, last) >= MAX_LAST_WEEKS) {
    throw new PlanError(`--since ${since} is ${weeksBetween(since, last) + 1} weeks back; at most ${MAX_LAST_WEEKS} weeks a folder`);
  }
  return listWeeks(since, last);
}

export function planTasks(state: SyncState, currentWeek: number, options: PlanOptions): Task[] {
  if (options.refresh !== undefined && options.refresh >= currentWeek && !(options.includeCurrent && options.refresh === currentWeek)) {
    throw new PlanError(`--refresh ${options.refresh} is not a completed week (the service's current week is ${currentWeek})`);
  }
  const weekly = options.streams.filter((stream) => STREAMS[stream].weekly);
  const weeks = plannedWeeks(currentWeek, options);
  if (options.refresh !== undefined && !weeks.includes(options.refresh) && options.refresh < currentWeek) {
    weeks.push(options.refresh);
    weeks.sort((a, b) => a - b);
  }
  // A partial week written earlier (--include-current) and complete now is fetched whole, in range or not.
  for (const stream of weekly) for (const week of partialWeeks(state, stream)) if (week < currentWeek && !weeks.includes(week)) weeks.push(week);
  weeks.sort((a, b) => a - b);
  const tasks: Task[] = [];
  for (const week of weeks) {
    for (const stream of weekly) {
      if (week === options.refresh || !weeksDone(state, stream).has(week)) tasks.push({ stream, week });
    }
  }
  if (options.includeCurrent) for (const stream of weekly) tasks.push({ stream, week: currentWeek, partial: true });
  // Reference tables are a snapshot taken with each run that fetches weeks (and once at first).
  const references = options.streams
    .filter((stream) => !STREAMS[stream].weekly)
    .filter((stream) => tasks.length > 0 || state.streams[stream]?.snapshot !== true)
    .map((stream) => ({ stream }));
  return [...references, ...tasks];
}

/** How far the service's current week may stand from the local clock's before a run refuses it. */
export const MAX_WEEKS_AHEAD = 1;
export const MAX_WEEKS_BEHIND = 53;

/**
 * Why the service's current week is not to be trusted for this run, or undefined. One bogus answer
 * must not poison the lake: a week far ahead of the local clock would plan (and record) weeks that do
 * not exist yet, and one behind the last week seen would go back on what the lake holds.
 */
export function serviceWeekProblem(currentWeek: number, localWeek: number, lastSeen: number | undefined): string | undefined {
  if (!isValidWeek(currentWeek)) return `the service's current week ${currentWeek} is not a week`;
  if (weeksBetween(localWeek, currentWeek) > MAX_WEEKS_AHEAD) return `the service says the current week is ${currentWeek}, ${weeksBetween(localWeek, currentWeek)} weeks after the local clock's ${localWeek}`;
  if (weeksBetween(currentWeek, localWeek) > MAX_WEEKS_BEHIND) return `the service says the current week is ${currentWeek}, ${weeksBetween(currentWeek, localWeek)} weeks before the local clock's ${localWeek}`;
  if (lastSeen !== undefined && currentWeek < lastSeen) return `the service says the current week is ${currentWeek}, before ${lastSeen}, which it said before`;
  return undefined;
}

/**
 * Requests a plan costs at most: a ranking per week, a request per person per per-person stream, one
 * per reference table. Links are asked once a person a run, so a run asks fewer when a person is in
 * several weeks' top; who is cannot be known without the rankings, which a plan does not ask.
 */
export function plannedRequests(tasks: readonly Task[], top: number): number {
  const weeks = new Set<number>();
  let requests = 0;
  for (const task of tasks) {
    if (task.week === undefined) requests += 1;
    else {
      if (!weeks.has(task.week)) requests += 1;
      weeks.add(task.week);
      if (task.stream !== 'rankings') requests += top;
    }
  }
  return requests;
}
