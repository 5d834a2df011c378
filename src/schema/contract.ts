/**
 * The one schema of the News-Mention Statistics Data API, written from its contract
 * (/work/shared/api-contract.md, "Resources and their fields", "Endpoints", "Errors" and "Limits").
 * It says what the API promises; the client's tolerance is the one rule in spec.ts (`mayBeMissing`).
 *
 * The contract's conventions, as written here:
 * - "sourceId, articleHash: numeric identifiers": these and every other id integer (countryId,
 *   fromCountryId, postId) are `identifier`, exact at any size; the contract bounds none of them.
 * - "Optional or partial fields can be null": every field may be null or absent except the
 *   `required` ones, the identifiers a record is known by and later requests are built from.
 * - "Additive fields are non-breaking": records may carry fields not named here.
 */
import { fields, type Fields } from './spec.js';

const week = (description: string) => ({ type: 'integer', format: 'week', description }) as const;
const stamp = (description: string) => ({ type: 'timestamp', description }) as const;
const text = (description: string) => ({ type: 'string', description }) as const;
const count = (description: string) => ({ type: 'integer', description }) as const;
const score = (description: string) => ({ type: 'number', description }) as const;

export const weekInfoSchema = fields({
  currentWeek: { ...week('The current ISO week, YYYYWW.'), required: true },
  last4StartWeek: { ...week('First week of the typical 4-week window that ends at currentWeek, YYYYWW.'), required: true },
});

export const personSchema = fields({
  personHash: { type: 'string', identifier: true, required: true, description: 'Identifier of the person: slug-like text, used in /people/{personHash} paths.' },
  fullName: text('Full name of the person.'),
  description: text('Short description of the person; the contract marks it nullable.'),
  gender: count('Gender code; the contract does not list its values.'),
  category: text('News category of the person.'),
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the person\'s country.' },
  countryName: text('Name of the person\'s country; the contract marks it nullable.'),
  birthDate: stamp('Date of birth, UTC, YYYY-MM-DDTHH:MM:SS; the contract marks it nullable.'),
  createdAt: stamp('When the person\'s record was created, UTC, YYYY-MM-DDTHH:MM:SS.'),
  updatedAt: stamp('When the person\'s record was last changed, UTC, YYYY-MM-DDTHH:MM:SS.'),
});

export const personStatsSchema = fields({
  rank: { type: 'integer', minimum: 1, description: 'Position in the ranking, from 1.' },
  personHash: { type: 'string', identifier: true, required: true, description: 'Identifier of the person.' },
  fullName: text('Full name of the person.'),
  mentionCount: count('Mentions of the person in the week range.'),
  gender: count('Gender code; the contract does not list its values.'),
  fromCountryId: { type: 'integer', identifier: true, description: 'Identifier of the person\'s own country.' },
  fromCountryName: text('Name of the person\'s own country.'),
  birthDate: stamp('Date of birth, UTC, YYYY-MM-DDTHH:MM:SS.'),
  persistence: count('Persistence: how steadily the person is mentioned (the contract does not show how it is computed).'),
  dominance: score('Dominance: the person\'s share of the news.'),
  reach: score('Reach: how widely the person is mentioned.'),
  power: score('Power: the combined metric.'),
  sentiment: score('Aggregate sentiment score; the contract does not give its bounds.'),
  sentimentColor: { type: 'string', format: 'color', description: 'Colour of the sentiment, #RRGGBB.' },
  sentimentFace: text('Icon class name for the sentiment.'),
  snippets: { type: 'array', description: 'Text snippets; the contract does not show their shape.' },
  reason: text('Why the person ranks here; may be an empty string.'),
  countryRows: { type: 'array', description: 'Per-country rows; the contract does not show their shape.' },
});

/** Fields every person-article link carries. */
export const personLinkBaseSchema = fields({
  personHash: { type: 'string', identifier: true, required: true, description: 'Identifier of the person mentioned.' },
  articleHash: { type: 'integer', identifier: true, required: true, description: 'Identifier of the article: a large integer, exact at any size.' },
  mentionDate: stamp('When the article mentioned the person, UTC, YYYY-MM-DDTHH:MM:SS.'),
  snippet: text('Text excerpt around the mention.'),
  sentiment: score('Sentiment of the mention.'),
});

