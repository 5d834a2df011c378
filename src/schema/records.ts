// Generated from the schema (src/schema/contract.ts) by src/schema/typescript.ts; do not edit:
// `UPDATE_SCHEMA=1 npx vitest run test/unit/schema/derived.test.ts` rewrites it.

/**
 * Any JSON value as the library returns it in native mode: the type of what the contract leaves
 * unshown (`snippets`, `countryRows`, a source's `country`). Numbers are numbers (the nearest double
 * beyond 2^53), identifiers in it are strings of digits. Narrow it with typeof checks before use.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The current week and the start of the typical 4-week window (GET /weeks/current). */
export interface WeekInfo {
  /** The current ISO week, YYYYWW. */
  currentWeek: number;
  /** First week of the typical 4-week window that ends at currentWeek, YYYYWW. */
  last4StartWeek: number;
}

/** A person mentioned in the news. */
export interface Person {
  /** Identifier of the person: slug-like text, used in /people/{personHash} paths. */
  personHash: string;
  /** Full name of the person. */
  fullName?: string | null;
  /** Short description of the person; the contract marks it nullable. */
  description?: string | null;
  /** Gender code; the contract does not list its values. */
  gender?: number | null;
  /** News category of the person. */
  category?: string | null;
  /** Identifier of the person's country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** Name of the person's country; the contract marks it nullable. */
  countryName?: string | null;
  /** Date of birth, UTC, YYYY-MM-DDTHH:MM:SS; the contract marks it nullable. */
  birthDate?: string | null;
  /** When the person's record was created, UTC, YYYY-MM-DDTHH:MM:SS. */
  createdAt?: string | null;
  /** When the person's record was last changed, UTC, YYYY-MM-DDTHH:MM:SS. */
  updatedAt?: string | null;
}

/** A person in the ranked list (GET /people/top), with the metrics of the week range. */
export interface PersonStats {
  /** Position in the ranking, from 1. */
  rank?: number | null;
  /** Identifier of the person. */
  personHash: string;
  /** Full name of the person. */
  fullName?: string | null;
  /** Mentions of the person in the week range. */
  mentionCount?: number | null;
  /** Gender code; the contract does not list its values. */
  gender?: number | null;
  /** Identifier of the person's own country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  fromCountryId?: string | null;
  /** Name of the person's own country. */
  fromCountryName?: string | null;
  /** Date of birth, UTC, YYYY-MM-DDTHH:MM:SS. */
  birthDate?: string | null;
  /** Persistence: how steadily the person is mentioned (the contract does not show how it is computed). */
  persistence?: number | null;
  /** Dominance: the person's share of the news. */
  dominance?: number | null;
  /** Reach: how widely the person is mentioned. */
  reach?: number | null;
  /** Power: the combined metric. */
  power?: number | null;
  /** Aggregate sentiment score; the contract does not give its bounds. */
  sentiment?: number | null;
  /** Colour of the sentiment, #RRGGBB. */
  sentimentColor?: string | null;
  /** Icon class name for the sentiment. */
  sentimentFace?: string | null;
  /** Text snippets; the contract does not show their shape. */
  snippets?: JsonValue[] | null;
  /** Why the person ranks here; may be an empty string. */
  reason?: string | null;
  /** Per-country rows; the contract does not show their shape. */
  countryRows?: JsonValue[] | null;
}

/** An article that mentions a person; the context fields only with includeContext (the default). */
export interface PersonLink {
  /** Identifier of the person mentioned. */
  personHash: string;
  /** Identifier of the article: a large integer, exact at any size. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  articleHash: string;
  /** When the article mentioned the person, UTC, YYYY-MM-DDTHH:MM:SS. */
  mentionDate?: string | null;
  /** Text excerpt around the mention. */
  snippet?: string | null;
  /** Sentiment of the mention. */
  sentiment?: number | null;
  /** Colour of the sentiment, #RRGGBB. */
  sentimentColor?: string | null;
  /** Icon class name for the sentiment. */
  sentimentFace?: string | null;
  /** Title of the article. */
  articleTitle?: string | null;
  /** Address of the article. */
  articleUrl?: string | null;
  /** personHash values of everyone in the article, separated by commas. */
  articlePeople?: string | null;
  /** personHash values of the other people in the article. */
  otherPeople?: Array<string | null> | null;
  /** Identifier of the article's source. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  sourceId?: string | null;
  /** Name of the article's source. */
  sourceName?: string | null;
  /** Address of the source's homepage. */
  sourceUrl?: string | null;
  /** Identifier of the source's country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId?: string | null;
  /** Name of the source's country. */
  countryName?: string | null;
  /** ISO code of the source's country. */
  countryIso?: string | null;
}

/** A person's metrics in one country. */
export interface PersonCountryRow {
  /** Identifier of the country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** Name of the country. */
  countryName?: string | null;
  /** ISO code of the country. */
  countryIso?: string | null;
  /** Mentions of the person in this country's news. */
  mentions?: number | null;
  /** Articles of this country's news that mention the person. */
  articles?: number | null;
  /** Population of the country. */
  population?: number | null;
  /** Gross domestic product of the country. */
  gdp?: number | null;
  /** Persistence of the person in this country. */
  persistence?: number | null;
  /** Dominance of the person in this country's news. */
  localDominance?: number | null;
  /** Reach of the person in this country. */
  reach?: number | null;
  /** Power of the person in this country. */
  power?: number | null;
  /** Sentiment towards the person in this country. */
  sentiment?: number | null;
}

