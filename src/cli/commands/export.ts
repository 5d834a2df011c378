import { BOUNDS, fieldsOf, personCountryRowSchema, personLinkBaseSchema, personLinkSchema } from '../../api/types.js';
import { concurrencyFlag } from '../flags/concurrency.js';
import type { Context } from '../run/spec.js';
import { integerFlag, negatedFlag, weekWindowFlags, withDefault } from '../flags/options.js';
import type { Progress } from '../run/progress.js';
import { rankingFlags, rankingParams, validateRanking } from '../flags/ranking.js';
import { rankedCountryStatsRows, rankedLinkRows } from '../../output/rows.js';
import { verb, type FlagValues, type NounVerbs, type Row } from '../run/spec.js';
import { resolveWindow } from '../flags/week-window.js';

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
 * The export's parameters for the library: the ranking filters over an explicit window when --weeks,
 * --start/--end give one (else the library pins the service's last-4 window once, so the ranking and
 * every per-person request agree on the weeks), and a progress bar started once the ranking is known.
 */
async function exportParams(ctx: Context, flags: BulkFlags, label: string) {
  // Before the client, unlike sync (whose peak is its merge's): set after it, so that undici's chunk
  // is cached (Lifecycle.tuneV8), `export links --top 20 --limit 50` took 10% less CPU but peaked 3-4
  // MiB higher (80 against 76 MiB, 10 alternating runs on Node 24).
  await ctx.lifecycle.tuneHeapForBulk();
  const client = await ctx.deps.client({ concurrency: flags.concurrency, bulk: true });
  // Whole weeks unless asked otherwise (#31): a file of a week still going would be silently partial.
  const window = await resolveWindow(flags, () => ctx.deps.weekInfo(), ctx.report, { kind: 'complete', count: 4 });
  const { limit: _limit, ...filters } = await rankingParams(ctx, flags, window);
  let progress: Progress | undefined;
  const params = {
    ...filters,
    top: flags.top,
    concurrency: flags.concurrency,
    onRanking: ({ people }: { people: unknown[] }) => {
      progress = ctx.report.progress(label, people.length);
    },
  };
  return { client, params, tick: () => progress?.tick(), done: () => progress?.done() };
}

/** Emits each item's rows in rank order, ticking the progress bar a person at a time. */
async function emitAll<Item>(items: AsyncIterable<Item>, rowsOf: (item: Item) => Row[], emit: (row: Row) => Promise<void>, progress: { tick(): void; done(): void }) {
  try {
    for await (const item of items) {
      for (const row of rowsOf(item)) await emit(row);
      progress.tick();
    }
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
    const run = await exportParams(ctx, flags, 'country-stats');
    return {
      stream: (emit) => emitAll(run.client.export.countryStats(run.params), ({ person, countryStats: stats }) =>
        rankedCountryStatsRows(person as Row, stats as Row), emit, run),
    };
  },
});

const links = verb({
  name: 'links',
  summary: 'Article links of the top N people, newest first per person, in rank order',
  flags: {
    ...bulkFlags,
    limit: integerFlag('--limit <n>', 'links per person', BOUNDS.linksLimit),
    context: negatedFlag('--no-context', 'only the link fields, without article, source and country context'),
  },
  examples: ['export links --top 20 --weeks last4 --limit 50 --output links.csv'],
  // Without context a link has no article, source or country fields: --fields is checked against that.
  view: ({ flags }) => ({
    fields: ['rank', 'fullName', ...fieldsOf(flags.context ? personLinkSchema : personLinkBaseSchema)],
    tableFields: ['rank', 'fullName', 'mentionDate', 'sourceName', 'articleTitle'],
  }),
  validate: ({ flags }) => {
    validateRanking(flags);
    return flags;
  },
  async run(ctx, flags) {
    const run = await exportParams(ctx, flags, 'links');
    const items = run.client.export.links({ ...run.params, limit: flags.limit, includeContext: flags.context });
    return {
      stream: (emit) => emitAll(items, ({ person, links: personLinks }) => rankedLinkRows(person as Row, personLinks as Row[]), emit, run),
    };
  },
});

const exportNoun: NounVerbs = { verbs: [countryStats, links] };

export default exportNoun;