/** Added when includeContext is true (contract rule 3). */
export const personLinkContextSchema = fields({
  sentimentColor: { type: 'string', format: 'color', description: 'Colour of the sentiment, #RRGGBB.' },
  sentimentFace: text('Icon class name for the sentiment.'),
  articleTitle: text('Title of the article.'),
  articleUrl: { type: 'string', format: 'url', description: 'Address of the article.' },
  articlePeople: { type: 'string', format: 'hash-list', description: 'personHash values of everyone in the article, separated by commas.' },
  otherPeople: { type: 'array', items: 'string', description: 'personHash values of the other people in the article.' },
  sourceId: { type: 'integer', identifier: true, description: 'Identifier of the article\'s source.' },
  sourceName: text('Name of the article\'s source.'),
  sourceUrl: { type: 'string', format: 'url', description: 'Address of the source\'s homepage.' },
  countryId: { type: 'integer', identifier: true, description: 'Identifier of the source\'s country.' },
  countryName: text('Name of the source\'s country.'),
  countryIso: text('ISO code of the source\'s country.'),
});

export const personLinkSchema = fields({ ...personLinkBaseSchema, ...personLinkContextSchema });

export const personCountryRowSchema = fields({
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the country.' },
  countryName: text('Name of the country.'),
  countryIso: text('ISO code of the country.'),
  mentions: count('Mentions of the person in this country\'s news.'),
  articles: count('Articles of this country\'s news that mention the person.'),
  population: count('Population of the country.'),
  gdp: count('Gross domestic product of the country.'),
  persistence: count('Persistence of the person in this country.'),
  localDominance: score('Dominance of the person in this country\'s news.'),
  reach: score('Reach of the person in this country.'),
  power: score('Power of the person in this country.'),
  sentiment: score('Sentiment towards the person in this country.'),
});

export const personCountryStatsSchema = fields({
  startWeek: week('First week of the range used, YYYYWW.'),
  endWeek: week('Last week of the range used, YYYYWW.'),
  globalDominance: score('Dominance of the person worldwide.'),
  globalSentiment: score('Sentiment towards the person worldwide.'),
  globalReach: score('Reach of the person worldwide.'),
  globalPower: score('Power of the person worldwide.'),
  persistence: count('Persistence of the person worldwide.'),
  countries: { type: 'array', items: personCountryRowSchema, description: 'One row per country.' },
});

export const countrySchema = fields({
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the country.' },
  countryName: text('Name of the country.'),
  countryIso: text('ISO code of the country.'),
});

export const sourceSchema = fields({
  sourceId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the source.' },
  name: text('Name of the source.'),
  url: { type: 'string', format: 'url', description: 'Address of the source\'s homepage.' },
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the source\'s country.' },
  description: text('Description of the source.'),
  lastCheckedDate: stamp('When the source was last checked, UTC, YYYY-MM-DDTHH:MM:SS.'),
  status: text('Status of the source (`active` is seen; the contract lists no other values).'),
  linkFilter: text('Regular expression applied to the links of the source.'),
  createdAt: stamp('When the source\'s record was created, UTC, YYYY-MM-DDTHH:MM:SS.'),
  updatedAt: stamp('When the source\'s record was last changed, UTC, YYYY-MM-DDTHH:MM:SS.'),
  country: { type: 'object', description: 'The source\'s country; null in the answers the contract shows, its shape not shown.' },
});

export const sourceLinksSchema = fields({
  source: {
    type: 'object',
    description: 'The source the links were read from.',
    fields: fields({
      sourceId: { type: 'integer', identifier: true, description: 'Identifier of the source.' },
      name: text('Name of the source.'),
    }),
  },
  allLinks: { type: 'array', items: 'string', description: 'Every link on the source\'s homepage.' },
  matchedLinks: { type: 'array', items: 'string', description: 'Links the source\'s link filter matches.' },
  unmatchedLinks: { type: 'array', items: 'string', description: 'Links the source\'s link filter does not match.' },
});

