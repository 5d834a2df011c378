/**
 * NewsStatsClient: one typed method per endpoint of the contract. The only place that knows paths.
 *
 * ```ts
 * const client = new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey });
 * const { currentWeek, last4StartWeek } = await client.weeks.current();
 * const top = await client.people.top({ startWeek: last4StartWeek, endWeek: currentWeek, limit: 10 });
 * await client.close();
 * ```
 *
 * Parameters are checked against the contract's bounds before any request (InvalidParameterError);
 * server failures arrive as the error classes of ./errors.js. The client never prints.
 */
import { HttpClient, type HttpClientOptions, type Query, type QueryScalar } from './http.js';
import { InvalidParameterError } from './errors.js';
import type { NumberMode, Parsed } from './json.js';
import {
  API_ROOT,
  BOUNDS,
  type Article,
  type ArticlesRecentParams,
  type ArticleStats,
  type ArticleStatsAllTime,
  type Country,
  type DomesticFocus,
  type InternationalAttention,
  type PeopleSearchParams,
  type PeopleTopParams,
  type Person,
  type PersonCountryStats,
  type PersonLink,
  type PersonLinksParams,
  type PersonStats,
  type Post,
  type Source,
  type SourceLinks,
  type WeekInfo,
  type WeekRange,
} from './types.js';

export type { NumberMode, Parsed, LosslessOf } from './json.js';

export type ClientOptions = HttpClientOptions;


/**
 * Builds a path with every interpolation percent-encoded as one segment, so `a/b c` cannot reach
 * another endpoint (it becomes `a%2Fb%20c`). `.` and `..` are encoded too: left as they are, URL
 * normalisation would treat them as directory steps.
 */
export function path(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number | bigint>): string {
  let result = strings[0] ?? '';
  values.forEach((value, index) => {
    const text = String(value);
    if (text === '') throw new InvalidParameterError('path', 'a path parameter is empty');
    const encoded = text === '.' || text === '..' ? text.replaceAll('.', '%2E') : encodeURIComponent(text);
    result += encoded + (strings[index + 1] ?? '');
  });
  return result;
}

/**
 * The path of a raw request. `/api/data/x`, `api/data/x`, `/x` and `x` all mean `/api/data/x`: the
 * API has nothing outside /api/data, so a shorter form cannot be ambiguous. A query written in the
 * path (`people/top?limit=3`) is kept. Full URLs are refused: the key must only go to the base URL.
 */
export function resolveApiPath(raw: string): { path: string; query: Record<string, string[]> } {
  const text = raw.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//')) {
    throw new InvalidParameterError('path', `give a path under ${API_ROOT} (e.g. /people/top), not a full URL`);
  }
  const queryStart = text.indexOf('?');
  const pathText = queryStart === -1 ? text : text.slice(0, queryStart);
  const query: Record<string, string[]> = {};
  if (queryStart !== -1) {
    for (const [name, value] of new URLSearchParams(text.slice(queryStart + 1))) (query[name] ??= []).push(value);
  }
  let segments = pathText.split('/').filter((segment) => segment !== '').map(decodeSegment);
  if (segments[0] === 'api' && segments[1] === 'data') segments = segments.slice(2);
  else if (segments[0] === 'api') {
    // "/api/other" is a typo for a path outside the API, not a request for /api/data/api/other.
    throw new InvalidParameterError('path', `path ${JSON.stringify(raw)} is outside ${API_ROOT}; every endpoint lives under it`);
  }
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    throw new InvalidParameterError('path', `path ${JSON.stringify(raw)} must not contain . or .. segments`);
  }
  const encoded = segments.map((segment) => `/${encodeURIComponent(segment)}`).join('');
  return { path: `${API_ROOT}${encoded}`, query };
}

/** Already-encoded input stays as it was meant; a stray `%` is taken literally. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function checkBound(parameter: string, value: number | undefined, bounds: { min: number; max: number }): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new InvalidParameterError(parameter,
      `${parameter} must be an integer from ${bounds.min} to ${bounds.max} (got ${String(value)})`, bounds);
  }
  return value;
}

function checkInteger(parameter: string, value: number | undefined): number | undefined {
  if (value !== undefined && !Number.isSafeInteger(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be an integer (got ${String(value)})`);
  }
  return value;
}

function checkId(parameter: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be an integer (got ${String(value)})`);
  }
  return value;
}

function checkText(parameter: string, value: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidParameterError(parameter, `${parameter} must be a non-empty string`);
  }
  return value;
}

function weekQuery(range: WeekRange | undefined): Query {
  return {
    startWeek: checkInteger('startWeek', range?.startWeek),
    endWeek: checkInteger('endWeek', range?.endWeek),
  };
}

/** How the resources reach the request core. */
type Fetch<M extends NumberMode> = <T>(path: string, options?: { query?: Query; notFound?: string }) => Promise<Parsed<M, T>>;

