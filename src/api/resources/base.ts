/**
 * What every resource shares: the request core it reaches through the client, the per-call options
 * every method takes, the `path` tag, and the parameter checks made before any request.
 */
import { APIPromise, type WithResponse } from '../api-promise.js';
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
export type Fetch<M extends NumberMode> = <T>(path: string, options?: RequestOptions) => Promise<WithResponse<Parsed<M, T>>>;

/** What a method asks for: the path and, optionally, its query and what a 404 means. */
export interface RequestPlan {
  path: string;
  query?: Query;
  notFound?: string;
}

/** One resource of the API (people, countries, ...), as Stainless SDKs shape them: a class per noun. */
export abstract class APIResource<M extends NumberMode> {
  protected readonly fetch: Fetch<M>;

  constructor(fetch: Fetch<M>) {
    this.fetch = fetch;
  }

  /**
   * Runs `plan` (the parameter checks, then the path) and the request. A check that fails rejects the
   * promise, as a failed request does, rather than throwing where the method is called.
   */
  protected request<T>(plan: () => RequestPlan, options: CallOptions = {}): APIPromise<Parsed<M, T>> {
    return new APIPromise((async () => {
      const { path, ...request } = plan();
      return this.fetch<T>(path, { ...request, ...options });
    })());
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