export const postSchema = fields({
  postId: { type: 'integer', identifier: true, description: 'Identifier of the post.' },
  title: text('Title of the post.'),
  slug: { type: 'string', identifier: true, required: true, description: 'Unique text key of the post, used in /posts/{slug} paths.' },
  content: text('Content of the post: text holding structured content.'),
  summary: text('Summary of the post.'),
  imagePath: text('Path of the post\'s image.'),
  status: text('Status of the post (recent lists carry `published` posts).'),
  view: text('View of the post; the contract does not list its values.'),
  createdAt: stamp('When the post was created, UTC, YYYY-MM-DDTHH:MM:SS.'),
  updatedAt: stamp('When the post was last changed, UTC, YYYY-MM-DDTHH:MM:SS.'),
});

export const articleBaseSchema = fields({
  articleHash: { type: 'integer', identifier: true, required: true, description: 'Identifier of the article: a large integer, exact at any size.' },
  url: { type: 'string', format: 'url', description: 'Address of the article.' },
  title: text('Title of the article.'),
  sourceId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the article\'s source.' },
  people: { type: 'string', format: 'hash-list', description: 'personHash values of the people in the article, separated by commas.' },
});

/** Added when includeSourceContext is true (contract rule 4). */
export const articleSourceContextSchema = fields({
  sourceName: text('Name of the article\'s source.'),
  sourceStatus: text('Status of the article\'s source.'),
  countryId: { type: 'integer', identifier: true, description: 'Identifier of the source\'s country.' },
  countryName: text('Name of the source\'s country.'),
  countryIso: text('ISO code of the source\'s country.'),
});

export const articleSchema = fields({ ...articleBaseSchema, ...articleSourceContextSchema });

export const articleStatsSchema = fields({
  days: count('Days of the rolling window counted; present in the rolling-window form only.'),
  totalArticles: count('Articles counted.'),
  totalSources: count('Sources counted.'),
  totalCountries: count('Countries counted.'),
});

export const articleStatsAllTimeSchema = fields({
  totalArticles: count('Articles counted, all time.'),
  totalSources: count('Sources counted, all time.'),
  totalCountries: count('Countries counted, all time.'),
});

export const internationalAttentionSchema = fields({
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the country.' },
  percentage: score('Share of the world\'s news that mentions the country, in percent.'),
  rank: { type: 'integer', minimum: 1, description: 'Position of the country by that share, from 1.' },
  outOf: count('Countries ranked.'),
  median: score('Median share over all countries, in percent.'),
});

export const domesticFocusSchema = fields({
  countryId: { type: 'integer', identifier: true, required: true, description: 'Identifier of the country.' },
  startWeek: week('First week of the range used, YYYYWW.'),
  endWeek: week('Last week of the range used, YYYYWW.'),
  focusPercent: score('Share of the country\'s own news that is about itself, in percent.'),
  rank: { type: 'integer', minimum: 1, description: 'Position of the country by that share, from 1.' },
  outOf: count('Countries ranked.'),
  median: score('Median share over all countries, in percent.'),
});

/** The 400 problem-details body: the contract promises each of its fields. */
export const problemDetailsSchema = fields({
  type: { type: 'string', format: 'url', required: true, description: 'Address of the status\'s description.' },
  title: { type: 'string', required: true, description: 'What went wrong, in words.' },
  status: { type: 'integer', required: true, description: 'The HTTP status, repeated.' },
  traceId: { type: 'string', required: true, description: 'Trace identifier of the request, for the service\'s operators.' },
});

/**
 * The records of the contract by the names the library's types carry, with a line on each: what
 * the generated TypeScript interfaces (records.ts) and the OpenAPI components are made from.
 */
export const RECORDS = {
  WeekInfo: { schema: weekInfoSchema, description: 'The current week and the start of the typical 4-week window (GET /weeks/current).' },
  Person: { schema: personSchema, description: 'A person mentioned in the news.' },
  PersonStats: { schema: personStatsSchema, description: 'A person in the ranked list (GET /people/top), with the metrics of the week range.' },
  PersonLink: { schema: personLinkSchema, description: 'An article that mentions a person; the context fields only with includeContext (the default).' },
  PersonCountryRow: { schema: personCountryRowSchema, description: 'A person\'s metrics in one country.' },
  PersonCountryStats: { schema: personCountryStatsSchema, description: 'A person\'s metrics worldwide and per country over a week range.' },
  Country: { schema: countrySchema, description: 'A country.' },
  Source: { schema: sourceSchema, description: 'A news source.' },
  SourceLinks: { schema: sourceLinksSchema, description: 'The links on a source\'s homepage, split by its link filter.' },
  Post: { schema: postSchema, description: 'A published post.' },
  Article: { schema: articleSchema, description: 'A recent article; the source context fields only with includeSourceContext (the default).' },
  ArticleStats: { schema: articleStatsSchema, description: 'Counts of articles, sources and countries over a rolling window of days.' },
  ArticleStatsAllTime: { schema: articleStatsAllTimeSchema, description: 'Counts of articles, sources and countries, all time.' },
  InternationalAttention: { schema: internationalAttentionSchema, description: 'How much the world\'s news mentions a country.' },
  DomesticFocus: { schema: domesticFocusSchema, description: 'How much a country\'s own news is about itself, over a week range.' },
  ProblemDetails: { schema: problemDetailsSchema, description: 'The body of a 400 answer.' },
} as const;

