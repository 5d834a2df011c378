import { Option } from 'commander';
import { articleBaseSchema, articleSchema, articleStatsSchema, BOUNDS, fieldsOf } from '../../api/types.js';
import { UsageError } from '../errors.js';
import { integerOption } from '../options.js';
import { verb, type NounSpec } from '../spec.js';

const recent = verb<{ limit?: number; sourceContext: boolean }>({
  name: 'recent',
  summary: 'The most recent articles, with their source and country',
  options: () => [
    integerOption('--limit <n>', 'how many articles', BOUNDS.articlesLimit),
    new Option('--no-source-context', 'without the source and country fields'),
  ],
  examples: ['articles recent --limit 100', 'articles recent --limit 500 --format ndjson | jq -r .url'],
  view: { fields: fieldsOf(articleSchema), tableFields: ['articleHash', 'sourceName', 'countryIso', 'title'] },
  async run(ctx, _args, flags) {
    const data = await (await ctx.client()).articles.recent({ limit: flags.limit, includeSourceContext: flags.sourceContext });
    if (flags.sourceContext) return { data };
    return { data, view: { fields: fieldsOf(articleBaseSchema), tableFields: ['articleHash', 'sourceId', 'title'] } };
  },
});

const stats = verb<{ days?: number; allTime?: boolean }>({
  name: 'stats',
  summary: 'Counts of articles, sources and countries over the last N days or all time',
  options: () => [
    integerOption('--days <n>', 'the rolling window in days', BOUNDS.statsDays),
    new Option('--all-time', 'count everything the service holds').conflicts('days'),
  ],
  examples: ['articles stats --days 7', 'articles stats --all-time -f json'],
  view: { fields: fieldsOf(articleStatsSchema), single: true },
  validate(_args, flags) {
    if (flags.allTime && flags.days !== undefined) throw new UsageError('--days and --all-time exclude each other');
  },
  async run(ctx, _args, flags) {
    const client = await ctx.client();
    if (flags.allTime) {
      return { data: await client.articles.statsAllTime(), view: { fields: fieldsOf(articleStatsSchema).slice(1) } };
    }
    return { data: await client.articles.stats({ days: flags.days }) };
  },
});

const articles: NounSpec = { name: 'articles', summary: 'Recent articles and article counts', verbs: [recent, stats] };

export default articles;
