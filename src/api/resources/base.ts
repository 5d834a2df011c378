/**
 * What every resource shares: the request core it reaches through the client, the per-call options
 * every method takes, how an endpoint's path is built, and the parameter checks made before any request.
 */
import { APIPromise, type WithResponse } from '../api-promise.js';
import { InvalidParameterError } from '../errors.js';
import type { Query, RequestOptions } from '../core/http-client.js';
import type { NumberMode, Parsed } from '../json.js';
import type { Endpoint, IdentifierInput, PathParameterNames, WeekRange } from '../types.js';

/**
 * Options of one call: cancel it, give it its own deadlines (per attempt, for the whole call) or its
 * own retries, or send headers of its own.
 */
export type CallOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'totalTimeoutMs' | 'maxRetries' | 'headers'>;

/**
 * How the resources reach the request core (the client's, in its number mode): the endpoint says
 * which shape of ENDPOINT_SHAPES the answer is checked against, the path is the one requested.
 */
export type Fetch<M extends NumberMode> = <T>(endpoint: Endpoint, path: string, options?: RequestOptions) => Promise<WithResponse<Parsed<M, T>>>;

type PathValue = string | number | bigint;

/**
 * What a method asks for: the endpoint as the contract writes it (a key of ENDPOINT_SHAPES, so a
 * method for an endpoint without a shape does not compile), a value for each of its `{name}`
 * segments, and optionally its query and what a 404 means.
 */
export type RequestPlan = {
  [E in Endpoint]: { endpoint: E; query?: Query; notFound?: string } & ([PathParameterNames<E>] extends [never]
    ? { params?: never }
    : { params: Readonly<Record<PathParameterNames<E>, PathValue>> });
}[Endpoint];

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
      const { endpoint, params, ...request } = plan();
      return this.fetch<T>(endpoint, endpointPath(endpoint, params ?? {}), { ...request, ...options });
    })());
  }
}

/** A path with each interpolation encoded as one segment (pathSegment), for the client's raw get(). */
export function path(strings: TemplateStringsArray, ...values: readonly PathValue[]): string {
  let result = strings[0] ?? '';
  values.forEach((value, index) => {
    result += pathSegment(value) + (strings[index + 1] ?? '');
  });
  return result;
}

/**
 * One path parameter as one segment: `a/b c` cannot reach another endpoint (it becomes `a%2Fb%20c`).
 * `.` and `..` are encoded too: left as they are, URL normalisation would treat them as directory steps.
 */
function pathSegment(value: PathValue): string {
  const text = String(value);
  if (text === '') throw new InvalidParameterError('path', 'a path parameter is empty');
  return text === '.' || text === '..' ? text.replaceAll('.', '%2E') : encodeURIComponent(text);
}

/** The path of an endpoint, each `{name}` replaced by its value encoded as one segment (as `path` does). */
export function endpointPath(endpoint: Endpoint, params: Readonly<Record<string, PathValue>>): string {
  return endpoint.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(params[name] ?? ''));
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

/**
 * An identifier integer as sent: a number up to 2^53, a bigint, or a string of digits (what native mode
 * returns for one), any size. Anything else is refused naming the parameter.
 */
export function checkId(parameter: string, value: IdentifierInput): string | number | bigint {
  const fits = typeof value === 'bigint' || (typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string' && /^-?\d+$/.test(value));
  if (!fits) {
    throw new InvalidParameterError(parameter, `${parameter} must be an integer: a number up to 2^53, a bigint or a string of digits (got ${typeof value === 'string' ? quote(value) : String(value)})`);
  }
  return value;
}

/** An optional identifier query parameter (countryId, fromCountryId), checked as checkId does. */
export function checkOptionalId(parameter: string, value: IdentifierInput | undefined): string | number | bigint | undefined {
  return value === undefined ? undefined : checkId(parameter, value);
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
