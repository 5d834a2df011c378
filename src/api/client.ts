/**
 * NewsStatsClient: one typed method per endpoint of the contract, on one resource class per noun
 * (resources/), each naming its endpoint as a key of ENDPOINT_SHAPES; every typed answer is checked
 * against that endpoint's shape here, where the resources reach the request core.
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
import { APIPromise, requestIdOf } from './api-promise.js';
import { HttpClient, type HttpClientOptions, type JsonResponse, type Query, type QueryScalar, type RequestOptions } from './core/http-client.js';
import { InvalidParameterError } from './errors.js';
import { checkResponseShape } from './validate.js';
import type { NumberMode, Parsed } from './json.js';
import { API_ROOT, type Endpoint } from './types.js';
import { ArticlesResource } from './resources/articles.js';
import { path, quote, type CallOptions, type Fetch } from './resources/base.js';
import { CountriesResource } from './resources/countries.js';
import { ExportResource } from './resources/export.js';
import { PeopleResource } from './resources/people.js';
import { PostsResource } from './resources/posts.js';
import { SourcesResource } from './resources/sources.js';
import { WeeksResource } from './resources/weeks.js';

export type { NumberMode, Parsed, LosslessOf } from './json.js';

export type ClientOptions = HttpClientOptions;
/** For the raw get(): path`/people/${hash}/new-thing` encodes each value as one segment. */
export { path };
export type { CallOptions } from './resources/base.js';
export { ArticlesResource, CountriesResource, ExportResource, PeopleResource, PostsResource, SourcesResource, WeeksResource };
export type { APIPromise, ResponseInfo, WithResponse } from './api-promise.js';
export type { CountryStatsExportItem, ExportParams, ExportWindow, LinksExportItem, LinksExportParams } from './resources/export.js';

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
  if (segments.length === 0) {
    // The bare API root is no endpoint: a request would only fetch a 404 (or a redirect) with the key.
    throw new InvalidParameterError('path', `path ${JSON.stringify(raw)} names no endpoint; give one under ${API_ROOT}, e.g. people/top`);
  }
  const encoded = segments.map((segment) => `/${encodeURIComponent(segment)}`).join('');
  return { path: `${API_ROOT}${encoded}`, query };
}

function responseInfo({ response }: JsonResponse) {
  return { ...response, requestId: requestIdOf(response.headers) };
}

/** Already-encoded input stays as it was meant; a stray `%` is taken literally. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
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
  /** Bulk exports over a ranking, as async iterators: `for await (const item of client.export.countryStats({ top: 200 }))`. */
  readonly export: ExportResource<M>;
  readonly #http: HttpClient;

  /** Throws ConfigurationError for a missing or refused base URL or a missing key; sends nothing. */
  constructor(options: ClientOptions & { numbers?: M }) {
    this.numbers = (options.numbers ?? 'native') as M;
    if (this.numbers !== 'native' && this.numbers !== 'lossless') {
      throw new InvalidParameterError('numbers', `numbers must be native or lossless (got ${quote(String(this.numbers))})`);
    }
    this.#http = new HttpClient(options);
    // Every typed method's answer is checked against the contract here, at the one edge the resources
    // share (APIResource.request reaches it). The raw get() is not: its path may be newer than the contract.
    const fetch: Fetch<M> = async <T>(endpoint: Endpoint, apiPath: string, request: RequestOptions = {}) => {
      const answer = await this.#http.getJson(apiPath, this.numbers, request);
      checkResponseShape(endpoint, apiPath, answer.data);
      return { data: answer.data as Parsed<M, T>, response: responseInfo(answer) };
    };
    this.weeks = new WeeksResource(fetch);
    this.people = new PeopleResource(fetch);
    this.countries = new CountriesResource(fetch);
    this.sources = new SourcesResource(fetch);
    this.posts = new PostsResource(fetch);
    this.articles = new ArticlesResource(fetch);
    this.export = new ExportResource(this.people, this.weeks);
  }

  /** The normalised service base, e.g. https://stats.example.com (no trailing slash, no /api/data). */
  get baseUrl(): string {
    return `${this.#http.address.origin}${this.#http.address.pathPrefix}`;
  }

  /**
   * Raw GET of any path under /api/data (see resolveApiPath for the accepted forms), parsed in this
   * client's number mode, unchecked against the contract. For endpoints newer than this library. Query
   * values may be strings, numbers, booleans, bigints or LosslessNumbers, or lists of them (the key
   * repeats); undefined and null are left out.
   */
  get(apiPath: string, query: Query = {}, options: CallOptions = {}): APIPromise<unknown> {
    return new APIPromise((async () => {
      const resolved = resolveApiPath(apiPath);
      const merged: Record<string, QueryScalar[]> = { ...resolved.query };
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined || value === null) continue;
        merged[name] = [...(merged[name] ?? []), ...(Array.isArray(value) ? value as readonly QueryScalar[] : [value as QueryScalar])];
      }
      const answer = await this.#http.getJson(resolved.path, this.numbers, { ...options, query: merged });
      return { data: answer.data, response: responseInfo(answer) };
    })());
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
