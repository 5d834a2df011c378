/**
 * The contract's resources (../shared/api-contract.md), written once as field schemas.
 *
 * Each schema is the single source of truth for three things: the TypeScript type of the resource
 * (derived below with `Resource<...>`), the field list that `--fields` validates against and that
 * tables take their default columns from, and the JSON type each field must have (the sandbox's
 * contract tests check responses against it).
 */

/**
 * The JSON kind of a field. The contract's reading rule ("Optional or partial fields can be null;
 * clients treat null and unknown fields as expected") makes every field nullable and optional, except
 * the identifiers and weeks later requests are built from: those carry a trailing `!` and must be
 * there, non-null and usable (docs/design.md, "Reading an answer").
 */
export type FieldKind =
  | 'string' | 'string!'
  | 'integer' | 'integer!'
  /** An integer that can exceed 2^53 (articleHash): a bigint in native mode. */
  | 'biginteger'
  | 'number'
  | 'boolean'
  | 'timestamp'
  | 'string[]'
  | 'array'
  | 'object';

export type FieldSchema = Readonly<Record<string, FieldKind>>;

/**
 * Any JSON value as the library returns it in native mode (an integer beyond 2^53 is a bigint): the
 * type of fields whose elements the contract leaves unspecified (`snippets`, `countryRows`). Narrow it
 * with typeof checks before use; nothing about its shape is promised.
 */
export type JsonValue = string | number | bigint | boolean | null | JsonValue[] | { [key: string]: JsonValue };

type KindType<K extends FieldKind> =
  K extends 'string' | 'string!' | 'timestamp' ? string :
  K extends 'integer' | 'integer!' | 'number' ? number :
  K extends 'biginteger' ? bigint :
  K extends 'boolean' ? boolean :
  K extends 'string[]' ? Array<string | null> :
  K extends 'array' ? JsonValue[] :
  K extends 'object' ? { [key: string]: JsonValue } :
  never;

type RequiredFields<S extends FieldSchema> = { [F in keyof S]: S[F] extends `${string}!` ? F : never }[keyof S];

/**
 * The type of a resource as the library returns it in native number mode: identifiers always there,
 * every other field possibly null or left out. (A non-identifier integer beyond 2^53 comes back as a
 * bigint in native mode.)
 */
export type Resource<S extends FieldSchema> = { -readonly [F in RequiredFields<S>]: KindType<S[F]> } & {
  -readonly [F in Exclude<keyof S, RequiredFields<S>>]?: KindType<S[F]> | null;
};

/**
 * A resource with every field there and non-null except those named in `Nullable`: what a sender
 * that knows its data writes (the sandbox, a problem body read field by field).
 */
export type Complete<S extends FieldSchema, Nullable extends keyof S = never> = {
  -readonly [F in keyof S]: KindType<S[F]> | (F extends Nullable ? null : never);
};

/** True for the identifiers and weeks later requests are built from (a kind ending in `!`). */
export function isIdentifierKind(kind: FieldKind): boolean {
  return kind.endsWith('!');
}

export const weekInfoSchema = {
  currentWeek: 'integer!',
  last4StartWeek: 'integer!',
} as const satisfies FieldSchema;

export const personSchema = {
  personHash: 'string!',
  fullName: 'string',
  description: 'string',
  gender: 'integer',
  category: 'string',
  countryId: 'integer!',
  countryName: 'string',
  birthDate: 'timestamp',
  createdAt: 'timestamp',
  updatedAt: 'timestamp',
} as const satisfies FieldSchema;

export const personStatsSchema = {
  rank: 'integer',
  personHash: 'string!',
  fullName: 'string',
  mentionCount: 'integer',
  gender: 'integer',
  fromCountryId: 'integer',
  fromCountryName: 'string',
  /** Nullable as Person.birthDate is: the ranked list repeats the person's record. */
  birthDate: 'timestamp',
  persistence: 'integer',
  dominance: 'number',
  reach: 'number',
  power: 'number',
  sentiment: 'number',
  sentimentColor: 'string',
  sentimentFace: 'string',
  snippets: 'array',
  reason: 'string',
  countryRows: 'array',
} as const satisfies FieldSchema;

/** Fields every person-article link carries. */
export const personLinkBaseSchema = {
  personHash: 'string!',
  articleHash: 'biginteger',
  mentionDate: 'timestamp',
  snippet: 'string',
  sentiment: 'number',
} as const satisfies FieldSchema;

/** Added when includeContext is true (contract rule 3). */
export const personLinkContextSchema = {
  sentimentColor: 'string',
  sentimentFace: 'string',
  articleTitle: 'string',
  articleUrl: 'string',
  articlePeople: 'string',
  otherPeople: 'string[]',
  sourceId: 'integer',
  sourceName: 'string',
  sourceUrl: 'string',
  countryId: 'integer',
  countryName: 'string',
  countryIso: 'string',
} as const satisfies FieldSchema;

