import { fieldsOf, personStatsSchema } from '../../../api/types.js';
import type { WeekWindow } from '../../../weeks.js';
import { DEFAULT_CONCURRENCY, mapInOrder } from '../../concurrency.js';
import { switchFlag, weekWindowFlags } from '../../options.js';
import { rankingFlags, rankingParams, sortField, validateRanking, type RankingFlags } from '../../ranking.js';
import { verb, type Row } from '../../spec.js';
import { resolveWindow } from '../../week-window.js';
import { weeklyWindows } from './shared.js';

const rankedFields = fieldsOf(personStatsSchema);
/** In order of importance: a narrow terminal hides the last first (docs/design.md "Tables"). */
const rankedTableFields = ['rank', 'fullName', 'personHash', 'mentionCount', 'dominance', 'sentiment', 'reach', 'power', 'persistence', 'fromCountryName'];
const panelFields = ['week', ...rankedFields];

/** What a ranking is, for the line above its terminal table: `Top 50 people by mentions · weeks 202644–202647`. */
export function rankingCaption(count: number, sort: RankingFlags['sort'], window: WeekWindow | undefined): string {
  const metric = sort === 'dominance' ? 'dominance' : 'mentions';
  const weeks = !window ? '' : window.startWeek === window.endWeek ? ` · week ${window.startWeek}` : ` · weeks ${window.startWeek}–${window.endWeek}`;
  return `Top ${count} ${count === 1 ? 'person' : 'people'} by ${metric}${weeks}`;
}

const topView = { fields: rankedFields, tableFields: rankedTableFields, keep: ['mentionCount'], chart: { label: 'fullName', value: 'mentionCount' } };

const top = verb({
  name: 'top',
  summary: 'People ranked by mentions or dominance over a week window',
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
  view: topView,
  // A panel has a leading week column (valid in --fields) and is not one ranking to chart. The
  // metric ranked by is never hidden on a narrow terminal.
  viewFor: ({ flags }) => ({
    ...topView,
    keep: [sortField(flags.sort)],
    ...(flags.perWeek ? { fields: panelFields, tableFields: ['week', ...rankedTableFields] } : {}),
  }),
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const client = await ctx.deps.client();
    const chart = { label: 'fullName', value: sortField(flags.sort) };
    if (!flags.perWeek) {
      const window = await resolveWindow(flags, () => ctx.deps.client());
      const data = await client.people.top(await rankingParams(ctx, flags, window));
      return { data, view: { chart, caption: rankingCaption(Array.isArray(data) ? data.length : 0, flags.sort, window) } };
    }
    const weeks = await weeklyWindows(ctx, flags, 'last12');
    const params = await rankingParams(ctx, flags, undefined);
    const rankings = await mapInOrder(weeks, DEFAULT_CONCURRENCY, (week) =>
      client.people.top({ ...params, startWeek: week, endWeek: week }),
    );
    const rows = rankings.flatMap((ranking, index) =>
      (ranking as Row[]).map((item) => ({ week: weeks[index], ...item })),
    );
    return { data: rows };
  },
});

export default top;
