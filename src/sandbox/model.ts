/**
 * The seam between the sandbox's data (generator and metrics) and its HTTP server.
 *
 * The server parses and validates every query parameter (bounds, weeks, integers), fills in
 * defaults, answers 400/401/404/405 and serialises. The model only answers well-formed questions:
 * it returns `undefined` where the addressed person, country, source or post does not exist, and
 * plain objects ready for JSON otherwise (articleHash as a bigint).
 */
import type {
  Article,
  ArticleStats,
  ArticleStatsAllTime,
  Country,
  DomesticFocus,
  InternationalAttention,
  PeopleSearchParams,
  PeopleTopParams,
  Person,
  PersonCountryStats,
  PersonLink,
  PersonStats,
  Post,
  Source,
  SourceLinks,
  WeekInfo,
} from '../api/types.js';
import type { WeekWindow } from '../weeks.js';

export interface SandboxModelOptions {
  /** Same seed and now give byte-identical data. */
  seed: number;
  /** Decides currentWeek (the ISO week holding this instant, in UTC). */
  now: Date;
}

/** The contract's search parameters, with the server's defaults filled in. */
export type PeopleSearchQuery = PeopleSearchParams & Required<Pick<PeopleSearchParams, 'exactName' | 'limit'>>;

/** The contract's ranking parameters, with the window resolved and the server's defaults filled in. */
export type PeopleTopQuery = Omit<PeopleTopParams, keyof WeekWindow> &
  WeekWindow &
  Required<Pick<PeopleTopParams, 'limit' | 'fresh' | 'sortBy'>>;

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
