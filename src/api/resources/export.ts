/**
 * Bulk exports: one request per person of a ranking, many at once, results in rank order, as async
 * iterators. The window is pinned once (the service's last-4 window unless one is given), so the
 * ranking and every per-person request agree on the weeks.
 */
import { AbortError, InvalidParameterError } from '../errors.js';
import { inOrder, type InOrderOptions } from '../in-order.js';
import type { NumberMode, Parsed } from '../json.js';
import { BOUNDS, type PeopleTopParams, type PersonCountryStats, type PersonLink, type PersonLinkBase, type PersonLinkWithContext, type PersonStats } from '../types.js';
import { checkBound, type CallOptions } from './base.js';
import type { PeopleResource } from './people.js';
import type { WeeksResource } from './weeks.js';

/** Requests in flight unless `concurrency` says otherwise. */
export const EXPORT_DEFAULT_CONCURRENCY = 4;
/**
 * Bytes the answers waiting behind a slower one may hold before no further request starts. Requests in
 * flight come on top: at most `concurrency` bodies of up to maxResponseBytes each.
 */
export const EXPORT_DEFAULT_MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
/**
 * How far ahead of the oldest unfinished request one may start, in requests in flight (inOrder's
 * window: 4 unless told). A file's writer is slower than a fast link: on loopback every answer
 * the window allows was read ahead and waited parsed while the writer caught up, long enough for V8
 * to move it to the old generation, which only a full collection empties. 480 people's links as CSV
 * peaked 5-13 MiB higher with 15 answers waiting than with 7 (docs/performance.md, "Export memory").
 * Two requests' worth still lets the others go on past one slow request.
 */
const EXPORT_WINDOW_PER_REQUEST = 2;
/** The bound the CLI's --top has too: far more would be an export of everyone, one request each. */
export const EXPORT_TOP_BOUNDS = { min: 1, max: 10_000 } as const;

/** The weeks an export covers, pinned once. */
export interface ExportWindow {
  startWeek: number;
  endWeek: number;
}

export interface ExportParams<M extends NumberMode> extends Omit<PeopleTopParams, 'limit'> {
  /** How many people, from the top of the ranking (1-10,000). */
  top: number;
  /** Requests in flight at once; default 4. */
  concurrency?: number | undefined;
  /** Bytes of finished answers that may wait behind a slower one; default 32 MiB. */
  maxBufferedBytes?: number | undefined;
  /** Called once the ranking is read, before the first result: who the export covers, over which weeks. */
  onRanking?: ((ranking: { people: Array<Parsed<M, PersonStats>>; window: ExportWindow }) => void) | undefined;
}

export interface LinksExportParams<M extends NumberMode> extends ExportParams<M> {
  /** Links per person, 1-250. */
  limit?: number | undefined;
  /** Default true: every link carries its article, source and country. */
  includeContext?: boolean | undefined;
}

export interface CountryStatsExportItem<M extends NumberMode> {
  person: Parsed<M, PersonStats>;
  countryStats: Parsed<M, PersonCountryStats>;
}

export interface LinksExportItem<M extends NumberMode, L = PersonLink> {
  person: Parsed<M, PersonStats>;
  links: Parsed<M, L[]>;
}

export class ExportResource<M extends NumberMode> {
  readonly #people: PeopleResource<M>;
  readonly #weeks: WeeksResource<M>;

  constructor(people: PeopleResource<M>, weeks: WeeksResource<M>) {
    this.#people = people;
    this.#weeks = weeks;
  }

  /** Per-country statistics of the top `top` people, one item a person, in rank order. */
  async *countryStats(params: ExportParams<M>, options: CallOptions = {}): AsyncGenerator<CountryStatsExportItem<M>, void, undefined> {
    const { people, window } = await this.#ranking(params, options);
    yield* untilAborted(inOrder(people, async (person, _index, signal) => {
      const { data, response } = await this.#people.countryStats(String(person.personHash), window, { ...options, signal }).withResponse();
      return { value: { person, countryStats: data }, bytes: response.bytes };
    }, waitingBounds(params, options)),
    options.signal, '/api/data/people/{personHash}/country-stats');
  }