const quote = (text: string): string => JSON.stringify(text);

export class WeeksResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  /** The current week and the start of the typical 4-week window ending at it. */
  async current(): Promise<Parsed<M, WeekInfo>> {
    return this.#fetch<WeekInfo>(path`/api/data/weeks/current`);
  }
}

export class PeopleResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  async list(): Promise<Parsed<M, Person[]>> {
    return this.#fetch<Person[]>(path`/api/data/people`);
  }

  async get(personHash: string): Promise<Parsed<M, Person>> {
    checkText('personHash', personHash);
    return this.#fetch<Person>(path`/api/data/people/${personHash}`, { notFound: `person ${quote(personHash)}` });
  }

  /** Needs at least one of q, personHash, fullName (the server answers 400 otherwise). */
  async search(params: PeopleSearchParams): Promise<Parsed<M, Person[]>> {
    const { q, personHash, fullName } = params;
    if (!q && !personHash && !fullName) {
      throw new InvalidParameterError('q', 'people search needs at least one of q, personHash, fullName');
    }
    return this.#fetch<Person[]>(path`/api/data/people/search`, {
      query: {
        q, personHash, fullName,
        exactName: params.exactName,
        countryId: checkInteger('countryId', params.countryId),
        gender: checkInteger('gender', params.gender),
        limit: checkBound('limit', params.limit, BOUNDS.searchLimit),
      },
    });
  }

  /** The ranked list; rank starts at 1. */
  async top(params: PeopleTopParams = {}): Promise<Parsed<M, PersonStats[]>> {
    if (params.sortBy !== undefined && params.sortBy !== 'mentions' && params.sortBy !== 'dominance') {
      throw new InvalidParameterError('sortBy', `sortBy must be mentions or dominance (got ${quote(String(params.sortBy))})`);
    }
    return this.#fetch<PersonStats[]>(path`/api/data/people/top`, {
      query: {
        ...weekQuery(params),
        limit: checkInteger('limit', params.limit),
        fresh: params.fresh,
        countryId: checkInteger('countryId', params.countryId),
        fromCountryId: checkInteger('fromCountryId', params.fromCountryId),
        gender: checkInteger('gender', params.gender),
        minAge: checkInteger('minAge', params.minAge),
        maxAge: checkInteger('maxAge', params.maxAge),
        newsCategory: params.newsCategory,
        sortBy: params.sortBy,
      },
    });
  }

  async links(personHash: string, params: PersonLinksParams = {}): Promise<Parsed<M, PersonLink[]>> {
    checkText('personHash', personHash);
    return this.#fetch<PersonLink[]>(path`/api/data/people/${personHash}/links`, {
      query: { limit: checkBound('limit', params.limit, BOUNDS.linksLimit), includeContext: params.includeContext },
      notFound: `person ${quote(personHash)}`,
    });
  }

  async countryStats(personHash: string, range?: WeekRange): Promise<Parsed<M, PersonCountryStats>> {
    checkText('personHash', personHash);
    return this.#fetch<PersonCountryStats>(path`/api/data/people/${personHash}/country-stats`, {
      query: weekQuery(range),
      notFound: `person ${quote(personHash)}`,
    });
  }
}

export class CountriesResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  async list(): Promise<Parsed<M, Country[]>> {
    return this.#fetch<Country[]>(path`/api/data/countries`);
  }

  async get(countryId: number): Promise<Parsed<M, Country>> {
    checkId('countryId', countryId);
    return this.#fetch<Country>(path`/api/data/countries/${countryId}`, { notFound: `country ${countryId}` });
  }

  async getBySlug(slug: string): Promise<Parsed<M, Country>> {
    checkText('slug', slug);
    return this.#fetch<Country>(path`/api/data/countries/slug/${slug}`, { notFound: `country slug ${quote(slug)}` });
  }

  /** How much the world's news mentions this country. */
  async attention(countryId: number): Promise<Parsed<M, InternationalAttention>> {
    checkId('countryId', countryId);
    return this.#fetch<InternationalAttention>(path`/api/data/countries/${countryId}/international-attention`, {
      notFound: `country ${countryId}`,
    });
  }

  /** How much this country's news is about itself, over a week range. */
  async focus(countryId: number, range?: WeekRange): Promise<Parsed<M, DomesticFocus>> {
    checkId('countryId', countryId);
    return this.#fetch<DomesticFocus>(path`/api/data/countries/${countryId}/domestic-focus`, {
      query: weekQuery(range),
      notFound: `country ${countryId}`,
    });
  }
}