export type RecordName = keyof typeof RECORDS;

/** The names of a record's identifier integers, its nested records' too. */
type IdentifierNames<S> = {
  [K in keyof S]:
    | (S[K] extends { type: 'integer'; identifier: true } ? K : never)
    | (S[K] extends { items: infer I } ? (I extends Fields ? IdentifierNames<I> : never) : never)
    | (S[K] extends { fields: infer F } ? IdentifierNames<F> : never);
}[keyof S];

/**
 * Every field name that is an identifier integer in some record: what the codec keeps exact by key
 * (knowledge.ts holds the same set at run time; a test keeps the two equal).
 */
export type IdentifierName = { [R in RecordName]: IdentifierNames<(typeof RECORDS)[R]['schema']> }[RecordName];

/** A parameter of a request: where it goes, its type, bounds and form. */
export interface ParameterSpec {
  readonly type: 'string' | 'integer' | 'boolean';
  readonly description: string;
  readonly identifier?: true;
  readonly format?: 'week';
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: boolean;
  readonly enum?: readonly string[];
}

/** The contract's bounds on query parameters (its Limits table). */
export const BOUNDS = {
  searchLimit: { min: 1, max: 100 },
  linksLimit: { min: 1, max: 250 },
  postsCount: { min: 1, max: 50 },
  articlesLimit: { min: 1, max: 500 },
  statsDays: { min: 1, max: 365 },
} as const;

const bounded = (description: string, bounds: { min: number; max: number }): ParameterSpec => ({ type: 'integer', description, minimum: bounds.min, maximum: bounds.max });
const weekParameter = (description: string): ParameterSpec => ({ type: 'integer', format: 'week', description });
const idParameter = (description: string): ParameterSpec => ({ type: 'integer', identifier: true, description });
const flag = (description: string, defaultValue?: boolean): ParameterSpec => ({ type: 'boolean', description, ...(defaultValue === undefined ? {} : { default: defaultValue }) });

/** Path parameters, by name. */
export const PATH_PARAMETERS: Readonly<Record<string, ParameterSpec>> = {
  personHash: { type: 'string', identifier: true, description: 'Identifier of the person.' },
  countryId: idParameter('Identifier of the country.'),
  sourceId: idParameter('Identifier of the source.'),
  slug: { type: 'string', identifier: true, description: 'Slug of the country or post.' },
};

/**
 * What one endpoint answers: a record or a list of them, and the fields of the record. `optional`
 * fields are left out in some modes (includeContext=false); the client checks them only when there.
 */
export interface ResponseShape {
  readonly list: boolean;
  readonly schema: Fields;
  readonly optional?: Fields;
}

export interface EndpointSpec extends ResponseShape {
  /** Query parameters, by name, in the contract's order. */
  readonly query?: Readonly<Record<string, ParameterSpec>>;
  /** The record's name in RECORDS, for the OpenAPI document's components. */
  readonly record: RecordName;
}

/**
 * Every endpoint of the contract, as it writes them, with what it takes and answers. The client's
 * tests and the sandbox's both check against this one list.
 */
