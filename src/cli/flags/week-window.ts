/**
 * The week window a command's flags ask for. A pure function of the flags and a client: relative specs
 * (last4, last12) are resolved against the service's current week, not the local clock, and only
 * they make a request.
 */
import type { NewsStatsClient } from '../../api/client.js';
import { needsWeekInfo, resolveWeekWindow, windowFromBounds, type WeekInfoNumbers, type WeekWindow } from '../../shared/weeks.js';
import { UsageError } from '../run/errors.js';
import type { WeekWindowFlags } from './options.js';

/** Numbers arrive as LosslessNumber in the CLI; week arithmetic needs plain numbers. */
async function weekInfo(client: NewsStatsClient<'lossless'>): Promise<WeekInfoNumbers> {
  const info = await client.weeks.current();
  return { currentWeek: Number(String(info.currentWeek)), last4StartWeek: Number(String(info.last4StartWeek)) };
}

/**
 * The service's week info, asked for at most once however often it is called: a command that
 * resolves several windows (movers) or also needs the current week (a trend's caption) passes the
 * same one to each resolveWindow.
 */
export function weekInfoOnce(client: () => Promise<NewsStatsClient<'lossless'>>): () => Promise<WeekInfoNumbers> {
  let info: Promise<WeekInfoNumbers> | undefined;
  return () => (info ??= client().then(weekInfo));
}

/** Told each window resolved against the service's week: the reporter, which says when a file gets a partial week. */
export interface WindowWitness {
  windowResolved(window: WeekWindow, currentWeek: number): void;
}

/**
 * The window the flags ask for, or undefined when they ask for none (the service then applies its
 * own default). `client` is asked for only when a relative spec needs the service's week; `info`,
 * when given, is asked instead (see weekInfoOnce).
 */
export async function resolveWindow(
  flags: WeekWindowFlags,
  client: () => Promise<NewsStatsClient<'lossless'>>,
  info: () => Promise<WeekInfoNumbers> = async () => weekInfo(await client()),
  seen?: WindowWitness,
): Promise<WeekWindow | undefined> {
  if (flags.weeks) {
    const known = needsWeekInfo(flags.weeks) ? await info() : undefined;
    const window = resolveWeekWindow(flags.weeks, known);
    if (known) seen?.windowResolved(window, known.currentWeek);
    return window;
  }
  if (flags.start !== undefined || flags.end !== undefined) {
    if (flags.start === undefined || flags.end === undefined) {
      throw new UsageError('--start and --end go together', 'or use --weeks, e.g. --weeks 202640..202652');
    }
    return windowFromBounds(flags.start, flags.end);
  }
  return undefined;
}

/**
 * The current week for a caption, to mark a partial week. Captions show only at a terminal, so only
 * there is it asked for (once a run, shared through `info` with a relative window's resolution).
 */
export async function captionCurrentWeek(io: { isTTY: { stdout: boolean } }, output: string | undefined, info: () => Promise<WeekInfoNumbers>): Promise<number | undefined> {
  return io.isTTY.stdout && output === undefined ? (await info()).currentWeek : undefined;
}
