import type { SortBy } from '../../../api/types.js';
import { parseWeekSpec, type WeekSpec, type WeekWindow } from '../../../shared/weeks.js';
import { UsageError } from '../../run/errors.js';
import type { MoverRow } from './rank-changes.js';
import { integerFlag, parsedFlag, weekArgument, weekWindowFlags, withDefault } from '../../flags/options.js';
import { rankingFlags, rankingParams, sortField, validateRanking, type RankingFlags } from '../../flags/ranking.js';
import { verb, type ViewSpec } from '../../run/spec.js';
import { captionCurrentWeek, resolveWindow } from '../../flags/week-window.js';
import { caption, filterCaption, partialCaption, weeksCaption } from './captions.js';

/** A terminal shows the metric the rankings are sorted by, and its change. */
function moverTableFields(sort: SortBy | undefined): string[] {
  const metric = sortField(sort);
  return ['rank', 'rankChange', 'fullName', 'personHash', metric, metric === 'dominance' ? 'dominanceChange' : 'mentionChange'];
}

/** Never hidden on a narrow terminal: where each person moved, and the metric ranked by. */
function moverKeptFields(sort: SortBy | undefined): string[] {
  return ['rankChange', sortField(sort)];
}

const MOVER_FIELDS: readonly (keyof MoverRow)[] = [
  'rank', 'previousRank', 'rankChange', 'status', 'leftTop', 'personHash', 'fullName', 'mentionCount', 'previousMentionCount',
  'mentionChange', 'dominance', 'previousDominance', 'dominanceChange', 'window', 'previousWindow',
];

const moverRankingFlags = rankingFlags('rows from the top of each ranking');

/**
 * `Ranks by mentions in weeks 202644–202647 against 202640–202643 (read to 200) · country DE`; when
 * either window holds the current week, the caption says that week is partial and so compared short.
 */
export function moversCaption(
  flags: Pick<RankingFlags, 'sort' | 'country' | 'fromCountry' | 'gender' | 'minAge' | 'maxAge' | 'category' | 'fresh'> & { depth: number },
  window: WeekWindow, comparison: WeekWindow, currentWeek: number | undefined, legend: readonly string[] = [],
): string {
  const what = `Ranks by ${flags.sort ?? 'mentions'} in ${weeksCaption(window)} against ${weeksCaption(comparison)} (rankings read to ${flags.depth})`;
  const partial = partialCaption([window, comparison], currentWeek);
  return caption(what, partial === '' ? '' : `${partial.slice(3)}: fewer mentions than a full week`, filterCaption(flags), legend);
}

const movers = verb({
  name: 'movers',
  summary: 'Who climbed, fell, arrived and left: the ranking of a window (default last4) against an earlier one',
  flags: {
    ...weekWindowFlags,
    vs: withDefault(
      parsedFlag(
        '--vs <spec>',
        'compare with: previous (as many weeks just before) or a week spec',
        weekArgument((text): WeekSpec | 'previous' => (text.trim().toLowerCase() === 'previous' ? 'previous' : parseWeekSpec(text))),
      ),
      'previous',
    ),
    depth: withDefault(integerFlag('--depth <n>', 'how deep both rankings are read, so a climb from far down is not "new"', { min: 1 }), 200),
    ...moverRankingFlags,
    limit: withDefault(moverRankingFlags.limit, 20),
  },
  examples: [
    'people movers --weeks last4',
    'people movers --weeks 202647 --vs 202646 --limit 10 --sort dominance',
    'people movers --weeks last4 --format chart',
    'people movers --weeks last13 --limit 50 --output movers.xlsx',
  ],
  // The terminal's columns follow --sort: the metric ranked by, and its change.
  view: ({ flags }): ViewSpec => ({
    fields: MOVER_FIELDS,
    tableFields: moverTableFields(flags.sort),
    keep: moverKeptFields(flags.sort),
    chart: { label: 'fullName', value: 'rankChange', diverging: true, fallback: 'status', markedBy: 'leftTop' },
  }),
  validate({ flags }) {
    validateRanking(flags);
    if (flags.depth < flags.limit) throw new UsageError(`--depth ${flags.depth} is below --limit ${flags.limit}`, 'the rankings must be read at least as deep as the rows shown');
    return flags;
  },
  async run(ctx, flags) {
    // Loaded here, not above: it brings lossless-json, which `people --help` has no use for.
    const { joinRankings, marksLegend, previousWindow } = await import('./rank-changes.js');
    const client = () => ctx.deps.client();
    // Both windows may be relative (--weeks last4 --vs last8): the week info is asked for once.
    const info = () => ctx.deps.weekInfo();
    const window = await resolveWindow(flags, info, ctx.report, { kind: 'last4' });
    const comparison = flags.vs === 'previous' ? previousWindow(window) : await resolveWindow({}, info, undefined, flags.vs);
    const params = { ...(await rankingParams(ctx, flags, undefined)), limit: flags.depth };
    const people = (await client()).people;
    const [current, previous, currentWeek] = await Promise.all([
      people.top({ ...params, ...window }),
      people.top({ ...params, ...comparison }),
      captionCurrentWeek(ctx.io, ctx.globals.output, info),
    ]);
    const rows = joinRankings({ current, previous, window, comparison, limit: flags.limit });
    return { data: rows, view: { caption: moversCaption(flags, window, comparison, currentWeek, marksLegend(rows, flags)) } };
  },
});

export default movers;
