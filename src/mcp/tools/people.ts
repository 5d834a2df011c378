/**
 * Questions about people: who ranks highest over a window, who someone is and how they are covered,
 * what was written about them, and finding their personHash by name.
 */
import * as z from 'zod';
import { hasSearchTerm } from '../../api/resources/people.js';
import { BOUNDS, personCountryRowSchema, personLinkSchema, personSchema, personStatsSchema } from '../../api/types.js';
import { trendRow } from '../../output/rows.js';
import { numeric, toMcpRecord } from '../exact.js';
import { ToolInputError } from '../errors.js';
import { contractRecord, maybeNumber, pageSchema, windowSchema } from '../schemas.js';
import { COUNTRY_ROW_METRICS, GLOBAL_METRICS, lines, metrics, moreText, personLabel, RANKED_METRICS } from '../text.js';
import { page, pageOfLatest, pageStart, tool } from '../tool.js';
import { weekInfo, windowOf, windowText } from '../window.js';
import { countryInput, cursorInput, filtersText, limitInput, rankingInput, rankingQuery, weeksInput } from './inputs.js';

/** The deepest the ranked list is read for paging: the contract gives no bound; the sandbox's is 1000. */
const RANKING_DEPTH = 1000;

const METRICS_MEANING = 'mentions: how many times the person was mentioned in news articles in the window; dominance: their share, in percent, of all mentions of all people (everyone\'s dominance adds up to 100); reach: the share, in percent, of the world\'s population whose press mentioned them; power: dominance weighted by the economic weight of the countries that mentioned them; sentiment: the mean tone of the mentions, from -1 (negative) to 1 (positive); persistence: in how many weeks of the window they were mentioned.';

const PARTIAL_MEANING = 'When the window holds the current week (window.partial), that week is still being counted and has fewer mentions than a full week.';

const hashInput = z.string().min(1).describe('the person\'s personHash (a slug such as chiamaka-okafor-6303); search_people finds it by name');

/** The window's totals as `people trend` computes a week's (mentions summed over countries). */
const totalsSchema = z.object({
  mentions: maybeNumber, globalDominance: maybeNumber, globalReach: maybeNumber, globalPower: maybeNumber,
  globalSentiment: maybeNumber, persistence: maybeNumber, countries: z.number().int().describe('how many countries\' press mentioned the person'),
});

function totalsOf(stats: Record<string, unknown>): Record<string, unknown> {
  const { week: _week, ...totals } = trendRow(0, stats);
  return totals;
}

