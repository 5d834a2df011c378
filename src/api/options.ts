/**
 * The request core's options and their defaults, stated once. Kept apart from core/ (which loads undici) so the CLI can
 * show the defaults in its help without loading undici.
 */

/** One attempt of one request, reported for `--verbose`. Never holds the API key. */
export interface RequestEvent {
  method: string;
  /** Path and query only. */
  url: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /** The response status, when a response arrived. */
  status?: number;
  /** How long the attempt took. */
  ms: number;
  /** Why the attempt failed, when it did. */
  error?: Error;
  /** When the request will be tried again: the wait before the next attempt. */
  retryInMs?: number;
  /** The wait is the one the service asked for in Retry-After, not our own backoff. */
  retryAfter?: boolean;
  /** A successful answer held bytes that are not UTF-8: they were read as U+FFFD (�). */
  invalidUtf8?: boolean;
}

/** An undici Dispatcher as far as the client uses one; any undici Agent, Pool or MockAgent is one. */
export interface UndiciDispatcher {
  dispatch(options: object, handler: object): boolean;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

export interface HttpClientOptions {
  /** The service base, {base_url} in the contract, e.g. https://stats.example.com. A trailing `/api/data` is accepted and dropped. */
  baseUrl: string;
  apiKey: string;
  /** One deadline per attempt, from DNS and connecting (TLS, a proxy's CONNECT) to the end of the body. */
  timeoutMs?: number | undefined;
  /**
   * One deadline for the whole call: every attempt and every wait between them. Without it a call may
   * take up to (maxRetries + 1) × timeoutMs plus the waits. A retry that could not start before it is
   * not waited for: the call fails at once with the error of its last attempt. Default: none.
   */
  totalTimeoutMs?: number | undefined;
  /**
   * Most attempts this client starts in a second, over all its calls (their starts are spaced evenly).
   * Default: no limit. Whatever it is, a 429 slows every call of the client (docs/library.md,
   * "Options, deadlines and the client's own queue": pacing).
   */
  maxRequestsPerSecond?: number | undefined;
  /** Retries after the first attempt; 0 disables retrying. */
  maxRetries?: number | undefined;
  /**
   * Most sockets open to the service at once; further requests wait for a free one. Without a cap,
   * undici opens a new socket when a request starts in the same tick another one finishes, so N
   * workers end up holding up to 2N connections.
   */
  maxConnections?: number | undefined;
  /** Sent as User-Agent; default `newsstats/<version>`. */
  userAgent?: string | undefined;
  /** Allow a plain http:// base URL that is not loopback (the key then crosses the network in clear text). */
  allowInsecureHttp?: boolean | undefined;
  onEvent?: ((event: RequestEvent) => void) | undefined;
  /** The first backoff ceiling; it doubles with each retry. */
  retryBaseDelayMs?: number | undefined;
  /** The largest backoff ceiling. */
  maxRetryDelayMs?: number | undefined;
  /** A server's Retry-After is honoured up to this long. */
  maxRetryAfterMs?: number | undefined;
  /** A response body larger than this is abandoned (ResponseTooLargeError) rather than buffered. */
  maxResponseBytes?: number | undefined;
  /**
   * The fetch to make requests with instead of undici: for a runtime's own (Deno, Bun, Workers pick
   * theirs without it) or an instrumented one. Redirects must not be followed by it (the client asks
   * `redirect: 'manual'`). Node uses undici unless this is given.
   */
  fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /**
   * A caller-owned undici dispatcher (an Agent, Pool or MockAgent: tests, custom TLS); the client then
   * never closes it. Node only; undici is bundled into the library, so this is the caller's own undici.
   */
  dispatcher?: UndiciDispatcher | undefined;
  /**
   * Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) are read; default `process.env`. A program
   * that runs with an environment of its own, as the CLI's main() does in-process, passes it here.
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The test suite's hooks into the client's randomness, waits and clock, under a key no user writes by
 * accident and no public type shows: tests pass `{ [TEST_HOOKS]: { ... } }` with the options.
 */
export const TEST_HOOKS: unique symbol = Symbol('newsstats test hooks');

export interface TestHooks {
  /** Returns a number in [0, 1): the jitter of backoffs and Retry-After waits. */
  random?: () => number;
  /** Waits, so tests need not. */
  sleep?: (ms: number) => Promise<void>;
  /** The clock the client's pace is kept by (monotonicMs by default, clock.ts); tests advance it as they sleep. */
  now?: () => number;
}

/** The options as the client reads them: the public ones and, from tests, the hooks. */
export type InternalClientOptions = HttpClientOptions & { [TEST_HOOKS]?: TestHooks };

export const HTTP_DEFAULTS = {
  timeoutMs: 30_000,
  maxRetries: 3,
  maxConnections: 8,
  allowInsecureHttp: false,
  retryBaseDelayMs: 250,
  maxRetryDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  /** Far above any answer of the contract (the largest, a full people list, is a few MiB). */
  maxResponseBytes: 16 * 1024 * 1024,
} as const;
