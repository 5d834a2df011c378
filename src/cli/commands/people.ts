import {
  BOUNDS,
  fieldsOf,
  personCountryRowSchema,
  personLinkBaseSchema,
  personLinkSchema,
  personSchema,
  personStatsSchema,
} from '../../api/types.js';
import { listWeeks } from '../../weeks.js';
import { DEFAULT_CONCURRENCY, mapInOrder } from '../concurrency.js';
import type { Context } from '../context.js';
import { resolveCountryId } from '../country-match.js';
import { UsageError } from '../errors.js';
import { choiceFlag, integerFlag, negatedFlag, switchFlag, textFlag, weekWindowFlags, withDefault, type WeekWindowFlags } from '../options.js';
import { rankingFlags, rankingParams, sortField, validateRanking } from '../ranking.js';
import { countryStatsRows, trendRow } from '../rows.js';
import { verb, type NounVerbs, type Row } from '../spec.js';
import { resolveWindow } from '../week-window.js';

const personFields = fieldsOf(personSchema);
const rankedFields = fieldsOf(personStatsSchema);
const rankedTableFields = ['rank', 'fullName', 'mentionCount', 'dominance', 'sentiment', 'persistence', 'reach', 'power', 'fromCountryName'];
const panelFields = ['week', ...rankedFields];
const countryRowFields = ['personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)];
const trendFields = ['week', 'mentions', 'globalDominance', 'globalSentiment', 'globalReach', 'globalPower', 'persistence', 'countries'];
const TREND_METRICS = trendFields.slice(1);

/** Weekly series longer than this are almost certainly a typo (a range across decades). */
const MAX_WEEKLY_WEEKS = 260;

async function weeklyWindows(ctx: Context, flags: WeekWindowFlags, fallback: string): Promise<number[]> {
  const window = await resolveWindow(flags, () => ctx.client());
  if (!window) throw new UsageError(`this needs a week window`, `add --weeks, e.g. --weeks ${fallback}`);
  const weeks = listWeeks(window.startWeek, window.endWeek);
  if (weeks.length > MAX_WEEKLY_WEEKS) {
    throw new UsageError(`${weeks.length} weeks is more than the ${MAX_WEEKLY_WEEKS} a weekly series takes`);
  }
  return weeks;
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
      return { data, view: { chart } };
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
    exact: switchFlag('--exact', 'the name must match exactly'),
    country: textFlag('--country <country>', 'only people from this country (id, ISO code, name or slug)'),
    gender: integerFlag('--gender <n>', 'only people of this gender code', { min: 0 }),
    limit: integerFlag('--limit <n>', 'at most this many people', BOUNDS.searchLimit),
  },
  examples: ['people search "okafor"', 'people search --name "Chiamaka Okafor" --exact', 'people search ana --country BR --limit 5'],
  view: { fields: personFields, tableFields: ['personHash', 'fullName', 'countryName', 'category', 'birthDate'] },
  validate({ args: [query], flags }) {
    if (!query && !flags.hash && !flags.name) {
      throw new UsageError('people search needs a query, --hash or --name');
    }
    if (flags.exact && !flags.name) throw new UsageError('--exact goes with --name');
    return { query, flags };
  },
  async run(ctx, { query, flags }) {
    const client = await ctx.client();
    const countryId = flags.country === undefined ? undefined : await resolveCountryId(flags.country, ctx);
    const data = await client.people.search({
      q: query,
      personHash: flags.hash,
      fullName: flags.name,
      exactName: flags.exact || undefined,
      countryId,
      gender: flags.gender,
      limit: flags.limit,
    });
    return { data };
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

const trend = verb({
  name: 'trend',
  summary: 'A person\'s week-by-week mentions, dominance, sentiment, reach, power and persistence',
  args: ['<personHash>'],
  flags: {
    ...weekWindowFlags,
    metric: withDefault(choiceFlag('--metric <name>', 'what --format chart draws', TREND_METRICS), 'mentions'),
  },
  examples: ['people trend chiamaka-okafor-6303 --weeks last12', 'people trend chiamaka-okafor-6303 --weeks last26 --format chart --metric globalSentiment'],
  view: { fields: trendFields, chart: { label: 'week', value: 'mentions', style: 'line' }, sparklines: ['mentions', 'globalSentiment'] },
  async run(ctx, { args: [personHash], flags }) {
    const weeks = await weeklyWindows(ctx, flags, 'last12');
    const client = await ctx.client();
    // Fail on an unknown person with one 404, not one per week.
    await client.people.get(personHash);
    const rows = await mapInOrder(weeks, DEFAULT_CONCURRENCY, async (week) =>
      trendRow(week, (await client.people.countryStats(personHash, { startWeek: week, endWeek: week })) as Row),
    );
    return { data: rows, view: { chart: { label: 'week', value: flags.metric, style: 'line' } } };
  },
});

const people: NounVerbs = { verbs: [top, list, get, search, links, countries, trend] };

export default people;