export const rankPeople = tool({
  name: 'rank_people',
  title: 'Rank people in the news',
  description: `Who was most in the news over a week window: people ranked by mentions (or dominance), with the contract's filters (news of one country, people from one country, gender, age, category, fresh). Use it for "who was talked about most in German news this month" or "top women in politics last week". ${METRICS_MEANING} ${PARTIAL_MEANING} Results come a page at a time; pass nextCursor for more.`,
  input: {
    weeks: weeksInput('last4'),
    ...rankingInput,
    limit: limitInput('people per page', 100, 20),
    cursor: cursorInput,
    includeCountryRows: z.boolean().optional().describe('also return each person\'s per-country mention rows (large; default false)'),
  },
  output: {
    window: windowSchema,
    sortBy: z.enum(['mentions', 'dominance']),
    filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    people: z.array(contractRecord(personStatsSchema)).describe('ranked people, as the service sent them (countryRows left out unless asked for)'),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const start = pageStart(args.cursor);
    const limit = args.limit ?? 20;
    if (start + limit > RANKING_DEPTH) throw new ToolInputError(`the ranking is read at most ${RANKING_DEPTH} deep; cursor + limit is ${start + limit}`);
    const client = await deps.client();
    const [{ params, filters }, info] = await Promise.all([rankingQuery(args, deps), weekInfo(client, call)]);
    const window = windowOf(args.weeks ?? 'last4', info);
    const ranking = await client.people.top({ ...params, startWeek: window.startWeek, endWeek: window.endWeek, limit: start + limit }, call.options);
    const items = (ranking as Array<Record<string, unknown>>).map(({ countryRows, ...item }) => (args.includeCountryRows ? { ...item, countryRows } : item));
    // A full page may have more behind it: the service ranked at least as many as asked for.
    const { items: shown, nextCursor } = page(items, start, limit, items.length >= start + limit && start + limit < RANKING_DEPTH);
    const sortBy = args.sortBy ?? 'mentions';
    const text = lines(
      `People ranked by ${sortBy}, ${windowText(window)}.${filtersText(filters)}`,
      shown.length === 0 ? (start === 0 ? 'Nobody is ranked for this window and these filters.' : 'No more people.') : '',
      shown.map((item) => `${String(item.rank ?? '?')}. ${personLabel(item)}${typeof item.fromCountryName === 'string' ? `, from ${item.fromCountryName}` : ''}: ${metrics(item, RANKED_METRICS)}${typeof item.reason === 'string' && item.reason !== '' ? `. ${item.reason}` : ''}`),
      moreText(nextCursor, 'people'),
    );
    return { structured: { window, sortBy, filters, people: shown.map(toMcpRecord), ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

export const searchPeople = tool({
  name: 'search_people',
  title: 'Find people by name',
  description: 'Find a person\'s personHash (the identifier every other person tool takes) from a name or part of one, optionally only people from one country or of one gender. Use it first when the user names someone.',
  input: {
    query: z.string().optional().describe('free text matched against names and personHash'),
    fullName: z.string().optional().describe('match the full name'),
    personHash: z.string().optional().describe('match the personHash'),
    exact: z.boolean().optional().describe('the query or fullName must match the whole name exactly'),
    country: countryInput('only people from this country'),
    gender: rankingInput.gender,
    limit: limitInput('people', BOUNDS.searchLimit.max, 10),
  },
  output: {
    people: z.array(contractRecord(personSchema)),
  },
  async run(args, deps, call) {
    const terms = { q: args.query || undefined, fullName: args.fullName || undefined, personHash: args.personHash || undefined };
    if (!hasSearchTerm(terms)) throw new ToolInputError('give query, fullName or personHash: the name or part of it to look for');
    const client = await deps.client();
    const countryId = args.country === undefined ? undefined : await deps.countryId(args.country);
    const { params } = await rankingQuery({ gender: args.gender }, deps);
    const limit = args.limit ?? 10;
    const found = await client.people.search({ ...terms, exactName: args.exact || undefined, countryId, gender: params.gender, limit }, call.options);
    const people = (found as Array<Record<string, unknown>>).map(toMcpRecord);
    const asked = terms.q ?? terms.fullName ?? terms.personHash;
    const text = lines(
      people.length === 0 ? `Nobody matches "${asked}".` : `${people.length} ${people.length === 1 ? 'person matches' : 'people match'} "${asked}":`,
      people.map((person) => `- ${personLabel(person)}${typeof person.countryName === 'string' ? `, ${person.countryName}` : ''}${typeof person.category === 'string' ? `, ${person.category}` : ''}${typeof person.description === 'string' && person.description !== '' ? `: ${person.description}` : ''}`),
      people.length === limit && limit < BOUNDS.searchLimit.max ? `There may be more: raise limit (up to ${BOUNDS.searchLimit.max}) or narrow the query.` : '',
    );
    return { structured: { people }, text };
  },
});

export const personProfile = tool({
  name: 'person_profile',
  title: 'A person\'s profile and coverage',
  description: `Everything about one person over a week window in one call: who they are, their totals (mentions, dominance, reach, power, sentiment, persistence), the countries whose press covered them most, and their latest article links with snippets. Use it for "tell me about X" or "how was X covered this month". ${METRICS_MEANING} ${PARTIAL_MEANING} For every country use person_countries; for more articles person_articles; for week by week person_trend.`,
  input: {
    personHash: hashInput,
    weeks: weeksInput('last4'),
    countries: z.number().int().min(0).max(100).optional().describe('how many countries to list, most mentions first (default 10)'),
    articles: z.number().int().min(0).max(50).optional().describe('how many latest article links to list (default 5)'),
  },
  output: {
    person: contractRecord(personSchema),
    window: windowSchema,
    totals: totalsSchema,
    topCountries: z.array(contractRecord(personCountryRowSchema)),
    articles: z.array(contractRecord(personLinkSchema)),
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const info = await weekInfo(client, call);
    const window = windowOf(args.weeks ?? 'last4', info);
    const articleCount = args.articles ?? 5;
    const [person, stats, links] = await Promise.all([
      client.people.get(args.personHash, call.options),
      client.people.countryStats(args.personHash, { startWeek: window.startWeek, endWeek: window.endWeek }, call.options),
      articleCount === 0 ? Promise.resolve([]) : client.people.links(args.personHash, { limit: articleCount }, call.options),
    ]);
    const totals = totalsOf(stats);
    const rows = byMentions((stats.countries ?? [])).slice(0, args.countries ?? 10);
    const record = person as Record<string, unknown>;
    const text = lines(
      `${personLabel(record)}${typeof record.category === 'string' ? `, ${record.category}` : ''}${typeof record.countryName === 'string' ? `, from ${record.countryName}` : ''}${typeof record.description === 'string' && record.description !== '' ? `: ${record.description}` : ''}`,
      `Over ${windowText(window)}: ${metrics(totals, GLOBAL_METRICS)}.`,
      rows.length > 0 ? 'Countries whose press mentioned them most:' : '',
      rows.map((row) => `- ${String(row.countryName ?? row.countryIso ?? row.countryId)}: ${metrics(row, COUNTRY_ROW_METRICS)}`),
      links.length > 0 ? 'Latest articles:' : '',
      (links as Array<Record<string, unknown>>).map(linkLine),
    );
    return {
      structured: {
        person: toMcpRecord(person),
        window,
        totals: toMcpRecord(totals) as z.infer<typeof totalsSchema>,
        topCountries: rows.map(toMcpRecord),
        articles: (links as unknown[]).map(toMcpRecord),
      },
      text,
    };
  },
});

export const personArticles = tool({
  name: 'person_articles',
  title: 'Articles that mention a person',
  description: 'The latest news articles that mention one person, newest first: title, URL, source, country, the snippet that mentions them, its sentiment (-1 negative to 1 positive) and the other people in the article. Use it for "what was written about X". The service keeps the latest 250 links per person.',
  input: {
    personHash: hashInput,
    limit: limitInput('articles per page', 50, 10),
    cursor: cursorInput,
  },
  output: {
    articles: z.array(contractRecord(personLinkSchema)),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const max = BOUNDS.linksLimit.max;
    const { start, items, nextCursor } = await pageOfLatest(args.cursor, args.limit ?? 10, max, `at most ${max} links a person`,
      async (upTo) => (await (await deps.client()).people.links(args.personHash, { limit: upTo }, call.options)) as Array<Record<string, unknown>>);
    const text = lines(
      items.length === 0 ? `No ${start === 0 ? '' : 'more '}articles mention ${args.personHash}.` : `Articles mentioning ${args.personHash}, newest first:`,
      items.map(linkLine),
      moreText(nextCursor, 'articles'),
    );
    return { structured: { articles: items.map(toMcpRecord), ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

export const personCountries = tool({
  name: 'person_countries',
  title: 'Where a person was covered',
  description: `One person's coverage country by country over a week window: mentions, articles, local dominance (their share of that country's mentions, in percent), reach, power, sentiment, persistence, and the country's population and GDP. Use it for "where in the world was X talked about". ${PARTIAL_MEANING}`,
  input: {
    personHash: hashInput,
    weeks: weeksInput('last4'),
    sortBy: z.enum(['mentions', 'localDominance', 'sentiment']).optional().describe('order of the rows (default mentions, highest first)'),
    limit: limitInput('countries per page', 100, 20),
    cursor: cursorInput,
  },
  output: {
    window: windowSchema,
    totals: totalsSchema,
    countries: z.array(contractRecord(personCountryRowSchema)),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const start = pageStart(args.cursor);
    const client = await deps.client();
    const window = windowOf(args.weeks ?? 'last4', await weekInfo(client, call));
    const stats = await client.people.countryStats(args.personHash, { startWeek: window.startWeek, endWeek: window.endWeek }, call.options);
    const field = args.sortBy ?? 'mentions';
    const rows = [...((stats.countries ?? []) as Array<Record<string, unknown>>)].sort((a, b) => (numeric(b[field]) ?? -Infinity) - (numeric(a[field]) ?? -Infinity));
    const { items, nextCursor } = page(rows, start, args.limit ?? 20);
    const totals = totalsOf(stats);
    const text = lines(
      `${args.personHash} by country, ${windowText(window)}: ${metrics(totals, GLOBAL_METRICS)}.`,
      items.map((row) => `- ${String(row.countryName ?? row.countryIso ?? row.countryId)} (${String(row.countryIso ?? '')}): ${metrics(row, COUNTRY_ROW_METRICS)}`),
      moreText(nextCursor, 'countries'),
    );
    return {
      structured: { window, totals: toMcpRecord(totals) as z.infer<typeof totalsSchema>, countries: items.map(toMcpRecord), ...(nextCursor !== undefined && { nextCursor }) },
      text,
    };
  },
});

function byMentions(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  return [...rows].sort((a, b) => (numeric(b.mentions) ?? -Infinity) - (numeric(a.mentions) ?? -Infinity));
}

/** `- 2026-11-20 "Title" (Source, DE), sentiment 0.2: "snippet" https://...`. */
function linkLine(link: Record<string, unknown>): string {
  const date = typeof link.mentionDate === 'string' ? link.mentionDate.slice(0, 10) : '';
  const title = typeof link.articleTitle === 'string' ? ` "${link.articleTitle}"` : '';
  const where = [link.sourceName, link.countryIso].filter((part) => typeof part === 'string' && part !== '').join(', ');
  const snippet = typeof link.snippet === 'string' && link.snippet !== '' ? `: "${link.snippet}"` : '';
  const url = typeof link.articleUrl === 'string' ? ` ${link.articleUrl}` : '';
  return `- ${date}${title}${where ? ` (${where})` : ''}, ${metrics(link, [['sentiment', 'sentiment']])}${snippet}${url}`;
}

