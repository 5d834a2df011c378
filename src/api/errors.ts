/**
 * Every error the library throws is a NewsStatsError, so callers (and the CLI's one exit-code map)
 * can tell ours from bugs with a single instanceof. Messages are one line and never hold the API key:
 * requests carry the key only in a header, and `url` fields are the path and query alone.
 *
 * This file imports nothing at run time: the CLI loads it at startup to map errors to exit codes,
 * long before (or without ever) loading the HTTP core.
 */
import type { ProblemDetails } from './types.js';

export class NewsStatsError extends Error {
  override name = 'NewsStatsError';
}

/** A configuration value is absent or unusable. Which one, and why, is in the fields. */
export type ConfigurationSetting = 'baseUrl' | 'apiKey' | 'proxy' | NumericClientOption | 'onEvent' | 'fetch' | 'numbers';

/** The client's options that take a number: each refused, naming it, when out of its range. */
export type NumericClientOption =
  | 'timeoutMs' | 'totalTimeoutMs' | 'maxRetries' | 'maxConnections' | 'maxRequestsPerSecond'
  | 'retryBaseDelayMs' | 'maxRetryDelayMs' | 'maxRetryAfterMs' | 'maxResponseBytes';
export type ConfigurationProblem = 'missing' | 'invalid' | 'insecure';

export class ConfigurationError extends NewsStatsError {
  override name = 'ConfigurationError';
  readonly setting: ConfigurationSetting;
  readonly problem: ConfigurationProblem;

  constructor(setting: ConfigurationSetting, problem: ConfigurationProblem, message: string) {
    super(message);
    this.setting = setting;
    this.problem = problem;
  }
}

/**
 * A parameter is outside the contract's bounds or a required combination is missing. Thrown before
 * any request is sent, so an obviously wrong call costs no round trip (and no rate-limit budget).
 */
export class InvalidParameterError extends NewsStatsError {
  override name = 'InvalidParameterError';
  readonly parameter: string;
  readonly min: number | undefined;
  readonly max: number | undefined;

  constructor(parameter: string, message: string, bounds?: { min: number; max: number }) {
    super(message);
    this.parameter = parameter;
    this.min = bounds?.min;
    this.max = bounds?.max;
  }
}

export interface ApiErrorInit {
  status: number;
  method: string;
  /** Path and query only. */
  url: string;
  /** How many attempts were made, retries included. */
  attempts?: number;
  /** The response body read as problem details, when it was one. */
  problem?: Partial<ProblemDetails>;
  /** What the answer carried: its headers, its body and the wait it asked for. */
  response?: ErrorResponse;
  cause?: unknown;
}

/** The answer an ApiError came from, as the transport read it (the key masked wherever it was echoed). */
export interface ErrorResponse {
  /** Response headers, names in lower case; a repeated header's values joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The body as text. */
  body: string;
  /** The wait the service asked for (`retry-after-ms`, or Retry-After in seconds or as a date), in ms; undefined when it asked none. */
  retryAfterMs: number | undefined;
}

/**
 * The server answered with a status that is not a success, or (its subclasses ResponseFormatError,
 * ResponseShapeError, ResponseTooLargeError) with an answer that is unusable. Every one carries the
 * request it ended: `status`, `requestId`, the response `headers`, the `retryAfterMs` the service
 * asked for, and `asResponse()` for the raw body. The API key is never among them: it is a request
 * header, and wherever a server echoed it in a header or the body it is masked.
 */
export class ApiError extends NewsStatsError {
  override name = 'ApiError';
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  readonly problem: Partial<ProblemDetails> | undefined;
  /** The service's id of the request (`x-request-id`, or `request-id`), when it sent one: quote it to the service's support. */
  readonly requestId: string | undefined;
  /** The response headers, names in lower case (empty when the error came before any answer was read). */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The wait the service asked for before a retry (`retry-after-ms`, or Retry-After in seconds or as
   * an HTTP date), in milliseconds, as asked: the client honours it up to maxRetryAfterMs.
   */
  readonly retryAfterMs: number | undefined;
  /** Kept out of enumeration (loggers, JSON.stringify of the error): asResponse() gives it. */
  readonly #body: string | undefined;

