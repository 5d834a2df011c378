/** What more than one people verb uses: the person's fields, and the weeks of a weekly series. */
import { NotFoundError } from '../../../api/errors.js';
import { fieldsOf, personSchema } from '../../../api/types.js';
import { listWeeks } from '../../../shared/weeks.js';
import type { Context } from '../../run/spec.js';
import { UsageError } from '../../run/errors.js';
import { commandLine } from '../../help/slips.js';
import type { WeekWindowFlags } from '../../flags/options.js';
import { resolveWindow } from '../../flags/week-window.js';

export const personFields = fieldsOf(personSchema);

/** Weekly series longer than this are almost certainly a typo (a range across decades). */
const MAX_WEEKLY_WEEKS = 260;

export async function weeklyWindows(
  ctx: Context,
  flags: WeekWindowFlags,
  fallback: string,
): Promise<number[]> {
  const window = await resolveWindow(flags, () => ctx.deps.weekInfo(), ctx.report);
  if (!window) throw new UsageError(`this needs a week window`, `add --weeks, e.g. --weeks ${fallback}`);
  const weeks = listWeeks(window.startWeek, window.endWeek);
  if (weeks.length > MAX_WEEKLY_WEEKS) {
    throw new UsageError(`${weeks.length} weeks is more than the ${MAX_WEEKLY_WEEKS} a weekly series takes`);
  }
  return weeks;
}

/**
 * A request about one person, by the personHash the user typed. Ids are slugs (lowercase words and
 * digits joined by "-"): one the service does not know that is written as a name (letters, spaces,
 * apostrophes; not a slug) is a name typed where the id goes, a usage slip (exit 2) that
 * `people search` sorts out. Anything else stays the service's 404.
 */
export async function aboutPerson<T>(personHash: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof NotFoundError && isWrittenAsName(personHash)) {
      throw new UsageError(`person "${personHash}" not found: that is a name, not a personHash; did you mean ${commandLine(['people', 'search', personHash])}?`);
    }
    throw error;
  }
}

// A RegExp made when asked, not a literal: V8 builds a literal's Unicode property classes when it
// compiles the file, which every people command would pay for a check made only after a 404
// (src/output/text.ts says more).
function isWrittenAsName(text: string): boolean {
  return new RegExp(String.raw`^\p{L}[\p{L}\p{M}\s.'’-]*$`, 'u').test(text) && !/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(text);
}