export const ENDPOINT_SPECS = {
  '/api/data/weeks/current': { list: false, schema: weekInfoSchema, record: 'WeekInfo' },
  '/api/data/people': { list: true, schema: personSchema, record: 'Person' },
  '/api/data/people/{personHash}': { list: false, schema: personSchema, record: 'Person' },
  '/api/data/people/search': {
    list: true, schema: personSchema, record: 'Person',
    query: {
      q: { type: 'string', description: 'Text to search names for. One of q, personHash and fullName is required.' },
      personHash: { type: 'string', description: 'A personHash to match.' },
      fullName: { type: 'string', description: 'A full name to match.' },
      exactName: flag('Match fullName exactly.'),
      countryId: idParameter('Only people of this country.'),
      gender: { type: 'integer', description: 'Only people of this gender code.' },
      limit: bounded('Most people to return.', BOUNDS.searchLimit),
    },
  },
  '/api/data/people/top': {
    list: true, schema: personStatsSchema, record: 'PersonStats',
    query: {
      startWeek: weekParameter('First week of the range, YYYYWW.'),
      endWeek: weekParameter('Last week of the range, YYYYWW.'),
      limit: { type: 'integer', description: 'Most people to return (the contract gives no bound).' },
      fresh: flag('Fresh people only (the contract does not say what that means).'),
      countryId: idParameter('Only people in this country\'s news.'),
      fromCountryId: idParameter('Only people from this country.'),
      gender: { type: 'integer', description: 'Only people of this gender code.' },
      minAge: { type: 'integer', description: 'Only people at least this old.' },
      maxAge: { type: 'integer', description: 'Only people at most this old.' },
      newsCategory: { type: 'string', description: 'Only people of this news category.' },
      sortBy: { type: 'string', enum: ['mentions', 'dominance'], description: 'Rank by mention count or by dominance.' },
    },
  },
  '/api/data/people/{personHash}/links': {
    list: true, schema: personLinkBaseSchema, optional: personLinkContextSchema, record: 'PersonLink',
    query: { limit: bounded('Most links to return.', BOUNDS.linksLimit), includeContext: flag('Add the article, source, country and sentiment display fields.', true) },
  },
  '/api/data/people/{personHash}/country-stats': {
    list: false, schema: personCountryStatsSchema, record: 'PersonCountryStats',
    query: { startWeek: weekParameter('First week of the range, YYYYWW.'), endWeek: weekParameter('Last week of the range, YYYYWW.') },
  },
  '/api/data/countries': { list: true, schema: countrySchema, record: 'Country' },
  '/api/data/countries/{countryId}': { list: false, schema: countrySchema, record: 'Country' },
  '/api/data/countries/slug/{slug}': { list: false, schema: countrySchema, record: 'Country' },
  '/api/data/countries/{countryId}/international-attention': { list: false, schema: internationalAttentionSchema, record: 'InternationalAttention' },
  '/api/data/countries/{countryId}/domestic-focus': {
    list: false, schema: domesticFocusSchema, record: 'DomesticFocus',
    query: { startWeek: weekParameter('First week of the range, YYYYWW.'), endWeek: weekParameter('Last week of the range, YYYYWW.') },
  },
  '/api/data/sources': { list: true, schema: sourceSchema, record: 'Source', query: { countryId: idParameter('Only sources of this country.') } },
  '/api/data/sources/{sourceId}': { list: false, schema: sourceSchema, record: 'Source' },
  '/api/data/sources/{sourceId}/links': {
    list: false, schema: sourceLinksSchema, record: 'SourceLinks',
    query: { applyFilter: flag('Split the links by the source\'s link filter.', true) },
  },
  '/api/data/posts/recent': { list: true, schema: postSchema, record: 'Post', query: { count: bounded('Most posts to return.', BOUNDS.postsCount) } },
  '/api/data/posts/{slug}': { list: false, schema: postSchema, record: 'Post' },
  '/api/data/articles/recent': {
    list: true, schema: articleBaseSchema, optional: articleSourceContextSchema, record: 'Article',
    query: { limit: bounded('Most articles to return.', BOUNDS.articlesLimit), includeSourceContext: flag('Add the source and country context fields.', true) },
  },
  '/api/data/articles/stats': { list: false, schema: articleStatsSchema, record: 'ArticleStats', query: { days: bounded('Days of the rolling window.', BOUNDS.statsDays) } },
  '/api/data/articles/stats/all-time': { list: false, schema: articleStatsAllTimeSchema, record: 'ArticleStatsAllTime' },
} as const satisfies Readonly<Record<string, EndpointSpec>>;

export type Endpoint = keyof typeof ENDPOINT_SPECS;

/** The endpoints alone, in the contract's order. */
export const ENDPOINTS = Object.keys(ENDPOINT_SPECS) as readonly Endpoint[];
