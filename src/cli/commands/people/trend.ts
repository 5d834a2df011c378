import { InvalidArgumentError } from 'commander';
import { parseWeekSpec } from '../../../shared/weeks.js';
import { DEFAULT_CONCURRENCY, mapInOrder } from '../../flags/concurrency.js';
import { choiceFlag, configured, weekWindowFlags, withDefault } from '../../flags/options.js';
import { trendRow } from '../../../output/rows.js';
import { verb, type Row, type ViewSpec } from '../../run/spec.js';
import { UsageError } from '../../run/errors.js';
import { caption, windowCaption } from './captions.js';
import { aboutPerson, weeklyWindows } from './shared.js';

const trendFields = ['week', 'mentions', 'globalDominance', 'globalSentiment', 'globalReach', 'globalPower', 'persistence', 'countries'];
const TREND_METRICS = trendFields.slice(1);
/** The short names the tables show, for --metric: `--metric dominance` is globalDominance. */
const METRIC_SHORT_NAMES: Readonly<Record<string, string>> = {
  dominance: 'globalDominance', sentiment: 'globalSentiment', reach: 'globalReach', power: 'globalPower',
};

function parseMetric(text: string): string {
  const metric = METRIC_SHORT_NAMES[text] ?? text;
  if (!TREND_METRICS.includes(metric)) {
    const names = [...TREND_METRICS, ...Object.keys(METRIC_SHORT_NAMES)].join(', ');
    throw new InvalidArgumentError(`"${text}" is not a metric: ${names}`);
  }
  return metric;
}

/** Several people: long format, one row a person and week, the person after the week. */
const multiTrendFields = ['week', 'personHash', 'fullName', ...TREND_METRICS];
/** `people trend` without a window, as exports default to last4. */
const DEFAULT_TREND_WEEKS = 'last12';

/**
 * Whose trend, by name (the personHash where the service has none), over which weeks, marking the
 * current week as unfinished: its counts are still growing.
 */
export function trendCaption(names: readonly string[], weeks: readonly number[], currentWeek: number, defaulted?: string): string {
  return caption(names.join(', '), windowCaption({ startWeek: weeks[0]!, endWeek: weeks.at(-1)!, defaulted }, currentWeek));
}

const trend = verb({
  name: 'trend',
  summary: 'Week-by-week mentions, dominance, sentiment, reach, power and persistence of one or more people',
  args: ['<personHash...>'],
  flags: {
    ...weekWindowFlags,
    // choices() lists the names for --help and completion; the parser, set after it, maps the short ones.
    metric: withDefault(
      configured(
        choiceFlag('--metric <name>', 'what --format chart draws (dominance is globalDominance, and so on)', [...TREND_METRICS, ...Object.keys(METRIC_SHORT_NAMES)]),
        (option) => option.argParser(parseMetric),
      ),
      'mentions',
    ),
  },
  examples: [
    'people trend chiamaka-okafor-6303 --weeks last12',
    'people trend chiamaka-okafor-6303 --weeks last26 --format chart --metric sentiment',
    'people trend hira-abbasi-d893 layla-haddad-69d2 --weeks last12 --format csv',
  ],
  // One person: a row a week. Several: a row a person and week, one chart line each, named in a legend.
  view: ({ args: [personHashes], flags }): ViewSpec => {
    const chart = { label: 'week', value: flags.metric, style: 'line' as const };
    // The metric a trend is about is never hidden for a name: at 40 columns a trend keeps its numbers.
    const keep = [flags.metric];
    // A week with no mentions has no sentiment: sparklines and charts draw the others as gaps there.
    const countField = 'mentions';
    return new Set(personHashes).size > 1
      ? {
          fields: multiTrendFields,
          // Every metric, in order of importance: what a terminal cannot fit is hidden and named in the note.
          tableFields: multiTrendFields,
          chart: { ...chart, series: 'personHash', seriesName: 'fullName' },
          keep,
          countField,
        }
      : { fields: trendFields, chart, keep, sparklines: ['mentions', 'globalSentiment'], countField };
  },
  async run(ctx, { args: [personHashes], flags }) {
    // An empty id would be asked of the service only after the week info: refuse it before any request.
    if (personHashes.some((personHash) => personHash.trim() === '')) throw new UsageError('a personHash is empty', 'give the personHash of each person, e.g. from people search');
    // A trend is about weeks, so it always has a window: last12 unless asked otherwise.
    const given = flags.weeks !== undefined || flags.start !== undefined || flags.end !== undefined;
    // The window and the caption's current week share one request for the week info (ctx.deps.weekInfo).
    const weeks = await weeklyWindows(ctx, given ? flags : { weeks: parseWeekSpec(DEFAULT_TREND_WEEKS) }, DEFAULT_TREND_WEEKS);
    const client = await ctx.deps.client();
    const people = [...new Set(personHashes)];
    // Fail on an unknown person with one 404 naming them, before any weekly request.
    const persons = (await mapInOrder(people, DEFAULT_CONCURRENCY, (personHash) => aboutPerson(personHash, () => client.people.get(personHash)))) as Row[];
    const pairs = weeks.flatMap((week) => people.map((personHash, index) => ({ week, personHash, fullName: persons[index]!.fullName })));
    const [rows, { currentWeek }] = await Promise.all([
      mapInOrder(pairs, DEFAULT_CONCURRENCY, async ({ week, personHash, fullName }) => {
        const row = trendRow(week, await client.people.countryStats(personHash, { startWeek: week, endWeek: week }));
        return people.length === 1 ? row : { week, personHash, fullName, ...row };
      }),
      ctx.deps.weekInfo(),
    ]);
    const names = people.map((personHash, index) => (typeof persons[index]?.fullName === 'string' && persons[index].fullName !== '' ? String(persons[index].fullName) : personHash));
    return { data: rows, view: { caption: trendCaption(names, weeks, currentWeek, given ? undefined : `default ${DEFAULT_TREND_WEEKS}`) } };
  },
});

export default trend;