  /** Article links of the top `top` people, newest first per person, one item a person, in rank order. */
  links(params: LinksExportParams<M> & { includeContext?: true | undefined }, options?: CallOptions): AsyncGenerator<LinksExportItem<M, PersonLinkWithContext>, void, undefined>;
  links(params: LinksExportParams<M> & { includeContext: false }, options?: CallOptions): AsyncGenerator<LinksExportItem<M, PersonLinkBase>, void, undefined>;
  links(params: LinksExportParams<M>, options?: CallOptions): AsyncGenerator<LinksExportItem<M>, void, undefined>;
  async *links(params: LinksExportParams<M>, options: CallOptions = {}): AsyncGenerator<LinksExportItem<M>, void, undefined> {
    checkBound('limit', params.limit, BOUNDS.linksLimit);
    const { people } = await this.#ranking(params, options);
    yield* untilAborted(inOrder(people, async (person, _index, signal) => {
      const { data, response } = await this.#people.links(String(person.personHash), {
        limit: params.limit,
        includeContext: params.includeContext,
      }, { ...options, signal }).withResponse();
      return { value: { person, links: data }, bytes: response.bytes };
    }, waitingBounds(params, options)),
    options.signal, '/api/data/people/{personHash}/links');
  }

  /** The ranking that decides who is exported, over a pinned window, cut to `top`. */
  async #ranking(params: ExportParams<M>, options: CallOptions): Promise<{ people: Array<Parsed<M, PersonStats>>; window: ExportWindow }> {
    const { top, concurrency: _concurrency, maxBufferedBytes: _maxBufferedBytes, onRanking, ...filters } = params;
    checkBound('top', top, EXPORT_TOP_BOUNDS);
    concurrencyOf(params);
    const window = await this.#window(params, options);
    const answer = await this.#people.top({ ...filters, ...window, limit: top }, options);
    // `top` is ours to keep: a service that sends more would otherwise multiply the requests that follow.
    const people = answer.slice(0, top) as unknown as Array<Parsed<M, PersonStats>>;
    onRanking?.({ people, window });
    return { people, window };
  }

  async #window(params: ExportParams<M>, options: CallOptions): Promise<ExportWindow> {
    const { startWeek, endWeek } = params;
    if (startWeek !== undefined && endWeek !== undefined) return { startWeek, endWeek };
    if (startWeek !== undefined || endWeek !== undefined) {
      throw new InvalidParameterError(startWeek === undefined ? 'startWeek' : 'endWeek',
        'an export takes both startWeek and endWeek, or neither (the service\'s last-4 window)');
    }
    const info = await this.#weeks.current(options);
    return { startWeek: Number(String(info.last4StartWeek)), endWeek: Number(String(info.currentWeek)) };
  }
}

/**
 * The results of an export while the caller's signal holds: once it aborts, the next step rejects
 * with AbortError, even when finished results are still waiting, and leaving the loop (the for-await
 * calls return()) stops the requests in flight.
 */
async function* untilAborted<T>(results: AsyncGenerator<T, void, undefined>, signal: AbortSignal | undefined, url: string): AsyncGenerator<T, void, undefined> {
  for await (const result of results) {
    if (signal?.aborted) throw new AbortError({ method: 'GET', url, reason: signal.reason });
    yield result;
  }
}

/** What may wait behind a slower request: a count (the window) and bytes (maxBufferedBytes). */
function waitingBounds(params: { concurrency?: number | undefined; maxBufferedBytes?: number | undefined }, options: CallOptions): InOrderOptions {
  const concurrency = concurrencyOf(params);
  return {
    concurrency,
    window: concurrency * EXPORT_WINDOW_PER_REQUEST,
    maxBufferedBytes: params.maxBufferedBytes ?? EXPORT_DEFAULT_MAX_BUFFERED_BYTES,
    signal: options.signal,
  };
}

function concurrencyOf(params: { concurrency?: number | undefined }): number {
  return checkBound('concurrency', params.concurrency, { min: 1, max: 64 }) ?? EXPORT_DEFAULT_CONCURRENCY;
}
