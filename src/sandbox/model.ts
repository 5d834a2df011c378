/**
 * The seam between the sandbox's data (generator and metrics) and its HTTP server.
 *
 * The server parses and validates every query parameter (bounds, weeks, integers), fills in
 * defaults, answers 400/401/404/405 and serialises. The model only answers well-formed questions:
 * it returns `undefined` where the addressed person, country, source or post does not exist, and
 * plain objects ready for JSON otherwise (articleHash as a bigint).
 */
import type {
  articleBaseSchema,
  articleSourceContextSchema,
  articleStatsAllTimeSchema,
  articleStatsSchema,
  Complete,
  countrySchema,
  domesticFocusSchema,
  internationalAttentionSchema,
  PeopleSearchParams,
  PeopleTopParams,
  personCountryRowSchema,
  personCountryStatsSchema,
  personLinkBaseSchema,
  personLinkContextSchema,
  personSchema,
  personStatsSchema,
  postSchema,
  sourceLinksSchema,
  sourceSchema,
  weekInfoSchema,
} from '../api/types.js';
import type { WeekWindow } from '../shared/weeks.js';

// The resources as the sandbox sends them: every field there, null only where named (the contract lets
// any field but an identifier be null; these are the nulls the default data holds, so a first run
// shows how they look). The wild answers (src/sandbox/wild.ts) add the rest.
export type WeekInfo = Complete<typeof weekInfoSchema>;
export type Person = Complete<typeof personSchema, 'description' | 'countryName' | 'birthDate'>;
/** fromCountryName is null for a person with no known country, as Person.countryName is. */
export type PersonStats = Complete<typeof personStatsSchema, 'fromCountryName' | 'birthDate'>;
export type PersonLink = Omit<Complete<typeof personLinkBaseSchema>, 'articleHash'> & { articleHash: bigint } & Partial<Complete<typeof personLinkContextSchema>>;
export type PersonCountryRow = Complete<typeof personCountryRowSchema>;
export type PersonCountryStats = Omit<Complete<typeof personCountryStatsSchema>, 'countries'> & { countries: PersonCountryRow[] };
export type Country = Complete<typeof countrySchema>;
/** lastCheckedDate is null for a source never checked. */
export type Source = Complete<typeof sourceSchema, 'lastCheckedDate' | 'country'>;
export type SourceLinks = Omit<Complete<typeof sourceLinksSchema>, 'source' | 'allLinks' | 'matchedLinks' | 'unmatchedLinks'> & {
  source: { sourceId: number; name: string };
  allLinks: string[];
  matchedLinks: string[];
  unmatchedLinks: string[];
};
export type Post = Complete<typeof postSchema>;
export type Article = Omit<Complete<typeof articleBaseSchema>, 'articleHash'> & { articleHash: bigint } & Partial<Complete<typeof articleSourceContextSchema>>;
export type ArticleStats = Complete<typeof articleStatsSchema>;
export type ArticleStatsAllTime = Complete<typeof articleStatsAllTimeSchema>;
export type InternationalAttention = Complete<typeof internationalAttentionSchema>;
export type DomesticFocus = Complete<typeof domesticFocusSchema>;

export interface SandboxModelOptions {
  /** Same seed and now give byte-identical data. */
  seed: number;
  /** Decides currentWeek (the ISO week holding this instant, in UTC). */
  now: Date;
}

/** Country filters as the sandbox reads them: its countries are numbered 1 to 60. */
type CountryFilters = { countryId?: number | undefined; fromCountryId?: number | undefined };

/** The contract's search parameters, with the server's defaults filled in. */
export type PeopleSearchQuery = Omit<PeopleSearchParams, 'countryId'> & Pick<CountryFilters, 'countryId'> & { exactName: boolean; limit: number };

/** The contract's ranking parameters, with the window resolved and the server's defaults filled in. */
export type PeopleTopQuery = Omit<PeopleTopParams, keyof WeekWindow | keyof CountryFilters> &
  CountryFilters &
  WeekWindow &
  { limit: number; fresh: boolean; sortBy: NonNullable<PeopleTopParams['sortBy']> };

export interface SandboxModel {
  weekInfo(): WeekInfo;

  people(): Person[];
  person(personHash: string): Person | undefined;
  searchPeople(query: PeopleSearchQuery): Person[];
  topPeople(query: PeopleTopQuery): PersonStats[];
  personLinks(personHash: string, query: { limit: number; includeContext: boolean }): PersonLink[] | undefined;
  personCountryStats(personHash: string, window: WeekWindow): PersonCountryStats | undefined;

  countries(): Country[];
  country(countryId: number): Country | undefined;
  countryBySlug(slug: string): Country | undefined;
  internationalAttention(countryId: number): InternationalAttention | undefined;
  domesticFocus(countryId: number, window: WeekWindow): DomesticFocus | undefined;

  sources(countryId?: number): Source[];
  source(sourceId: number): Source | undefined;
  sourceLinks(sourceId: number, applyFilter: boolean): SourceLinks | undefined;

  recentPosts(count: number): Post[];
  post(slug: string): Post | undefined;

  recentArticles(query: { limit: number; includeSourceContext: boolean }): Article[];
  articleStats(days: number): ArticleStats;
  articleStatsAllTime(): ArticleStatsAllTime;
}
