/** What more than one people verb uses: the person's fields, and the weeks of a weekly series. */
import { fieldsOf, personSchema } from '../../../api/types.js';
import { listWeeks } from '../../../weeks.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { WeekWindowFlags } from '../../options.js';
import { resolveWindow, type WeekInfoNumbers } from '../../week-window.js';

export const personFields = fieldsOf(personSchema);

/** Weekly series longer than this are almost certainly a typo (a range across decades). */
const MAX_WEEKLY_WEEKS = 260;

export async function weeklyWindows(
  ctx: Context,
  flags: WeekWindowFlags,
  fallback: string,
  info?: () => Promise<WeekInfoNumbers>,
): Promise<number[]> {
  const window = await resolveWindow(flags, () => ctx.deps.client(), info);
  if (!window) throw new UsageError(`this needs a week window`, `add --weeks, e.g. --weeks ${fallback}`);
  const weeks = listWeeks(window.startWeek, window.endWeek);
  if (weeks.length > MAX_WEEKLY_WEEKS) {
    throw new UsageError(`${weeks.length} weeks is more than the ${MAX_WEEKLY_WEEKS} a weekly series takes`);
  }
  return weeks;
}
