import { InvalidArgumentError } from 'commander';
import {
  BOUNDS,
  type SortBy,
  fieldsOf,
  personCountryRowSchema,
  personLinkBaseSchema,
  personLinkSchema,
  personSchema,
  personStatsSchema,
} from '../../api/types.js';
import { listWeeks, parseWeekSpec, type WeekSpec, type WeekWindow } from '../../weeks.js';
import { DEFAULT_CONCURRENCY, mapInOrder } from '../concurrency.js';
import type { Context } from '../context.js';
import { countryFlagId } from '../country-flag.js';
import { UsageError } from '../errors.js';
import type { MoverRow } from '../movers.js';
import {
  choiceFlag,
  configured,
  integerFlag,
  negatedFlag,
  parsedFlag,
  switchFlag,
  textFlag,
  weekArgument,
  weekWindowFlags,
  withDefault,
  type WeekWindowFlags,
} from '../options.js';
import { rankingFlags, rankingParams, sortField, validateRanking, type RankingFlags } from '../ranking.js';
import { countryStatsRows, trendRow } from '../rows.js';
import { verb, type NounVerbs, type Row, type ViewSpec } from '../spec.js';
import { resolveWindow, weekInfoOnce, type WeekInfoNumbers } from '../week-window.js';

const personFields = fieldsOf(personSchema);
const rankedFields = fieldsOf(personStatsSchema);
/** In order of importance: a narrow terminal hides the last first (docs/design.md "Tables"). */
const rankedTableFields = ['rank', 'fullName', 'personHash', 'mentionCount', 'dominance', 'sentiment', 'reach', 'power', 'persistence', 'fromCountryName'];
const panelFields = ['week', ...rankedFields];
const countryRowFields = ['personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)];
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

/** Weekly series longer than this are almost certainly a typo (a range across decades). */
const MAX_WEEKLY_WEEKS = 260;

async function weeklyWindows(
  ctx: Context,
  flags: WeekWindowFlags,
  fallback: string,
  info?: () => Promise<WeekInfoNumbers>,
): Promise<number[]> {
  const window = await resolveWindow(flags, () => ctx.client(), info);
  if (!window) throw new UsageError(`this needs a week window`, `add --weeks, e.g. --weeks ${fallback}`);
  const weeks = listWeeks(window.startWeek, window.endWeek);
  if (weeks.length > MAX_WEEKLY_WEEKS) {
    throw new UsageError(`${weeks.length} weeks is more than the ${MAX_WEEKLY_WEEKS} a weekly series takes`);
  }
  return weeks;
}

/** What a ranking is, for the line above its terminal table: `Top 50 people by mentions · weeks 202644–202647`. */
export function rankingCaption(count: number, sort: RankingFlags['sort'], window: WeekWindow | undefined): string {
  const metric = sort === 'dominance' ? 'dominance' : 'mentions';
  const weeks = !window ? '' : window.startWeek === window.endWeek ? ` · week ${window.startWeek}` : ` · weeks ${window.startWeek}–${window.endWeek}`;
  return `Top ${count} ${count === 1 ? 'person' : 'people'} by ${metric}${weeks}`;
}

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
  view: { fields: rankedFields, tableFields: rankedTableFields, chart: { label: 'fullName', value: 'mentionCount' } },
  // A panel has a leading week column (valid in --fields) and is not one ranking to chart.
  viewFor: ({ flags }) => (flags.perWeek ? { fields: panelFields, tableFields: ['week', ...rankedTableFields] } : undefined),
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const client = await ctx.client();
    const chart = { label: 'fullName', value: sortField(flags.sort) };
    if (!flags.perWeek) {
      const window = await resolveWindow(flags, () => ctx.client());
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

/** A terminal shows the metric the rankings are sorted by, and its change. */
function moverTableFields(sort: SortBy | undefined): string[] {
  const metric = sortField(sort);
  return ['rank', 'rankChange', 'fullName', metric, metric === 'dominance' ? 'dominanceChange' : 'mentionChange'];
}

const MOVER_FIELDS: readonly (keyof MoverRow)[] = [
  'rank', 'previousRank', 'rankChange', 'status', 'personHash', 'fullName', 'mentionCount', 'previousMentionCount',
  'mentionChange', 'dominance', 'previousDominance', 'dominanceChange', 'window', 'previousWindow',
];

const moverRankingFlags = rankingFlags('rows from the top of each ranking');

const moversView: ViewSpec = {
  fields: MOVER_FIELDS,
  tableFields: moverTableFields('mentions'),
  chart: { label: 'fullName', value: 'rankChange', diverging: true, fallback: 'status' },
};

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
  view: moversView,
  // The terminal's columns follow --sort: the metric ranked by, and its change.
  viewFor: ({ flags }) => ({ ...moversView, tableFields: moverTableFields(flags.sort) }),
  validate({ flags }) {
    validateRanking(flags);
    if (flags.depth < flags.limit) throw new UsageError(`--depth ${flags.depth} is below --limit ${flags.limit}`, 'the rankings must be read at least as deep as the rows shown');
    return flags;
  },
  async run(ctx, flags) {
    // Loaded here, not above: it brings lossless-json, which `people --help` has no use for.
    const { joinRankings, previousWindow, windowLabel } = await import('../movers.js');
    const client = () => ctx.client();
    // Both windows may be relative (--weeks last4 --vs last8): the week info is asked for once.
    const info = weekInfoOnce(client);
    const window = (await resolveWindow(flags, client, info)) ?? (await resolveWindow({ weeks: { kind: 'last4' } }, client, info))!;
    const comparison = flags.vs === 'previous' ? previousWindow(window) : (await resolveWindow({ weeks: flags.vs }, client, info))!;
    const params = { ...(await rankingParams(ctx, flags, undefined)), limit: flags.depth };
    const people = (await client()).people;
    const [current, previous] = await Promise.all([
      people.top({ ...params, ...window }),
      people.top({ ...params, ...comparison }),
    ]);
    const rows = joinRankings({ current, previous, window, comparison, limit: flags.limit });
    const sorted = flags.sort ? ` by ${flags.sort}` : '';
    const caption = `Ranks${sorted} in ${windowLabel(window)} against ${windowLabel(comparison)} (rankings read to ${flags.depth})`;
    return { data: rows, view: { caption } };
  },
});

