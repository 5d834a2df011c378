/**
 * What every resource shares: the request core it reaches through the client, the per-call options
 * every method takes, the `path` tag, and the parameter checks made before any request.
 */
import { InvalidParameterError } from '../errors.js';
import type { Query, RequestOptions } from '../http.js';
import type { NumberMode, Parsed } from '../json.js';
import type { WeekRange } from '../types.js';

/**
 * Options of one call: cancel it, give it its own deadlines (per attempt, for the whole call) or its
 * own retries, or send headers of its own.
 */
export type CallOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'totalTimeoutMs' | 'maxRetries' | 'headers'>;

/** How the resources reach the request core (the client's, in its number mode). */
export type Fetch<M extends NumberMode> = <T>(path: string, options?: RequestOptions) => Promise<Parsed<M, T>>;

/** One resource of the API (people, countries, ...), as Stainless SDKs shape them: a class per noun. */
export abstract class APIResource<M extends NumberMode> {
  readonly #fetch: Fetch<M>;

  constructor(fetch: Fetch<M>) {
    this.#fetch = fetch;
  }

  protected request<T>(path: string, request: { query?: Query; notFound?: string }, options: CallOptions = {}): Promise<Parsed<M, T>> {
    return this.#fetch<T>(path, { ...request, ...options });
  }
}

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

export function checkBound(parameter: string, value: number | undefined, bounds: { min: number; max: number }): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw new InvalidParameterError(parameter,
      `${parameter} must be an integer from ${bounds.min} to ${bounds.max} (got ${String(value)})`, bounds);
  }
  return value;
}

export function checkInteger(parameter: string, value: number | undefined): number | undefined {
  if (value !== undefined && !Number.isSafeInteger(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be an integer (got ${String(value)})`);
  }
  return value;
}

export function checkId(parameter: string, value: number): number {
  if (!Number.isSafeInteger(value)) {
    throw new InvalidParameterError(parameter, `${parameter} must be an integer (got ${String(value)})`);
  }
  return value;
}

export function checkText(parameter: string, value: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidParameterError(parameter, `${parameter} must be a non-empty string`);
  }
  return value;
}

export function weekQuery(range: WeekRange | undefined): Query {
  return {
    startWeek: checkInteger('startWeek', range?.startWeek),
    endWeek: checkInteger('endWeek', range?.endWeek),
  };
}

export const quote = (text: string): string => JSON.stringify(text);
