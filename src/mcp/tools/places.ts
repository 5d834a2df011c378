/**
 * Questions about where news comes from: countries (how much the world writes about a country, how
 * much its own press writes about itself) and news sources (which there are, what their homepages link).
 */
import * as z from 'zod';
import { countrySchema, domesticFocusSchema, internationalAttentionSchema, sourceSchema } from '../../api/types.js';
import { digits, toMcpRecord } from '../exact.js';
import { contractRecord, pageSchema, windowSchema } from '../schemas.js';
import { lines, moreText } from '../text.js';
import { page, pageStart, tool } from '../tool.js';
import { weekInfo, windowOf, windowText } from '../window.js';
import { countryInput, cursorInput, limitInput, weeksInput } from './inputs.js';

const MAX_COUNTRIES = 10;

const countryFocusSchema = z.looseObject({
  country: contractRecord(countrySchema),
  internationalAttention: contractRecord(internationalAttentionSchema),
  domesticFocus: contractRecord(domesticFocusSchema),
});

export const countryAttention = tool({
  name: 'country_attention',
  title: 'How much a country is in the news',
  description: `For one or more countries (up to ${MAX_COUNTRIES}): international attention (percentage: the share, in percent, of the world's news about the country, with its rank out of outOf countries and the median) and domestic focus over a week window (focusPercent: the share of the country's own news about itself, with rank, outOf and median). Use it for "how much is the world talking about Brazil" or "is Japan's press inward-looking". Countries by ISO code, name or id.`,
  input: {
    countries: z.array(z.string().min(1)).min(1).max(MAX_COUNTRIES).describe('countries: ISO codes (DE), English names (Germany), slugs or ids'),
    weeks: weeksInput('last4'),
  },
  output: {
    window: windowSchema,
    countries: z.array(countryFocusSchema),
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const [info, ids] = await Promise.all([weekInfo(client, call), Promise.all(args.countries.map((text) => deps.countryId(text)))]);
    const window = windowOf(args.weeks ?? 'last4', info);
    let done = 0;
    const rows = await Promise.all([...new Set(ids)].map(async (countryId) => {
      const [country, attention, focus] = await Promise.all([
        client.countries.get(countryId, call.options),
        client.countries.attention(countryId, call.options),
        client.countries.focus(countryId, { startWeek: window.startWeek, endWeek: window.endWeek }, call.options),
      ]);
      await call.progress((done += 1), ids.length);
      return { country, internationalAttention: attention, domesticFocus: focus };
    }));
    const text = lines(
      `Attention and domestic focus (${windowText(window)}):`,
      rows.map(({ country, internationalAttention: attention, domesticFocus: focus }) =>
        `- ${String(country.countryName ?? country.countryIso ?? digits(country.countryId))} (${String(country.countryIso ?? '')}): international attention ${digits(attention.percentage)}% (rank ${digits(attention.rank)} of ${digits(attention.outOf)}, median ${digits(attention.median)}%); domestic focus ${digits(focus.focusPercent)}% (rank ${digits(focus.rank)} of ${digits(focus.outOf)}, median ${digits(focus.median)}%)`),
    );
    return { structured: { window, countries: rows.map((row) => toMcpRecord(row) as z.infer<typeof countryFocusSchema>) }, text };
  },
});