export const personLinkSchema = { ...personLinkBaseSchema, ...personLinkContextSchema } as const satisfies FieldSchema;

export const personCountryStatsSchema = {
  startWeek: 'integer',
  endWeek: 'integer',
  globalDominance: 'number',
  globalSentiment: 'number',
  globalReach: 'number',
  globalPower: 'number',
  persistence: 'integer',
  countries: 'array',
} as const satisfies FieldSchema;

export const personCountryRowSchema = {
  countryId: 'integer!',
  countryName: 'string',
  countryIso: 'string',
  mentions: 'integer',
  articles: 'integer',
  population: 'integer',
  gdp: 'integer',
  persistence: 'integer',
  localDominance: 'number',
  reach: 'number',
  power: 'number',
  sentiment: 'number',
} as const satisfies FieldSchema;

export const countrySchema = {
  countryId: 'integer!',
  countryName: 'string',
  countryIso: 'string',
} as const satisfies FieldSchema;

export const sourceSchema = {
  sourceId: 'integer!',
  name: 'string',
  url: 'string',
  countryId: 'integer!',
  description: 'string',
  lastCheckedDate: 'timestamp',
  status: 'string',
  linkFilter: 'string',
  createdAt: 'timestamp',
  updatedAt: 'timestamp',
  country: 'object',
} as const satisfies FieldSchema;

export const sourceLinksSchema = {
  source: 'object',
  allLinks: 'string[]',
  matchedLinks: 'string[]',
  unmatchedLinks: 'string[]',
} as const satisfies FieldSchema;

export const postSchema = {
  postId: 'integer',
  title: 'string',
  slug: 'string!',
  content: 'string',
  summary: 'string',
  imagePath: 'string',
  status: 'string',
  view: 'string',
  createdAt: 'timestamp',
  updatedAt: 'timestamp',
} as const satisfies FieldSchema;

export const articleBaseSchema = {
  articleHash: 'biginteger',
  url: 'string',
  title: 'string',
  sourceId: 'integer!',
  people: 'string',
} as const satisfies FieldSchema;

/** Added when includeSourceContext is true (contract rule 4). */
export const articleSourceContextSchema = {
  sourceName: 'string',
  sourceStatus: 'string',
  countryId: 'integer',
  countryName: 'string',
  countryIso: 'string',
} as const satisfies FieldSchema;

export const articleSchema = { ...articleBaseSchema, ...articleSourceContextSchema } as const satisfies FieldSchema;

export const articleStatsSchema = {
  days: 'integer',
  totalArticles: 'integer',
  totalSources: 'integer',
  totalCountries: 'integer',
} as const satisfies FieldSchema;

export const articleStatsAllTimeSchema = {
  totalArticles: 'integer',
  totalSources: 'integer',
  totalCountries: 'integer',
} as const satisfies FieldSchema;

export const internationalAttentionSchema = {
  countryId: 'integer!',
  percentage: 'number',
  rank: 'integer',
  outOf: 'integer',
  median: 'number',
} as const satisfies FieldSchema;

export const domesticFocusSchema = {
  countryId: 'integer!',
  startWeek: 'integer',
  endWeek: 'integer',
  focusPercent: 'number',
  rank: 'integer',
  outOf: 'integer',
  median: 'number',
} as const satisfies FieldSchema;

/** The 400 problem-details body. */
export const problemDetailsSchema = {
  type: 'string',
  title: 'string',
  status: 'integer',
  traceId: 'string',
} as const satisfies FieldSchema;

export type WeekInfo = Resource<typeof weekInfoSchema>;
export type Person = Resource<typeof personSchema>;
export type PersonStats = Resource<typeof personStatsSchema>;
/** A link with includeContext=false: the base fields only. */
export type PersonLinkBase = Resource<typeof personLinkBaseSchema>;
/** A link with includeContext=true (the default): every context field is there. */
export type PersonLinkWithContext = Resource<typeof personLinkSchema>;
/** Either (includeContext not known statically): context fields optional. */
export type PersonLink = PersonLinkBase & Partial<Resource<typeof personLinkContextSchema>>;
export type PersonCountryRow = Resource<typeof personCountryRowSchema>;
export type PersonCountryStats = Omit<Resource<typeof personCountryStatsSchema>, 'countries'> & {
  countries?: PersonCountryRow[] | null;
};
export type Country = Resource<typeof countrySchema>;
export type Source = Resource<typeof sourceSchema>;
export type SourceLinks = Omit<Resource<typeof sourceLinksSchema>, 'source'> & {
  source?: { sourceId?: number | null; name?: string | null } | null;
};
export type Post = Resource<typeof postSchema>;
/** An article with includeSourceContext=false: the base fields only. */
export type ArticleBase = Resource<typeof articleBaseSchema>;
/** An article with includeSourceContext=true (the default): every source context field is there. */
export type ArticleWithSourceContext = Resource<typeof articleSchema>;
/** Either (includeSourceContext not known statically): source context fields optional. */
export type Article = ArticleBase & Partial<Resource<typeof articleSourceContextSchema>>;
export type ArticleStats = Resource<typeof articleStatsSchema>;
export type ArticleStatsAllTime = Resource<typeof articleStatsAllTimeSchema>;
export type InternationalAttention = Resource<typeof internationalAttentionSchema>;
export type DomesticFocus = Resource<typeof domesticFocusSchema>;
/** Read from an error body only when each field has its type (src/api/http.ts), so never null. */
export type ProblemDetails = Complete<typeof problemDetailsSchema>;

