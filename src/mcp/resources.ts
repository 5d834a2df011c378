/**
 * Resources a client can attach to a conversation: the service's week right now, and what the
 * contract's fields mean (derived from the contract's field schemas, so every field is listed).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  articleSchema, countrySchema, domesticFocusSchema, internationalAttentionSchema, personCountryRowSchema, personCountryStatsSchema,
  personLinkSchema, personSchema, personStatsSchema, postSchema, sourceSchema, type FieldSchema,
} from '../api/types.js';
import type { McpDependencies } from './context.js';
import { describeToolError } from './errors.js';
import { IDENTIFIER_FIELDS } from './exact.js';
import { WEEK_INFO_TEXT } from './tools/weeks.js';
import { weekInfo } from './window.js';
import { addWeeks, mondayOf } from '../shared/weeks.js';

/** What a field means, where the contract or the service's own naming says; metrics as the service names them. */
export const FIELD_MEANINGS: Readonly<Record<string, string>> = {
  personHash: 'identifier of a person: a slug such as chiamaka-okafor-6303',
  mentionCount: 'how many times the person was mentioned in news articles in the window',
  mentions: 'how many times the person was mentioned (in that country\'s press, on a country row)',
  articles: 'how many articles mentioned the person',
  dominance: 'the person\'s share, in percent, of all mentions of all people in the window (everyone\'s adds up to 100)',
  globalDominance: 'dominance over all sources',
  localDominance: 'dominance within one country\'s press',
  reach: 'the share, in percent, of the world\'s population whose press mentioned the person',
  globalReach: 'reach over all sources',
  power: 'dominance weighted by the economic weight (GDP) of the countries whose press mentioned the person',
  globalPower: 'power over all sources',
  sentiment: 'the mean tone of the mentions, from -1 (negative) to 1 (positive)',
  globalSentiment: 'sentiment over all sources',
  sentimentColor: 'a colour for the sentiment, #RRGGBB',
  sentimentFace: 'an icon class name for the sentiment',
  persistence: 'in how many weeks of the window the person was mentioned',
  rank: 'position in the ranking, from 1',
  reason: 'why the person ranks where they do, in words (may be empty)',
  snippets: 'excerpts of articles that mention the person',
  countryRows: 'mentions by country (shape not published by the service)',
  fromCountryId: 'the person\'s own country',
  countryId: 'a country (for a person: their country; for an article or link: the source\'s country)',
  articleHash: 'identifier of an article (a large integer, beyond 2^53)',
  sourceId: 'identifier of a news source',
  postId: 'identifier of a post',
  percentage: 'international attention: the share, in percent, of the world\'s news about the country',
  focusPercent: 'domestic focus: the share, in percent, of the country\'s own news about itself',
  outOf: 'how many countries were ranked',
  median: 'the median over all countries ranked',
  startWeek: 'first week of the window, YYYYWW',
  endWeek: 'last week of the window, YYYYWW',
  mentionDate: 'when the article was published (UTC)',
  snippet: 'the excerpt of the article that mentions the person',
  otherPeople: 'personHash of the other people in the article',
  articlePeople: 'personHash of all people in the article, comma-separated',
  people: 'personHash of the people in the article, comma-separated',
  linkFilter: 'regular expression that picks article links from the source\'s homepage',
  population: 'the country\'s population',
  gdp: 'the country\'s gross domestic product',
};

const RECORDS: ReadonlyArray<readonly [string, FieldSchema]> = [
  ['Person', personSchema],
  ['Ranked person (rank_people)', personStatsSchema],
  ['Person totals over a window (person_countries, person_profile)', personCountryStatsSchema],
  ['Country row of a person', personCountryRowSchema],
  ['Article link of a person', personLinkSchema],
  ['Country', countrySchema],
  ['International attention', internationalAttentionSchema],
  ['Domestic focus', domesticFocusSchema],
  ['Source', sourceSchema],
  ['Article', articleSchema],
  ['Post', postSchema],
];

/** The field meanings as one Markdown page. */
export function fieldMeanings(): string {
  const sections = RECORDS.map(([title, schema]) => [
    `## ${title}`,
    ...Object.entries(schema).map(([field, kind]) => {
      const type = IDENTIFIER_FIELDS.has(field) ? 'identifier, a string of digits' : kind.type;
      const meaning = FIELD_MEANINGS[field] ?? kind.description;
      return `- \`${field}\` (${type})${meaning ? `: ${meaning}` : ''}`;
    }),
  ].join('\n'));
  return [
    '# Fields of the News-Mention Statistics Data API',
    'Every field but the identifiers may be null or missing; unknown fields may appear. The service does not publish how its metrics are computed: the meanings below are how it names them.',
    'Identifiers are strings of decimal digits in every result of this server, so none loses a digit (articleHash exceeds 2^53); every other number is a JSON number.',
    WEEK_INFO_TEXT,
    ...sections,
  ].join('\n\n');
}

export function registerResources(server: McpServer, deps: McpDependencies): void {
  server.registerResource(
    'week-info',
    'newsstats://weeks/current',
    { title: 'The current week', description: 'The service\'s current ISO week, the last complete week and the last4 window, read when asked', mimeType: 'application/json' },
    async (uri, extra) => {
      try {
        const info = await weekInfo(await deps.client(), { signal: extra.signal, options: { signal: extra.signal }, progress: async () => {} });
        const body = { ...info, previousWeek: addWeeks(info.currentWeek, -1), currentWeekStarts: mondayOf(info.currentWeek).toISOString().slice(0, 10), partial: 'the current week is still being counted' };
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] };
      } catch (error) {
        // A resource has no isError: the failure is said in the text, as a tool's would be.
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: deps.redact(deps.keepContext(describeToolError(error))) }] };
      }
    },
  );
  server.registerResource(
    'field-meanings',
    'newsstats://contract/fields',
    { title: 'What the fields mean', description: 'Every field of the contract\'s records with its type and meaning: mentions, dominance, reach, power, sentiment, persistence, identifiers, weeks', mimeType: 'text/markdown' },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: fieldMeanings() }] }),
  );
}