export const listCountries = tool({
  name: 'list_countries',
  title: 'Countries',
  description: 'The countries the service covers, with their ids and ISO codes, optionally those whose name or code contains some text. Use it to find a country\'s id or code.',
  input: {
    contains: z.string().optional().describe('only countries whose name or ISO code contains this text (any case)'),
    limit: limitInput('countries per page', 100, 100),
    cursor: cursorInput,
  },
  output: {
    countries: z.array(contractRecord(countrySchema)),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const all = (await client.countries.list(call.options)) as Array<Record<string, unknown>>;
    const needle = args.contains?.trim().toLowerCase() ?? '';
    const matching = all.filter((country) => needle === '' || [country.countryName, country.countryIso].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle)));
    const { items, nextCursor } = page(matching, pageStart(args.cursor), args.limit ?? 100);
    const text = lines(
      `${matching.length} ${matching.length === 1 ? 'country' : 'countries'}${needle ? ` matching "${args.contains}"` : ''}:`,
      items.map((country) => `- ${String(country.countryName)} (${String(country.countryIso)}, id ${digits(country.countryId)})`),
      moreText(nextCursor, 'countries'),
    );
    return { structured: { countries: items.map(toMcpRecord), ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

export const listSources = tool({
  name: 'list_sources',
  title: 'News sources',
  description: 'The news sources the service reads (name, homepage URL, country, status, the regular expression that picks article links from the homepage), optionally of one country or whose name contains some text. Use it to find a sourceId for source_links.',
  input: {
    country: countryInput('only sources of this country'),
    contains: z.string().optional().describe('only sources whose name or URL contains this text (any case)'),
    limit: limitInput('sources per page', 100, 20),
    cursor: cursorInput,
  },
  output: {
    sources: z.array(contractRecord(sourceSchema)),
    total: z.number().int().describe('how many sources match'),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const countryId = args.country === undefined ? undefined : await deps.countryId(args.country);
    const all = (await client.sources.list({ countryId }, call.options)) as Array<Record<string, unknown>>;
    const needle = args.contains?.trim().toLowerCase() ?? '';
    const matching = all.filter((source) => needle === '' || [source.name, source.url].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle)));
    const { items, nextCursor } = page(matching, pageStart(args.cursor), args.limit ?? 20);
    const text = lines(
      `${matching.length} ${matching.length === 1 ? 'source' : 'sources'}${args.country ? ` in ${args.country}` : ''}${needle ? ` matching "${args.contains}"` : ''}:`,
      items.map((source) => `- ${String(source.name)} (sourceId ${digits(source.sourceId)}, ${String(source.url ?? '')}), ${String(source.status ?? 'status unknown')}`),
      moreText(nextCursor, 'sources'),
    );
    return { structured: { sources: items.map(toMcpRecord), total: matching.length, ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

export const sourceLinks = tool({
  name: 'source_links',
  title: 'Links on a source\'s homepage',
  description: 'The links on a news source\'s homepage right now, split by the source\'s link filter into matched (article links the service follows) and unmatched. Use it to see what a source is publishing, or why its articles are or are not counted.',
  input: {
    sourceId: z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).describe('the source\'s id (list_sources gives it)'),
    which: z.enum(['matched', 'unmatched', 'all']).optional().describe('which links to list (default matched)'),
    limit: limitInput('links per page', 200, 50),
    cursor: cursorInput,
  },
  output: {
    source: z.looseObject({ sourceId: z.string().nullable().optional(), name: z.string().nullable().optional() }),
    counts: z.object({ all: z.number().int(), matched: z.number().int(), unmatched: z.number().int() }),
    which: z.enum(['matched', 'unmatched', 'all']),
    links: z.array(z.string().nullable()),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const answer = (await client.sources.links(Number(args.sourceId), {}, call.options)) as Record<string, unknown>;
    const list = (field: string) => (Array.isArray(answer[field]) ? (answer[field] as Array<string | null>) : []);
    const which = args.which ?? 'matched';
    const links = list(which === 'all' ? 'allLinks' : which === 'matched' ? 'matchedLinks' : 'unmatchedLinks');
    const { items, nextCursor } = page(links, pageStart(args.cursor), args.limit ?? 50);
    const source = toMcpRecord(answer.source ?? {});
    const counts = { all: list('allLinks').length, matched: list('matchedLinks').length, unmatched: list('unmatchedLinks').length };
    const text = lines(
      `${String(source.name ?? `source ${String(args.sourceId)}`)}: ${counts.all} links on its homepage, ${counts.matched} matched by its filter, ${counts.unmatched} not. ${which === 'all' ? 'All' : which === 'matched' ? 'Matched' : 'Unmatched'}:`,
      items.map((url) => `- ${String(url)}`),
      moreText(nextCursor, 'links'),
    );
    return { structured: { source, counts, which, links: items, ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