/** Field names of a schema, in contract order. */
export function fieldsOf(schema: FieldSchema): string[] {
  return Object.keys(schema);
}

// Query parameters, as the contract names them.

export interface PeopleSearchParams {
  q?: string | undefined;
  personHash?: string | undefined;
  fullName?: string | undefined;
  exactName?: boolean | undefined;
  countryId?: number | undefined;
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
  countryId?: number | undefined;
  fromCountryId?: number | undefined;
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

/**
 * What one endpoint answers: a record or a list of them. The client checks every 200 against it
 * (validate.ts), so a broken answer fails at the client's edge instead of deep in a command.
 */
export interface ResponseShape {
  list: boolean;
  schema: FieldSchema;
  /** Fields the contract leaves out in some modes (includeContext=false): checked only when present. */
  optional?: FieldSchema;
  /** Records nested in a field, e.g. country-stats' countries. */
  nested?: Readonly<Record<string, FieldSchema>>;
}

/**
 * Every endpoint of the contract, as it writes them, with what it answers. The client's tests and the
 * sandbox's tests both check against this one list, so neither can gain or lose an endpoint without
 * the other, and the client's shape check reads its shapes from here.
 */
export const ENDPOINT_SHAPES = {
  '/api/data/weeks/current': { list: false, schema: weekInfoSchema },
  '/api/data/people': { list: true, schema: personSchema },
  '/api/data/people/{personHash}': { list: false, schema: personSchema },
  '/api/data/people/search': { list: true, schema: personSchema },
  '/api/data/people/top': { list: true, schema: personStatsSchema },
  '/api/data/people/{personHash}/links': { list: true, schema: personLinkBaseSchema, optional: personLinkContextSchema },
  '/api/data/people/{personHash}/country-stats': { list: false, schema: personCountryStatsSchema, nested: { countries: personCountryRowSchema } },
  '/api/data/countries': { list: true, schema: countrySchema },
  '/api/data/countries/{countryId}': { list: false, schema: countrySchema },
  '/api/data/countries/slug/{slug}': { list: false, schema: countrySchema },
  '/api/data/countries/{countryId}/international-attention': { list: false, schema: internationalAttentionSchema },
  '/api/data/countries/{countryId}/domestic-focus': { list: false, schema: domesticFocusSchema },
  '/api/data/sources': { list: true, schema: sourceSchema },
  '/api/data/sources/{sourceId}': { list: false, schema: sourceSchema },
  '/api/data/sources/{sourceId}/links': { list: false, schema: sourceLinksSchema },
  '/api/data/posts/recent': { list: true, schema: postSchema },
  '/api/data/posts/{slug}': { list: false, schema: postSchema },
  '/api/data/articles/recent': { list: true, schema: articleBaseSchema, optional: articleSourceContextSchema },
  '/api/data/articles/stats': { list: false, schema: articleStatsSchema },
  '/api/data/articles/stats/all-time': { list: false, schema: articleStatsAllTimeSchema },
} as const satisfies Readonly<Record<string, ResponseShape>>;

export type Endpoint = keyof typeof ENDPOINT_SHAPES;

/** The names of an endpoint's `{...}` segments: `personHash` for `/api/data/people/{personHash}/links`. */
export type PathParameterNames<E extends string> = E extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParameterNames<Rest> : never;

/** The endpoints alone, in the contract's order. */
export const ENDPOINTS = Object.keys(ENDPOINT_SHAPES) as readonly Endpoint[];

/** Ages people are filtered by (minAge, maxAge): the contract gives no bound, newsstats takes 0-150. */
export const AGE_BOUNDS = { min: 0, max: 150 } as const;

/** The contract's bounds on query parameters (its Limits table). */
export const BOUNDS = {
  searchLimit: { min: 1, max: 100 },
  linksLimit: { min: 1, max: 250 },
  postsCount: { min: 1, max: 50 },
  articlesLimit: { min: 1, max: 500 },
  statsDays: { min: 1, max: 365 },
} as const;
