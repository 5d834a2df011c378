/**
 * The week window a command's flags ask for, or its default, in one call. Relative specs (last4,
 * last12) are resolved against the service's current week, not the local clock, and only they ask
 * for it (Dependencies.weekInfo(): one request a run, however many windows and captions use it).
 */
import { needsWeekInfo, resolveWeekWindow, windowFromBounds, type WeekInfoNumbers, type WeekSpec, type WeekWindow } from '../../shared/weeks.js';
import { UsageError } from '../run/errors.js';
import type { WeekWindowFlags } from './options.js';

/** Told each window resolved against the service's week: the reporter, which says when a file gets a partial week. */
export interface WindowWitness {
  windowResolved(window: WeekWindow, currentWeek: number): void;
}

/** Where the service's week info comes from: Dependencies.weekInfo(), asked once a run. */
export type WeekInfoSource = () => Promise<WeekInfoNumbers>;

/** A window, and whether it was the command's default rather than asked for. */
export interface ResolvedWindow extends WeekWindow {
  defaulted: boolean;
}

/**
 * The window the flags ask for, else `fallback` (marked `defaulted`), else undefined (the service
 * then applies its own default). The week info is asked for only when a relative spec needs it.
 */
export async function resolveWindow(flags: WeekWindowFlags, info: WeekInfoSource, seen: WindowWitness | undefined, fallback: WeekSpec): Promise<ResolvedWindow>;
export async function resolveWindow(flags: WeekWindowFlags, info: WeekInfoSource, seen?: WindowWitness): Promise<ResolvedWindow | undefined>;
export async function resolveWindow(flags: WeekWindowFlags, info: WeekInfoSource, seen?: WindowWitness, fallback?: WeekSpec): Promise<ResolvedWindow | undefined> {
  if (flags.weeks) return fromSpec(flags.weeks, info, seen, false);
  if (flags.start !== undefined || flags.end !== undefined) {
    if (flags.start === undefined || flags.end === undefined) {
      throw new UsageError('--start and --end go together', boundsHint(flags.start ?? flags.end!));
    }
    return { ...windowFromBounds(flags.start, flags.end), defaulted: false };
  }
  return fallback === undefined ? undefined : fromSpec(fallback, info, seen, true);
}

/**
 * The way out of a lone --start or --end. It names only the week the user gave: any other week would
 * have to come from the service's current week, and a usage error is refused before any request (a
 * fixed example once suggested weeks after the current one).
 */
function boundsHint(week: number): string {
  return `e.g. --start ${week} --end ${week} for that one week, or --weeks lastN for the N weeks to the current one`;
}

async function fromSpec(spec: WeekSpec, info: WeekInfoSource, seen: WindowWitness | undefined, defaulted: boolean): Promise<ResolvedWindow> {
  const known = needsWeekInfo(spec) ? await info() : undefined;
  const window = resolveWeekWindow(spec, known);
  if (known) seen?.windowResolved(window, known.currentWeek);
  return { ...window, defaulted };
}

/**
 * The current week for a caption, to mark a partial week. Captions show only at a terminal, so only
 * there is it asked for (once a run, shared with a relative window's resolution).
 */
export async function captionCurrentWeek(io: { isTTY: { stdout: boolean } }, output: string | undefined, info: WeekInfoSource): Promise<number | undefined> {
  return io.isTTY.stdout && output === undefined ? (await info()).currentWeek : undefined;
}
