import { fieldsOf, personStatsSchema } from '../../../api/types.js';
import { parseWeekSpec } from '../../../shared/weeks.js';
import { caption, filterCaption, windowCaption, type CaptionWindow } from './captions.js';
import { DEFAULT_CONCURRENCY, mapInOrder } from '../../flags/concurrency.js';
import { switchFlag, weekWindowFlags } from '../../flags/options.js';
import { rankingFlags, rankingParams, sortField, validateRanking, type RankingFlags } from '../../flags/ranking.js';
import { verb, type Row } from '../../run/spec.js';
import { captionCurrentWeek, resolveWindow } from '../../flags/week-window.js';
import { weeklyWindows } from './shared.js';

const rankedFields = fieldsOf(personStatsSchema);
/** In order of importance: a narrow terminal hides the last first (docs/design.md "Tables"). */
const rankedTableFields = ['rank', 'fullName', 'personHash', 'mentionCount', 'dominance', 'sentiment', 'reach', 'power', 'persistence', 'fromCountryName'];
const panelFields = ['week', ...rankedFields];

/** The window a ranking without --weeks is pinned to, as the exports do: the contract's typical 4 weeks. */
const DEFAULT_RANKING_WEEKS = 'last4';
const DEFAULT_FILE_WEEKS = 'complete4';

/**
 * What a ranking is, for the line above its terminal table:
 * `Top 50 people by mentions · weeks 202644–202647 · 202647 so far (partial) · country DE`.
 */
export function rankingCaption(count: number, flags: RankingFlags, window: CaptionWindow, currentWeek: number | undefined, perWeek = false): string {
  const metric = flags.sort === 'dominance' ? 'dominance' : 'mentions';
  const what = `Top ${count} ${count === 1 ? 'person' : 'people'} by ${metric}${perWeek ? ', week by week' : ''}`;
  return caption(what, windowCaption(window, currentWeek), filterCaption(flags));
}

/**
 * A flat file says which weeks its ranking covers, in two columns after the contract's: a CSV is read
 * without its command line. JSON stays the service's answer as sent.
 */
const windowFields = ['startWeek', 'endWeek'];

const top = verb({
  name: 'top',
  summary: 'People ranked by mentions or dominance over a week window (default last4)',
  flags: {
    ...weekWindowFlags,
    ...rankingFlags('how many people (per week with --per-week)'),
    perWeek: switchFlag('--per-week', 'one ranking per week of the window, as one table with a leading week column'),
  },
  examples: [
    'people top --weeks last4',
    'people top --weeks 202636..202647 --per-week --limit 10 --format csv --output panel.csv',
    'people top --weeks last4 --country DE --sort dominance --format chart',
  ],
  // A panel has a leading week column (valid in --fields). The metric ranked by is never hidden on a
  // narrow terminal, and is what a chart draws.
  view: ({ flags }) => ({
    fields: flags.perWeek ? panelFields : [...rankedFields, ...windowFields],
    tableFields: flags.perWeek ? ['week', ...rankedTableFields] : rankedTableFields,
    keep: [sortField(flags.sort)],
    chart: { label: 'fullName', value: sortField(flags.sort) },
  }),
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const client = await ctx.deps.client();
    const info = () => ctx.deps.weekInfo();
    if (!flags.perWeek) {
      // The filters first: a country that matches nothing is refused before the week is asked for.
      const filters = await rankingParams(ctx, flags, undefined);
      // Pinned when not given, so the caption and a file can say which weeks they are.
      // A file written with --output gets whole weeks by default (#31); a terminal table the last four, its partial week marked.
      const defaultWeeks = ctx.globals.output === undefined ? DEFAULT_RANKING_WEEKS : DEFAULT_FILE_WEEKS;
      const resolved = await resolveWindow(flags, info, ctx.report, parseWeekSpec(defaultWeeks));
      const window: CaptionWindow = { startWeek: resolved.startWeek, endWeek: resolved.endWeek, ...(resolved.defaulted && { defaulted: `default ${defaultWeeks}` }) };
      const [data, currentWeek] = await Promise.all([
        client.people.top({ ...filters, startWeek: window.startWeek, endWeek: window.endWeek }),
        captionCurrentWeek(ctx.io, ctx.globals.output, info),
      ]);
      const ranking = Array.isArray(data) ? (data as Row[]) : [];
      return {
        data,
        rows: ranking.map((item) => ({ ...item, startWeek: window.startWeek, endWeek: window.endWeek })),
        view: { caption: rankingCaption(ranking.length, flags, window, currentWeek) },
      };
    }
    const weeks = await weeklyWindows(ctx, flags, 'last12');
    const params = await rankingParams(ctx, flags, undefined);
    const [rankings, currentWeek] = await Promise.all([
      mapInOrder(weeks, DEFAULT_CONCURRENCY, (week) => client.people.top({ ...params, startWeek: week, endWeek: week })),
      captionCurrentWeek(ctx.io, ctx.globals.output, info),
    ]);
    const rows = rankings.flatMap((ranking, index) =>
      (ranking as Row[]).map((item) => ({ week: weeks[index], ...item })),
    );
    const window = { startWeek: weeks[0]!, endWeek: weeks.at(-1)! };
    return { data: rows, view: { caption: rankingCaption(flags.limit ?? (rankings[0] as Row[] | undefined)?.length ?? 0, flags, window, currentWeek, true) } };
  },
});

export default top;