const list = verb({
  name: 'list',
  summary: 'Every person the service tracks',
  examples: ['people list --fields personHash,fullName,countryName --format csv'],
  view: { fields: personFields, tableFields: ['personHash', 'fullName', 'countryName', 'category', 'birthDate'] },
  async run(ctx) {
    return { data: await (await ctx.client()).people.list() };
  },
});

const get = verb({
  name: 'get',
  summary: 'One person by personHash',
  args: ['<personHash>'],
  examples: ['people get chiamaka-okafor-6303'],
  view: { fields: personFields, single: true },
  async run(ctx, { args: [personHash] }) {
    return { data: await (await ctx.client()).people.get(personHash) };
  },
});

const search = verb({
  name: 'search',
  summary: 'Find people by free text, personHash or name',
  args: ['[query]'],
  flags: {
    hash: textFlag('--hash <personHash>', 'match the personHash'),
    name: textFlag('--name <fullName>', 'match the full name'),
    exact: switchFlag('--exact', 'the query or --name must match the whole name (or the personHash) exactly'),
    country: textFlag('--country <country>', 'only people from this country (id, ISO code, name or slug)'),
    gender: integerFlag('--gender <n>', 'only people of this gender code', { min: 0 }),
    limit: integerFlag('--limit <n>', 'at most this many people', BOUNDS.searchLimit),
  },
  examples: ['people search "okafor"', 'people search "Chiamaka Okafor" --exact', 'people search --name "Chiamaka Okafor" --exact', 'people search ana --country BR --limit 5'],
  view: { fields: personFields, tableFields: ['personHash', 'fullName', 'countryName', 'category', 'birthDate'] },
  validate({ args: [query], flags }) {
    if (!query && !flags.hash && !flags.name) {
      throw new UsageError('people search needs a query, --hash or --name');
    }
    return { query, flags };
  },
  async run(ctx, { query, flags }) {
    const client = await ctx.client();
    const countryId = await countryFlagId(flags.country, ctx);
    const data = await client.people.search({
      q: query,
      personHash: flags.hash,
      fullName: flags.name,
      exactName: flags.exact || undefined,
      countryId,
      gender: flags.gender,
      limit: flags.limit,
    });
    const asked = query ?? flags.name ?? flags.hash;
    return { data, view: { empty: `no people match "${asked}"` } };
  },
});

