/**
 * The contract's resources as the library types them, all derived from the one schema (src/schema/):
 * the record interfaces are generated from it with each field's description as its doc comment
 * (src/schema/records.ts), the field tables here are the schema's own. docs/types.md says what each
 * kind of field is in each sink and why.
 */
import type { Fields, FieldSpec } from '../schema/spec.js';
import type { IdentifierInput } from '../shared/exact-json/identifier.js';
import type { Article, ArticleStats, PersonLink } from '../schema/records.js';
import {
  articleBaseSchema,
  articleSourceContextSchema,
  ENDPOINT_SPECS,
  personLinkBaseSchema,
  personLinkContextSchema,
} from '../schema/contract.js';

export {
  articleBaseSchema,
  articleSchema,
  articleSourceContextSchema,
  articleStatsAllTimeSchema,
  articleStatsSchema,
  BOUNDS,
  countrySchema,
  domesticFocusSchema,
  ENDPOINT_SPECS,
  ENDPOINTS,
  internationalAttentionSchema,
  PATH_PARAMETERS,
  personCountryRowSchema,
  personCountryStatsSchema,
  personLinkBaseSchema,
  personLinkContextSchema,
  personLinkSchema,
  personSchema,
  personStatsSchema,
  postSchema,
  problemDetailsSchema,
  RECORDS,
  sourceLinksSchema,
  sourceSchema,
  weekInfoSchema,
  type Endpoint,
  type EndpointSpec,
  type ParameterSpec,
  type RecordName,
  type ResponseShape,
} from '../schema/contract.js';
export { fieldsOf, type FieldFormat, type Fields, type FieldSpec, type FieldType } from '../schema/spec.js';
export type {
  ArticleStatsAllTime,
  Country,
  DomesticFocus,
  InternationalAttention,
  JsonValue,
  Person,
  PersonCountryRow,
  PersonCountryStats,
  PersonStats,
  Post,
  ProblemDetails,
  Source,
  SourceLinks,
  WeekInfo,
} from '../schema/records.js';
export type { Article, ArticleStats, PersonLink };
export type { IdentifierInput } from '../shared/exact-json/identifier.js';
export type { IdentifierName } from '../schema/contract.js';

/** A field table (the schema's records are written as these). */
export type FieldSchema = Fields;

/** A link with includeContext=false: the base fields only. */
export type PersonLinkBase = Pick<PersonLink, keyof typeof personLinkBaseSchema>;
/** A link with includeContext=true (the default): the context fields may be there. */
export type PersonLinkWithContext = PersonLink;
/** An article with includeSourceContext=false: the base fields only. */
export type ArticleBase = Pick<Article, keyof typeof articleBaseSchema>;
/** An article with includeSourceContext=true (the default): the source context fields may be there. */
export type ArticleWithSourceContext = Article;
/**
 * A value as a sender that knows its data writes it (the sandbox): integers as numbers (the sandbox
 * types its articleHash, a bigint, itself), lists and objects of its choosing.
 */
type SentType<F extends FieldSpec> =
  F['type'] extends 'string' | 'timestamp' ? string :
  F['type'] extends 'integer' ? number :
  F['type'] extends 'number' ? number :
  F['type'] extends 'boolean' ? boolean :
  F['type'] extends 'array' ? (F['items'] extends 'string' ? string[] : unknown[]) :
  F['type'] extends 'object' ? { [key: string]: unknown } :
  never;

/**
 * A record with every field there and non-null except those named in `Nullable`: what a sender that
 * knows its data writes (the sandbox).
 */
export type Complete<S extends Fields, Nullable extends keyof S = never> = {
  -readonly [F in keyof S]: SentType<S[F]> | (F extends Nullable ? null : never);
};

/** Field names the contract's context flags add (includeContext, includeSourceContext). */
export const CONTEXT_FIELDS: ReadonlySet<string> = new Set([...Object.keys(personLinkContextSchema), ...Object.keys(articleSourceContextSchema)]);

/** The shape table under the name the client's code has always used. */
export const ENDPOINT_SHAPES = ENDPOINT_SPECS;

// Query parameters, as the contract names them.

export interface PeopleSearchParams {
  q?: string | undefined;
  personHash?: string | undefined;
  fullName?: string | undefined;
  exactName?: boolean | undefined;
  countryId?: IdentifierInput | undefined;
  gender?: number | undefined;
  /** 1-100 */
  limit?: number | undefined;
}

/**
 * What `people.search` takes: the parameters with at least one of q, personHash and fullName (the
 * service answers 400 without one), so `people.search({})` does not compile.
 */
export type PeopleSearchRequest = PeopleSearchParams & SearchTerm;

/** At least one of the terms a search matches by. */
export type SearchTerm = { q: string } | { personHash: string } | { fullName: string };

export type SortBy = 'mentions' | 'dominance';

export interface WeekRange {
  startWeek?: number | undefined;
  endWeek?: number | undefined;
}

export interface PeopleTopParams extends WeekRange {
  limit?: number | undefined;
  fresh?: boolean | undefined;
  countryId?: IdentifierInput | undefined;
  fromCountryId?: IdentifierInput | undefined;
  gender?: number | undefined;
  minAge?: number | undefined;
  maxAge?: number | undefined;
  newsCategory?: string | undefined;
  sortBy?: SortBy | undefined;
}

export interface PersonLinksParams {
  /** 1-250 */
  limit?: number | undefined;
  /** default true */
  includeContext?: boolean | undefined;
}

export interface ArticlesRecentParams {
  /** 1-500 */
  limit?: number | undefined;
  /** default true */
  includeSourceContext?: boolean | undefined;
}

/** Every endpoint lives under this path of the base URL. */
export const API_ROOT = '/api/data';

/** The names of an endpoint's `{...}` segments: `personHash` for `/api/data/people/{personHash}/links`. */
export type PathParameterNames<E extends string> = E extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterNames<Rest> : never;

/** Ages people are filtered by (minAge, maxAge): the contract gives no bound, newsstats takes 0-150. */
export const AGE_BOUNDS = { min: 0, max: 150 } as const;

