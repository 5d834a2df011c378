import { articleBaseSchema, articleSchema, articleStatsSchema, BOUNDS, fieldsOf } from '../../api/types.js';
import { UsageError } from '../run/errors.js';
import { configured, integerFlag, negatedFlag, switchFlag } from '../flags/options.js';
import { verb, type NounVerbs } from '../run/spec.js';

const recent = verb({
  name: 'recent',
  summary: 'The most recent articles, with their source and country',
  flags: {
    limit: integerFlag('--limit <n>', 'how many articles', BOUNDS.articlesLimit),
    sourceContext: negatedFlag('--no-source-context', 'without the source and country fields'),
  },
  examples: ['articles recent --limit 100', 'articles recent --limit 500 --format ndjson | jq -r .url'],
  view: ({ flags }) =>
    flags.sourceContext
      ? { fields: fieldsOf(articleSchema), tableFields: ['articleHash', 'sourceName', 'countryIso', 'title'] }
      : { fields: fieldsOf(articleBaseSchema), tableFields: ['articleHash', 'sourceId', 'title'] },
  async run(ctx, { flags }) {
    return { data: await (await ctx.deps.client()).articles.recent({ limit: flags.limit, includeSourceContext: flags.sourceContext }) };
  },
});

const stats = verb({
  name: 'stats',
  summary: 'Counts of articles, sources and countries over the last N days or all time',
  flags: {
    days: integerFlag('--days <n>', 'the rolling window in days', BOUNDS.statsDays),
    allTime: configured(switchFlag('--all-time', 'count everything the service holds'), (option) => option.conflicts('days')),
  },
  examples: ['articles stats --days 7', 'articles stats --all-time -f json'],
  // All-time counts have no `days` field.
  view: ({ flags }) => ({ fields: flags.allTime ? fieldsOf(articleStatsSchema).slice(1) : fieldsOf(articleStatsSchema), single: true }),
  validate({ flags }) {
    if (flags.allTime && flags.days !== undefined) throw new UsageError('--days and --all-time exclude each other');
    return flags;
  },
  async run(ctx, flags) {
    const client = await ctx.deps.client();
    if (flags.allTime) return { data: await client.articles.statsAllTime() };
    return { data: await client.articles.stats({ days: flags.days }) };
  },
});

const articles: NounVerbs = { verbs: [recent, stats] };

export default articles;