const links = verb({
  name: 'links',
  summary: 'A person\'s article links, newest first, with article, source and country context',
  args: ['<personHash>'],
  flags: {
    limit: integerFlag('--limit <n>', 'at most this many links', BOUNDS.linksLimit),
    context: negatedFlag('--no-context', 'only the link fields, without article, source and country context'),
  },
  examples: ['people links chiamaka-okafor-6303 --limit 20', 'people links chiamaka-okafor-6303 --format csv --output links.csv'],
  view: {
    fields: fieldsOf(personLinkSchema),
    tableFields: ['mentionDate', 'sourceName', 'countryIso', 'sentiment', 'articleTitle'],
  },
  // Without context a link has no article, source or country fields: --fields is checked against that.
  viewFor: ({ flags }) =>
    flags.context ? undefined : { fields: fieldsOf(personLinkBaseSchema), tableFields: ['mentionDate', 'sentiment', 'articleHash', 'snippet'] },
  async run(ctx, { args: [personHash], flags }) {
    return { data: await (await ctx.client()).people.links(personHash, { limit: flags.limit, includeContext: flags.context }) };
  },
});

const countries = verb({
  name: 'countries',
  summary: 'A person\'s statistics per country over a week window (country-stats)',
  args: ['<personHash>'],
  flags: weekWindowFlags,
  examples: ['people countries chiamaka-okafor-6303 --weeks last4', 'people countries chiamaka-okafor-6303 --weeks 202601..202647 --format csv'],
  view: {
    fields: countryRowFields,
    tableFields: ['countryName', 'countryIso', 'mentions', 'articles', 'localDominance', 'reach', 'power', 'sentiment'],
  },
  async run(ctx, { args: [personHash], flags }) {
    const window = await resolveWindow(flags, () => ctx.client());
    const data = await (await ctx.client()).people.countryStats(personHash, window ?? {});
    return { data, rows: countryStatsRows(personHash, data) };
  },
});

const trendView: ViewSpec = {
  fields: trendFields,
  chart: { label: 'week', value: 'mentions', style: 'line' },
  sparklines: ['mentions', 'globalSentiment'],
  countField: 'mentions',
};
/** Several people: long format, one row a person and week, the person after the week. */
const multiTrendFields = ['week', 'personHash', 'fullName', ...TREND_METRICS];
/** `people trend` without a window, as exports default to last4. */
const DEFAULT_TREND_WEEKS = 'last12';

/** What a trend covers, marking the current week as unfinished: its counts are still growing. */
export function trendCaption(personHashes: readonly string[], weeks: readonly number[], currentWeek: number): string {
  const span = weeks.length === 1 ? `week ${weeks[0]}` : `weeks ${weeks[0]}–${weeks.at(-1)}`;
  const partial = weeks.includes(currentWeek) ? ` · ${currentWeek} so far (partial)` : '';
  return `${personHashes.join(', ')} · ${span}${partial}`;
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
  view: trendView,
  // One person: a row a week. Several: a row a person and week, one chart line each, named in a legend.
  viewFor: ({ args: [personHashes], flags }) => {
    const chart = { label: 'week', value: flags.metric, style: 'line' as const };
    return new Set(personHashes).size > 1
      ? {
          ...trendView,
          fields: multiTrendFields,
          tableFields: ['week', 'fullName', 'mentions', 'globalDominance', 'globalSentiment', 'globalReach'],
          sparklines: [],
          chart: { ...chart, series: 'personHash', seriesName: 'fullName' },
        }
      : { ...trendView, chart };
  },
  async run(ctx, { args: [personHashes], flags }) {
    // A trend is about weeks, so it always has a window: last12 unless asked otherwise.
    const given = flags.weeks !== undefined || flags.start !== undefined || flags.end !== undefined;
    // The window and the caption's current week share one request for the week info.
    const info = weekInfoOnce(() => ctx.client());
    const weeks = await weeklyWindows(ctx, given ? flags : { weeks: parseWeekSpec(DEFAULT_TREND_WEEKS) }, DEFAULT_TREND_WEEKS, info);
    const client = await ctx.client();
    const people = [...new Set(personHashes)];
    // Fail on an unknown person with one 404 naming them, before any weekly request.
    const persons = (await mapInOrder(people, DEFAULT_CONCURRENCY, (personHash) => client.people.get(personHash))) as Row[];
    const pairs = weeks.flatMap((week) => people.map((personHash, index) => ({ week, personHash, fullName: persons[index]!.fullName })));
    const [rows, { currentWeek }] = await Promise.all([
      mapInOrder(pairs, DEFAULT_CONCURRENCY, async ({ week, personHash, fullName }) => {
        const row = trendRow(week, await client.people.countryStats(personHash, { startWeek: week, endWeek: week }));
        return people.length === 1 ? row : { week, personHash, fullName, ...row };
      }),
      info(),
    ]);
    return { data: rows, view: { caption: trendCaption(people, weeks, currentWeek) } };
  },
});

const people: NounVerbs = { verbs: [top, movers, list, get, search, links, countries, trend] };

export default people;
