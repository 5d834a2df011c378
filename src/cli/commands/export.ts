import { Option } from 'commander';
import { setFlagsFromString } from 'node:v8';
import { BOUNDS, fieldsOf, personCountryRowSchema, personLinkBaseSchema, personLinkSchema } from '../../api/types.js';
import { DEFAULT_CONCURRENCY, forEachInOrder } from '../concurrency.js';
import type { Context, WeekWindowFlags } from '../context.js';
import { integerOption, weekWindowOptions } from '../options.js';
import { startProgress } from '../progress.js';
import { rankingOptions, rankingParams, validateRanking, type RankingFlags } from '../ranking.js';
import { verb, type NounSpec, type Row } from '../spec.js';
import { countryStatsRows } from './people.js';

type BulkFlags = RankingFlags & WeekWindowFlags & { top: number; concurrency: number };

/** --top and --limit mean the same thing here; --limit stays for links, where it counts links. */
function bulkOptions(): Option[] {
  return [
    ...weekWindowOptions(),
    integerOption('--top <n>', 'how many people, from the top of the ranking', { min: 1, max: 10_000 }).default(10),
    integerOption('--concurrency <n>', 'requests in flight, over as many keep-alive connections', { min: 1, max: 32 }).default(DEFAULT_CONCURRENCY),
    ...rankingOptions().filter((option) => option.long !== '--limit'),
  ];
}

/**
 * The ranking that decides who is exported, over an explicit window: without --weeks the service's
 * last-4 window is pinned once, so the ranking and every per-person request agree on the weeks.
 */
async function rankedPeople(ctx: Context, flags: BulkFlags) {
  // A bulk export parses hundreds of bodies whose rows live only until they are written, yet V8 lets
  // the heap grow to ~60 MiB of mostly garbage before collecting: 115-120 MiB peak RSS for 480
  // people's links. Optimising for size keeps the peak near 90 MiB, flat from 50 to 480 people, for
  // about 30% more CPU time on loopback, where the CPU is the bottleneck (bench:export-memory).
  setFlagsFromString('--optimize-for-size');
  ctx.setConcurrency(flags.concurrency);
  const window = (await ctx.resolveWindow(flags)) ?? (await ctx.resolveWindow({ weeks: { kind: 'last4' } }))!;
  const client = await ctx.client();
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

const countryStats = verb<BulkFlags>({
  name: 'country-stats',
  summary: 'Per-country statistics of the top N people, one row a person and country, in rank order',
  options: bulkOptions,
  examples: [
    'export country-stats --top 200 --weeks last4 --output country-stats.csv',
    'export country-stats --top 50 --weeks 202636..202647 --from-country DE --format ndjson',
  ],
  view: {
    fields: ['rank', 'fullName', 'personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)],
    tableFields: ['rank', 'fullName', 'countryIso', 'mentions', 'localDominance', 'sentiment'],
  },
  validate: (_args, flags) => validateRanking(flags),
  async run(ctx, _args, flags) {
    const { client, window, ranking } = await rankedPeople(ctx, flags);
    return {
      stream: (emit) =>
        exportPerPerson(ctx, 'country-stats', ranking, flags.concurrency, async (person) => {
          const personHash = String(person.personHash);
          const stats = (await client.people.countryStats(personHash, window)) as Row;
          return countryStatsRows(personHash, stats).map((row) => ({ rank: person.rank, fullName: person.fullName, ...row }));
        }, emit),
    };
  },
});

type LinksFlags = BulkFlags & { limit?: number; context: boolean };

const links = verb<LinksFlags>({
  name: 'links',
  summary: 'Article links of the top N people, newest first per person, in rank order',
  options: () => [
    ...bulkOptions(),
    integerOption('--limit <n>', 'links per person', BOUNDS.linksLimit),
    new Option('--no-context', 'only the link fields, without article, source and country context'),
  ],
  examples: ['export links --top 20 --weeks last4 --limit 50 --output links.csv'],
  view: {
    fields: ['rank', 'fullName', ...fieldsOf(personLinkSchema)],
    tableFields: ['rank', 'fullName', 'mentionDate', 'sourceName', 'articleTitle'],
  },
  validate: (_args, flags) => validateRanking(flags),
  async run(ctx, _args, flags) {
    const { client, ranking } = await rankedPeople(ctx, flags);
    return {
      view: flags.context ? {} : { fields: ['rank', 'fullName', ...fieldsOf(personLinkBaseSchema)] },
      stream: (emit) =>
        exportPerPerson(ctx, 'links', ranking, flags.concurrency, async (person) => {
          const personLinks = (await client.people.links(String(person.personHash), {
            limit: flags.limit,
            includeContext: flags.context,
          })) as Row[];
          return personLinks.map((link) => ({ rank: person.rank, fullName: person.fullName, ...link }));
        }, emit),
    };
  },
});

const exportNoun: NounSpec = {
  name: 'export',
  summary: 'Bulk exports over the top N people: country stats, article links',
  verbs: [countryStats, links],
};

export default exportNoun;
