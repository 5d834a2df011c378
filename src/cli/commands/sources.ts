import { fieldsOf, sourceSchema } from '../../api/types.js';
import type { CachedListName } from '../run/cache.js';
import { countryFlagId } from '../flags/country-flag.js';
import { countryFlag, negatedFlag, parseIdArgument } from '../flags/options.js';
import { sourceLinkRows } from '../../output/rows.js';
import { verb, type NounVerbs } from '../run/spec.js';

const list = verb({
  name: 'list',
  summary: 'News sources, optionally of one country',
  flags: { country: countryFlag('--country <country>', 'only sources of this country (id, ISO code, name or slug)') },
  examples: ['sources list --country DE', 'sources list --fields sourceId,name,url --format tsv'],
  view: { fields: fieldsOf(sourceSchema), tableFields: ['sourceId', 'name', 'url', 'countryId', 'status', 'lastCheckedDate'] },
  async run(ctx, { flags }) {
    const client = await ctx.deps.client();
    const countryId = await countryFlagId(flags.country, ctx.deps);
    const name: CachedListName = countryId === undefined ? 'sources' : `sources-${countryId}`;
    return { data: await ctx.deps.cachedList(name, () => client.sources.list({ countryId })) };
  },
});

const get = verb({
  name: 'get',
  summary: 'One source by sourceId',
  args: ['<sourceId>'],
  examples: ['sources get 17'],
  view: { fields: fieldsOf(sourceSchema), single: true },
  validate: ({ args: [sourceId] }) => parseIdArgument('sourceId', sourceId),
  async run(ctx, sourceId) {
    return { data: await (await ctx.deps.client()).sources.get(sourceId) };
  },
});

const links = verb({
  name: 'links',
  summary: 'Links on a source\'s homepage, split by the source\'s link filter',
  args: ['<sourceId>'],
  flags: { filter: negatedFlag('--no-filter', 'do not apply the source\'s link filter') },
  examples: ['sources links 17', 'sources links 17 --format csv --fields url,matched'],
  view: { fields: ['sourceId', 'sourceName', 'url', 'matched'], tableFields: ['matched', 'url'] },
  validate: ({ args: [sourceId], flags }) => ({ sourceId: parseIdArgument('sourceId', sourceId), flags }),
  async run(ctx, { sourceId, flags }) {
    const data = await (await ctx.deps.client()).sources.links(sourceId, { applyFilter: flags.filter });
    return { data, rows: sourceLinkRows(data) };
  },
});

const sources: NounVerbs = { verbs: [list, get, links] };

export default sources;
