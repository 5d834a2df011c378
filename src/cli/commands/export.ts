import { BOUNDS, fieldsOf, personCountryRowSchema, personLinkBaseSchema, personLinkSchema } from '../../api/types.js';
import { concurrencyFlag, forEachInOrder } from '../concurrency.js';
import type { Context } from '../context.js';
import { integerFlag, negatedFlag, weekWindowFlags, withDefault } from '../options.js';
import { startProgress } from '../progress.js';
import { rankingFlags, rankingParams, validateRanking } from '../ranking.js';
import { rankedCountryStatsRows, rankedLinkRows } from '../rows.js';
import { verb, type FlagValues, type NounVerbs, type Row } from '../spec.js';
import { resolveWindow } from '../week-window.js';

/** --top and --limit mean the same thing here; --limit stays for links, where it counts links. */
const { limit: _rankingLimit, ...rankingFilters } = rankingFlags();
const bulkFlags = {
  ...weekWindowFlags,
  top: withDefault(integerFlag('--top <n>', 'how many people, from the top of the ranking', { min: 1, max: 10_000 }), 10),
  concurrency: concurrencyFlag,
  ...rankingFilters,
};

type BulkFlags = FlagValues<typeof bulkFlags>;

/**
 * The ranking that decides who is exported, over an explicit window: without --weeks the service's
 * last-4 window is pinned once, so the ranking and every per-person request agree on the weeks.
 */
async function rankedPeople(ctx: Context, flags: BulkFlags) {
  // A bulk export parses hundreds of bodies whose rows live only until they are written, yet V8 lets
  // the heap grow to ~60 MiB of mostly garbage before collecting: 115-120 MiB peak RSS for 480
  // people's links. Optimising for size keeps the peak near 90 MiB, flat from 50 to 480 people, for
  // about 30% more CPU time on loopback, where the CPU is the bottleneck (bench:export-memory).
  await ctx.tuneV8('--optimize-for-size');
  const client = await ctx.client({ concurrency: flags.concurrency });
  const window = (await resolveWindow(flags, async () => client)) ?? (await resolveWindow({ weeks: { kind: 'last4' } }, async () => client))!;
  const answer = (await client.people.top({ ...(await rankingParams(ctx, flags, window)), limit: flags.top })) as Row[];
  // --top N is ours to keep: a service that sends more would otherwise multiply the requests that follow.
  const ranking = answer.slice(0, flags.top);
  return { client, window, ranking };
}

/** Runs one request per ranked person, at most --concurrency at once, emitting rows in rank order. */
async function exportPerPerson(
  ctx: Context,
  label: string,
  ranking: Row[],
  concurrency: number,
  fetchRows: (person: Row) => Promise<Row[]>,
  emit: (row: Row) => Promise<void>,
): Promise<void> {
  const progress = startProgress(ctx, label, ranking.length);
  try {
    await forEachInOrder(ranking, concurrency, fetchRows, async (rows) => {
      for (const row of rows) await emit(row);
      progress.tick();
    });
  } finally {
    progress.done();
  }
}

const countryStats = verb({
  name: 'country-stats',
  summary: 'Per-country statistics of the top N people, one row a person and country, in rank order',
  flags: bulkFlags,
  examples: [
    'export country-stats --top 200 --weeks last4 --output country-stats.csv',
    'export country-stats --top 50 --weeks 202636..202647 --from-country DE --format ndjson',
  ],
  view: {
    fields: ['rank', 'fullName', 'personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)],
    tableFields: ['rank', 'fullName', 'countryIso', 'mentions', 'localDominance', 'sentiment'],
  },
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const { client, window, ranking } = await rankedPeople(ctx, flags);
    return {
      stream: (emit) =>
        exportPerPerson(ctx, 'country-stats', ranking, flags.concurrency, async (person) => {
          const stats = (await client.people.countryStats(String(person.personHash), window)) as Row;
          return rankedCountryStatsRows(person, stats);
        }, emit),
    };
  },
});

const linksView = {
  fields: ['rank', 'fullName', ...fieldsOf(personLinkSchema)],
  tableFields: ['rank', 'fullName', 'mentionDate', 'sourceName', 'articleTitle'],
};

const links = verb({
  name: 'links',
  summary: 'Article links of the top N people, newest first per person, in rank order',
  flags: {
    ...bulkFlags,
    limit: integerFlag('--limit <n>', 'links per person', BOUNDS.linksLimit),
    context: negatedFlag('--no-context', 'only the link fields, without article, source and country context'),
  },
  examples: ['export links --top 20 --weeks last4 --limit 50 --output links.csv'],
  view: linksView,
  // Without context a link has no article, source or country fields: --fields is checked against that.
  viewFor: ({ flags }) => (flags.context ? undefined : { ...linksView, fields: ['rank', 'fullName', ...fieldsOf(personLinkBaseSchema)] }),
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const { client, ranking } = await rankedPeople(ctx, flags);
    return {
      stream: (emit) =>
        exportPerPerson(ctx, 'links', ranking, flags.concurrency, async (person) => {
          const personLinks = (await client.people.links(String(person.personHash), {
            limit: flags.limit,
            includeContext: flags.context,
          })) as Row[];
          return rankedLinkRows(person, personLinks);
        }, emit),
    };
  },
});

const exportNoun: NounVerbs = { verbs: [countryStats, links] };

export default exportNoun;
