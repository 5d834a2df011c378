/**
 * The week window a command's flags ask for. A pure function of the flags and a client: relative specs
 * (last4, last12) are resolved against the service's current week, not the local clock, and only
 * they make a request.
 */
import type { NewsStatsClient } from '../api/client.js';
import { needsWeekInfo, resolveWeekWindow, windowFromBounds, type WeekWindow } from '../weeks.js';
import { UsageError } from './errors.js';
import type { WeekWindowFlags } from './options.js';

/** Numbers arrive as LosslessNumber in the CLI; week arithmetic needs plain numbers. */
async function weekInfo(client: NewsStatsClient<'lossless'>) {
  const info = await client.weeks.current();
  return { currentWeek: Number(String(info.currentWeek)), last4StartWeek: Number(String(info.last4StartWeek)) };
}

/**
 * The window the flags ask for, or undefined when they ask for none (the service then applies its
 * own default). `client` is asked for only when a relative spec needs the service's week.
 */
export async function resolveWindow(flags: WeekWindowFlags, client: () => Promise<NewsStatsClient<'lossless'>>): Promise<WeekWindow | undefined> {
  if (flags.weeks) {
    const info = needsWeekInfo(flags.weeks) ? await weekInfo(await client()) : undefined;
    return resolveWeekWindow(flags.weeks, info);
  }
  if (flags.start !== undefined || flags.end !== undefined) {
    if (flags.start === undefined || flags.end === undefined) {
      throw new UsageError('--start and --end go together', 'or use --weeks, e.g. --weeks 202640..202652');
    }
    return windowFromBounds(flags.start, flags.end);
  }
  return undefined;
}