export class SourcesResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  async list(params: { countryId?: number } = {}): Promise<Parsed<M, Source[]>> {
    return this.#fetch<Source[]>(path`/api/data/sources`, { query: { countryId: checkInteger('countryId', params.countryId) } });
  }

  async get(sourceId: number): Promise<Parsed<M, Source>> {
    checkId('sourceId', sourceId);
    return this.#fetch<Source>(path`/api/data/sources/${sourceId}`, { notFound: `source ${sourceId}` });
  }

  /** Links on the source's homepage, split by its link filter (applyFilter defaults to true on the server). */
  async links(sourceId: number, params: { applyFilter?: boolean } = {}): Promise<Parsed<M, SourceLinks>> {
    checkId('sourceId', sourceId);
    return this.#fetch<SourceLinks>(path`/api/data/sources/${sourceId}/links`, {
      query: { applyFilter: params.applyFilter },
      notFound: `source ${sourceId}`,
    });
  }
}

export class PostsResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  async recent(params: { count?: number } = {}): Promise<Parsed<M, Post[]>> {
    return this.#fetch<Post[]>(path`/api/data/posts/recent`, {
      query: { count: checkBound('count', params.count, BOUNDS.postsCount) },
    });
  }

  async get(slug: string): Promise<Parsed<M, Post>> {
    checkText('slug', slug);
    return this.#fetch<Post>(path`/api/data/posts/${slug}`, { notFound: `post ${quote(slug)}` });
  }
}

export class ArticlesResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;
  constructor(fetch: Fetch<M>) { this.#fetch = fetch; }

  async recent(params: ArticlesRecentParams = {}): Promise<Parsed<M, Article[]>> {
    return this.#fetch<Article[]>(path`/api/data/articles/recent`, {
      query: {
        limit: checkBound('limit', params.limit, BOUNDS.articlesLimit),
        includeSourceContext: params.includeSourceContext,
      },
    });
  }

  /** Counts over the last `days` days. */
  async stats(params: { days?: number } = {}): Promise<Parsed<M, ArticleStats>> {
    return this.#fetch<ArticleStats>(path`/api/data/articles/stats`, {
      query: { days: checkBound('days', params.days, BOUNDS.statsDays) },
    });
  }

  async statsAllTime(): Promise<Parsed<M, ArticleStatsAllTime>> {
    return this.#fetch<ArticleStatsAllTime>(path`/api/data/articles/stats/all-time`);
  }
}

export class NewsStatsClient<M extends NumberMode = 'native'> {
  /** How numbers come back: see docs/design.md, "Numbers are kept exactly as sent". */
  readonly numbers: M;
  readonly weeks: WeeksResource<M>;
  readonly people: PeopleResource<M>;
  readonly countries: CountriesResource<M>;
  readonly sources: SourcesResource<M>;
  readonly posts: PostsResource<M>;
  readonly articles: ArticlesResource<M>;
  readonly #http: HttpClient;

  /** Throws ConfigurationError for a missing or refused base URL or a missing key; sends nothing. */
  constructor(options: ClientOptions & { numbers?: M }) {
    this.numbers = (options.numbers ?? 'native') as M;
    if (this.numbers !== 'native' && this.numbers !== 'lossless') {
      throw new InvalidParameterError('numbers', `numbers must be native or lossless (got ${quote(String(this.numbers))})`);
    }
    this.#http = new HttpClient(options);
    const fetch: Fetch<M> = async <T>(apiPath: string, request: { query?: Query; notFound?: string } = {}) =>
      (await this.#http.getJson(apiPath, this.numbers, request)) as Parsed<M, T>;
    this.weeks = new WeeksResource(fetch);
    this.people = new PeopleResource(fetch);
    this.countries = new CountriesResource(fetch);
    this.sources = new SourcesResource(fetch);
    this.posts = new PostsResource(fetch);
    this.articles = new ArticlesResource(fetch);
  }

  /** The normalised service base, e.g. https://stats.example.com (no trailing slash, no /api/data). */
  get baseUrl(): string {
    return `${this.#http.address.origin}${this.#http.address.pathPrefix}`;
  }

  /**
   * Raw GET of any path under /api/data (see resolveApiPath for the accepted forms), parsed in this
   * client's number mode. For endpoints newer than this library.
   */
  async get(apiPath: string, query: Record<string, string | readonly string[]> = {}): Promise<unknown> {
    const resolved = resolveApiPath(apiPath);
    const merged: Record<string, QueryScalar[]> = { ...resolved.query };
    for (const [name, value] of Object.entries(query)) {
      merged[name] = [...(merged[name] ?? []), ...(typeof value === 'string' ? [value] : value)];
    }
    return this.#http.getJson(resolved.path, this.numbers, { query: merged });
  }

  /** Closes pooled connections once requests in flight finish; the client still works afterwards (it reconnects). */
  close(): Promise<void> {
    return this.#http.close();
  }

  /** Drops pooled connections at once, failing requests in flight (for an interrupt that must not wait). */
  destroy(): Promise<void> {
    return this.#http.destroy();
  }
}