  constructor(init: ApiErrorInit, message?: string) {
    super(message ?? `${init.method} ${init.url} failed with HTTP ${init.status}${problemSuffix(init.problem)}`,
      init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.attempts = init.attempts ?? 1;
    this.problem = init.problem;
    this.headers = init.response?.headers ?? {};
    this.requestId = this.headers['x-request-id'] ?? this.headers['request-id'];
    this.retryAfterMs = init.response?.retryAfterMs;
    this.#body = init.response?.body;
  }

  /**
   * The answer as a fetch Response: status, headers and the raw body (the problem details, an HTML
   * page from a proxy, ...). Each call gives a new Response, so the body can be read again.
   */
  asResponse(): Response {
    // A Response may not carry a body with these statuses, nor be made with a status outside 200-599.
    const bodyless = this.status === 204 || this.status === 205 || this.status === 304;
    const status = this.status >= 200 && this.status <= 599 ? this.status : 502;
    return new Response(bodyless ? null : this.#body ?? '', { status, headers: { ...this.headers } });
  }
}

/** 400: an invalid range or query combination. The problem's title says which; traceId finds it in the server's logs. */
export class BadRequestError extends ApiError {
  override name = 'BadRequestError';

  constructor(init: ApiErrorInit) {
    const title = init.problem?.title;
    const traceId = init.problem?.traceId;
    const detail = title ? `: ${title}` : ` (${init.method} ${init.url})`;
    super(init, `bad request${detail}${traceId ? ` (traceId ${traceId})` : ''}`);
  }
}

/** 401: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';

  constructor(init: ApiErrorInit) {
    super(init, `authentication failed (HTTP 401): the API key is missing or invalid${problemSuffix(init.problem)}`);
  }
}

/** 404: the person, country, source or post addressed by the path does not exist. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  /** What was looked for, e.g. `person "abc-123"`; undefined for raw requests. */
  readonly description: string | undefined;

  constructor(init: ApiErrorInit & { description?: string }) {
    super(init, init.description ? `${init.description} not found` : `not found: ${init.method} ${init.url}`);
    this.description = init.description;
  }
}

/** 429, still refused after every retry. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';

  constructor(init: ApiErrorInit) {
    super(init, `rate limited (HTTP 429) on ${init.method} ${init.url}${attemptsSuffix(init.attempts)}`);
  }
}

/** 5xx, still failing after every retry. */
export class ServerError extends ApiError {
  override name = 'ServerError';

  constructor(init: ApiErrorInit) {
    super(init, `server error (HTTP ${init.status}) on ${init.method} ${init.url}${attemptsSuffix(init.attempts)}${problemSuffix(init.problem)}`);
  }
}

/** A 200 whose body is not the JSON the contract promises (a proxy's HTML page, a cut-off body). */
export class ResponseFormatError extends ApiError {
  override name = 'ResponseFormatError';

  constructor(init: ApiErrorInit, reason: string) {
    super(init, `invalid JSON in the response to ${init.method} ${init.url}: ${reason}`);
  }
}

export interface ConnectionErrorInit {
  method: string;
  url: string;
  /** host:port of the service. */
  host: string;
  /** The system or undici error code, e.g. ECONNREFUSED, when there is one. */
  code?: string;
  /** A short reason when the code alone says little (undici's own errors). One line, never the key. */
  detail?: string;
  /**
   * The request went through the proxy from HTTPS_PROXY/HTTP_PROXY (NO_PROXY did not name the host),
   * named by its host:port (never its credentials): the failure may be the proxy's. `true` when the
   * host is not known.
   */
  viaProxy?: boolean | string;
  attempts?: number;
  cause?: unknown;
}

/** The service could not be reached, or the connection broke before a response arrived. */
export class ConnectionError extends NewsStatsError {
  override name = 'ConnectionError';
  readonly method: string;
  readonly url: string;
  readonly host: string;
  readonly code: string | undefined;
  readonly detail: string | undefined;
  readonly viaProxy: boolean;
  /** host:port of the proxy, when known. */
  readonly proxy: string | undefined;
  readonly attempts: number;

  constructor(init: ConnectionErrorInit, message?: string) {
    super(message ?? `cannot reach ${init.host}${init.code ? ` (${init.code})` : ''}${init.detail ? `: ${init.detail}` : ''}` +
      ` for ${init.method} ${init.url}${attemptsSuffix(init.attempts)}${proxySuffix(init.viaProxy)}`,
      init.cause === undefined ? undefined : { cause: init.cause });
    this.method = init.method;
    this.url = init.url;
    this.host = init.host;
    this.code = init.code;
    this.detail = init.detail;
    this.viaProxy = init.viaProxy !== undefined && init.viaProxy !== false;
    this.proxy = typeof init.viaProxy === 'string' ? init.viaProxy : undefined;
    this.attempts = init.attempts ?? 1;
  }
}

/**
 * No complete response in time: within the per-attempt deadline (timeoutMs, `scope` 'attempt'), or
 * within the whole call's (totalTimeoutMs, `scope` 'call').
 */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
  readonly timeoutMs: number;
  /** Where the attempt was when time ran out, e.g. "while connecting (DNS, TCP, TLS, proxy CONNECT)". */
  readonly phase: string | undefined;
  /** Which deadline struck: one attempt's (timeoutMs) or the whole call's (totalTimeoutMs). */
  readonly scope: 'attempt' | 'call';