/** A person's metrics worldwide and per country over a week range. */
export interface PersonCountryStats {
  /** First week of the range used, YYYYWW. */
  startWeek?: number | null;
  /** Last week of the range used, YYYYWW. */
  endWeek?: number | null;
  /** Dominance of the person worldwide. */
  globalDominance?: number | null;
  /** Sentiment towards the person worldwide. */
  globalSentiment?: number | null;
  /** Reach of the person worldwide. */
  globalReach?: number | null;
  /** Power of the person worldwide. */
  globalPower?: number | null;
  /** Persistence of the person worldwide. */
  persistence?: number | null;
  /** One row per country. */
  countries?: PersonCountryRow[] | null;
}

/** A country. */
export interface Country {
  /** Identifier of the country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** Name of the country. */
  countryName?: string | null;
  /** ISO code of the country. */
  countryIso?: string | null;
}

/** A news source. */
export interface Source {
  /** Identifier of the source. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  sourceId: string;
  /** Name of the source. */
  name?: string | null;
  /** Address of the source's homepage. */
  url?: string | null;
  /** Identifier of the source's country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** Description of the source. */
  description?: string | null;
  /** When the source was last checked, UTC, YYYY-MM-DDTHH:MM:SS. */
  lastCheckedDate?: string | null;
  /** Status of the source (`active` is seen; the contract lists no other values). */
  status?: string | null;
  /** Regular expression applied to the links of the source. */
  linkFilter?: string | null;
  /** When the source's record was created, UTC, YYYY-MM-DDTHH:MM:SS. */
  createdAt?: string | null;
  /** When the source's record was last changed, UTC, YYYY-MM-DDTHH:MM:SS. */
  updatedAt?: string | null;
  /** The source's country; null in the answers the contract shows, its shape not shown. */
  country?: { [key: string]: JsonValue } | null;
}

/** The links on a source's homepage, split by its link filter. */
export interface SourceLinks {
  /** The source the links were read from. */
  source?: {
    /** Identifier of the source. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
    sourceId?: string | null;
    /** Name of the source. */
    name?: string | null;
  } | null;
  /** Every link on the source's homepage. */
  allLinks?: Array<string | null> | null;
  /** Links the source's link filter matches. */
  matchedLinks?: Array<string | null> | null;
  /** Links the source's link filter does not match. */
  unmatchedLinks?: Array<string | null> | null;
}

/** A published post. */
export interface Post {
  /** Identifier of the post. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  postId?: string | null;
  /** Title of the post. */
  title?: string | null;
  /** Unique text key of the post, used in /posts/{slug} paths. */
  slug: string;
  /** Content of the post: text holding structured content. */
  content?: string | null;
  /** Summary of the post. */
  summary?: string | null;
  /** Path of the post's image. */
  imagePath?: string | null;
  /** Status of the post (recent lists carry `published` posts). */
  status?: string | null;
  /** View of the post; the contract does not list its values. */
  view?: string | null;
  /** When the post was created, UTC, YYYY-MM-DDTHH:MM:SS. */
  createdAt?: string | null;
  /** When the post was last changed, UTC, YYYY-MM-DDTHH:MM:SS. */
  updatedAt?: string | null;
}

/** A recent article; the source context fields only with includeSourceContext (the default). */
export interface Article {
  /** Identifier of the article: a large integer, exact at any size. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  articleHash: string;
  /** Address of the article. */
  url?: string | null;
  /** Title of the article. */
  title?: string | null;
  /** Identifier of the article's source. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  sourceId: string;
  /** personHash values of the people in the article, separated by commas. */
  people?: string | null;
  /** Name of the article's source. */
  sourceName?: string | null;
  /** Status of the article's source. */
  sourceStatus?: string | null;
  /** Identifier of the source's country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId?: string | null;
  /** Name of the source's country. */
  countryName?: string | null;
  /** ISO code of the source's country. */
  countryIso?: string | null;
}

/** Counts of articles, sources and countries over a rolling window of days. */
export interface ArticleStats {
  /** Days of the rolling window counted; present in the rolling-window form only. */
  days?: number | null;
  /** Articles counted. */
  totalArticles?: number | null;
  /** Sources counted. */
  totalSources?: number | null;
  /** Countries counted. */
  totalCountries?: number | null;
}

/** Counts of articles, sources and countries, all time. */
export interface ArticleStatsAllTime {
  /** Articles counted, all time. */
  totalArticles?: number | null;
  /** Sources counted, all time. */
  totalSources?: number | null;
  /** Countries counted, all time. */
  totalCountries?: number | null;
}

/** How much the world's news mentions a country. */
export interface InternationalAttention {
  /** Identifier of the country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** Share of the world's news that mentions the country, in percent. */
  percentage?: number | null;
  /** Position of the country by that share, from 1. */
  rank?: number | null;
  /** Countries ranked. */
  outOf?: number | null;
  /** Median share over all countries, in percent. */
  median?: number | null;
}

/** How much a country's own news is about itself, over a week range. */
export interface DomesticFocus {
  /** Identifier of the country. An integer, as a string of its digits (exact at any size; `BigInt()` it for arithmetic). */
  countryId: string;
  /** First week of the range used, YYYYWW. */
  startWeek?: number | null;
  /** Last week of the range used, YYYYWW. */
  endWeek?: number | null;
  /** Share of the country's own news that is about itself, in percent. */
  focusPercent?: number | null;
  /** Position of the country by that share, from 1. */
  rank?: number | null;
  /** Countries ranked. */
  outOf?: number | null;
  /** Median share over all countries, in percent. */
  median?: number | null;
}

/** The body of a 400 answer. */
export interface ProblemDetails {
  /** Address of the status's description. */
  type: string;
  /** What went wrong, in words. */
  title: string;
  /** The HTTP status, repeated. */
  status: number;
  /** Trace identifier of the request, for the service's operators. */
  traceId: string;
}