  constructor(init: ConnectionErrorInit & { timeoutMs: number; phase?: string; scope?: 'attempt' | 'call' }) {
    const scope = init.scope ?? 'attempt';
    const what = scope === 'call' ? `ran out of its whole-call deadline of ${init.timeoutMs} ms` : `timed out after ${init.timeoutMs} ms`;
    super(init, `${init.method} ${init.url} to ${init.host} ${what}` +
      `${init.phase ? ` ${init.phase}` : ''}${attemptsSuffix(init.attempts)}${proxySuffix(init.viaProxy)}`);
    this.timeoutMs = init.timeoutMs;
    this.phase = init.phase;
    this.scope = scope;
  }
}

/**
 * The caller cancelled the call through its `signal`. `cause` is the signal's reason: the caller's own
 * value given to `abort(reason)`, a DOMException named AbortError for a bare `abort()`, or one named
 * TimeoutError from `AbortSignal.timeout()`. The name is AbortError, as a DOMException's would be, so
 * code that checks `error.name === 'AbortError'` keeps working.
 */
export class AbortError extends NewsStatsError {
  override name = 'AbortError';
  readonly method: string;
  readonly url: string;

  constructor(init: { method: string; url: string; reason: unknown }) {
    const reason = init.reason instanceof Error && init.reason.message !== '' ? `: ${init.reason.message}` : '';
    super(`${init.method} ${init.url} was aborted${reason}`, { cause: init.reason });
    this.method = init.method;
    this.url = init.url;
  }
}

function proxySuffix(viaProxy: boolean | string | undefined): string {
  if (typeof viaProxy === 'string') return ` (through the proxy ${viaProxy})`;
  return viaProxy ? ' (through the proxy set in HTTPS_PROXY/HTTP_PROXY)' : '';
}

function attemptsSuffix(attempts: number | undefined): string {
  return attempts !== undefined && attempts > 1 ? ` after ${attempts} attempts` : '';
}

function problemSuffix(problem: Partial<ProblemDetails> | undefined): string {
  if (!problem?.title) return '';
  return `: ${problem.title}${problem.traceId ? ` (traceId ${problem.traceId})` : ''}`;
}

/**
 * A 200 whose JSON is not what the contract promises for that endpoint: the wrong top-level type, a
 * field of the wrong type, or a value no real answer holds. Never the caller's fault.
 */
export class ResponseShapeError extends ApiError {
  override name = 'ResponseShapeError';

  constructor(init: ApiErrorInit, reason: string) {
    super(init, `the service answered ${init.method} ${init.url} with an unexpected shape: ${reason}`);
  }
}

/** A body larger than the limit, or nested deeper than any real answer: abandoned before it costs the memory. */
export class ResponseTooLargeError extends ApiError {
  override name = 'ResponseTooLargeError';
  /** The size limit (maxResponseBytes) the body went over; undefined when it was the nesting that was refused. */
  readonly limitBytes: number | undefined;

  constructor(init: ApiErrorInit, reason: string, limitBytes?: number) {
    super(init, `the response to ${init.method} ${init.url} ${reason}`);
    this.limitBytes = limitBytes;
  }
}

/** 403: the key is valid but not allowed this resource. */
export class ForbiddenError extends ApiError {
  override name = 'ForbiddenError';

  constructor(init: ApiErrorInit) {
    super(init, `access denied (HTTP 403) to ${init.method} ${init.url}: the API key is not allowed this resource${problemSuffix(init.problem)}`);
  }
}

/**
 * 3xx: never followed, since the key would travel to wherever the service points. `location` is the
 * address it named (query dropped), or undefined when it named none.
 */
export class RedirectError extends ApiError {
  override name = 'RedirectError';
  readonly location: string | undefined;

  constructor(init: ApiErrorInit & { location?: string }) {
    super(init, init.location
      ? `the service redirected to ${init.location} (HTTP ${init.status}) and redirects are not followed; use the final address as the base URL`
      : `the service answered ${init.method} ${init.url} with a redirect (HTTP ${init.status}) but no Location; redirects are not followed`);
    this.location = init.location;
  }
}
