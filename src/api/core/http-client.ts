/**
 * HttpClient: one call from start to end, composed of the core's parts. The address (address.ts)
 * says where it goes; the transport (transport.ts) makes each attempt; the response reading
 * (response.ts) turns an answer into text, JSON or the error it maps to; the retry policy (retry.ts)
 * says whether and when to try again; the pacer (pacing.ts) and the call's scope (cancel.ts) decide
 * when an attempt may start and when the call is over.
 */
import { AbortError, ConfigurationError, ConnectionError, type ConnectionErrorInit, InvalidParameterError, type NumericClientOption, TimeoutError } from '../errors.js';
import type { NumberMode } from '../json.js';
import { HTTP_DEFAULTS, TEST_HOOKS, type InternalClientOptions, type RequestEvent } from '../options.js';
import { VERSION } from '../../shared/version.js';
import { buildQueryString, callHeaders, resolveServiceAddress, type Query, type ServiceAddress } from './address.js';
import { CallScope, cancellableSleep, type Cancellation } from './cancel.js';
import { monotonicMs } from './clock.js';
import { Pacer } from './pacing.js';
import { Slots } from './slots.js';
import { proxyFor, type ProxyRoute } from './proxy.js';
import { errorForAnswer, parseJsonBody } from './response.js';
import { backoffDelayMs, isRetryableStatus, requestedRetryMs, retryAfterDelayMs } from './retry.js';
import type { AttemptOutcome, Transport, TransportSettings } from './transport-contract.js';
import { defaultTransport } from './default-transport.js';
import { FetchTransport } from './fetch-transport.js';

export { HTTP_DEFAULTS, type HttpClientOptions, type RequestEvent } from '../options.js';
export type { Query, QueryScalar } from './address.js';

export interface RequestOptions {
  query?: Query | undefined;
  /** What the path addresses, e.g. `person "abc-123"`: a 404 then says that it was not found. */
  notFound?: string | undefined;
  /**
   * Cancels the call: the attempt in flight, a wait before a retry, a wait for the client's pace. The
   * promise rejects with AbortError, whose `cause` is the signal's reason.
   */
  signal?: AbortSignal | undefined;
  /** This request's deadline per attempt, instead of the client's. */
  timeoutMs?: number | undefined;
  /** This request's deadline for the whole call, retries and waits included, instead of the client's. */
  totalTimeoutMs?: number | undefined;
  /** This request's retries, instead of the client's. */
  maxRetries?: number | undefined;
  /** Headers sent with this request besides the client's own (which they cannot replace: see address.ts, REFUSED_HEADERS). */
  headers?: Readonly<Record<string, string | undefined>> | undefined;
}

export interface JsonResponse {
  data: unknown;
  response: Omit<HttpResponse, 'text'>;
}

export interface HttpResponse {
  status: number;
  text: string;
  /** Path and query as sent. */
  url: string;
  /** The response headers, names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** How many attempts the call took. */
  attempts: number;
  /** The body's size in bytes, as received. */
  bytes: number;
}

export class HttpClient {
  readonly address: ServiceAddress;
  readonly #apiKey: string;
  readonly #userAgent: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #maxConnections: number;
  readonly #retryBaseDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #totalTimeoutMs: number | undefined;
  readonly #onEvent: ((event: RequestEvent) => void) | undefined;
  readonly #random: () => number;
  readonly #sleep: ((ms: number) => Promise<void>) | undefined;
  readonly #now: () => number;
  readonly #pacer: Pacer;
  readonly #transport: Transport;
  /** The client's sockets, queued for here rather than in the transport; undefined with a caller's dispatcher. */
  readonly #slots: Slots | undefined;
  /** The proxy requests go through (from HTTPS_PROXY/HTTP_PROXY, unless NO_PROXY names the host); undefined when direct. */
  readonly #proxy: ProxyRoute | undefined;

  constructor(options: InternalClientOptions) {
    const allowInsecureHttp = options.allowInsecureHttp ?? HTTP_DEFAULTS.allowInsecureHttp;
    this.address = resolveServiceAddress(options.baseUrl, allowInsecureHttp);
    const apiKey = options.apiKey ?? '';
    if (apiKey === '') {
      throw new ConfigurationError('apiKey', 'missing', 'no API key is set');
    }
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      // A header cannot carry it; say so without echoing it.
      throw new ConfigurationError('apiKey', 'invalid', 'the API key contains spaces, line breaks or non-ASCII characters');
    }
    this.#apiKey = apiKey;
    this.#userAgent = options.userAgent ?? `newsstats/${VERSION}`;
    const setting = (name: NumericClientOption, fallback: number): number => checkOption(name, options[name] ?? fallback, ConfigurationError);
    this.#timeoutMs = setting('timeoutMs', HTTP_DEFAULTS.timeoutMs);
    this.#maxRetries = setting('maxRetries', HTTP_DEFAULTS.maxRetries);
    const maxConnections = setting('maxConnections', HTTP_DEFAULTS.maxConnections);
    this.#maxConnections = maxConnections;
    this.#retryBaseDelayMs = setting('retryBaseDelayMs', HTTP_DEFAULTS.retryBaseDelayMs);
    this.#maxRetryDelayMs = setting('maxRetryDelayMs', HTTP_DEFAULTS.maxRetryDelayMs);
    this.#maxRetryAfterMs = setting('maxRetryAfterMs', HTTP_DEFAULTS.maxRetryAfterMs);
    const maxResponseBytes = setting('maxResponseBytes', HTTP_DEFAULTS.maxResponseBytes);
    this.#totalTimeoutMs = options.totalTimeoutMs === undefined ? undefined : setting('totalTimeoutMs', 0);
    this.#pacer = new Pacer(options.maxRequestsPerSecond === undefined ? undefined : setting('maxRequestsPerSecond', 0));
    if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
      throw new ConfigurationError('onEvent', 'invalid', 'onEvent must be a function');
    }
    this.#onEvent = options.onEvent === undefined ? undefined : guardedHook(options.onEvent);
    const hooks = options[TEST_HOOKS];
    this.#random = hooks?.random ?? Math.random;
    this.#sleep = hooks?.sleep;
    this.#now = hooks?.now ?? monotonicMs;
    const dispatcher = options.dispatcher;
    // Loopback never goes through a proxy (as Go's net/http decides too): a plain-http request to a
    // local tunnel or the sandbox would otherwise carry the key, in clear text, to the proxy host.
    // Read here, so a malformed variable is a ConfigurationError naming it before any request.
    const fetchFunction = options.fetch;
    if (fetchFunction !== undefined && typeof fetchFunction !== 'function') throw new ConfigurationError('fetch', 'invalid', 'fetch must be a function, as globalThis.fetch is');
    if (fetchFunction !== undefined && dispatcher !== undefined) throw new ConfigurationError('fetch', 'invalid', 'give fetch or dispatcher, not both: dispatcher is for the undici transport');
    // fetch does its own proxying, if any: the proxy variables are the undici transport's.
    const env = options.env ?? (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    this.#proxy = this.address.loopback || dispatcher || fetchFunction ? undefined : proxyFor(this.address.origin, env);
    const settings: TransportSettings = {
      origin: this.address.origin, hostPort: this.address.hostPort, apiKey, timeoutMs: this.#timeoutMs,
      maxConnections, maxResponseBytes, proxy: this.#proxy,
    };
    this.#transport = fetchFunction ? new FetchTransport(settings, (input, init) => fetchFunction(input, init)) : defaultTransport(settings, dispatcher);
    this.#slots = dispatcher ? undefined : new Slots(maxConnections);
  }

  /** GET `path` (which starts with /api/data); resolves for 2xx, throws the mapped error otherwise. */
  async getText(path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const url = `${this.address.pathPrefix}${path}${buildQueryString(options.query)}`;
    const method = 'GET';
    const headers = { ...callHeaders(options.headers), 'x-api-key': this.#apiKey, accept: 'application/json', 'user-agent': this.#userAgent };
    const timeoutMs = options.timeoutMs === undefined ? this.#timeoutMs : checkOption('timeoutMs', options.timeoutMs, InvalidParameterError);
    const totalTimeoutMs = options.totalTimeoutMs === undefined ? this.#totalTimeoutMs : checkOption('totalTimeoutMs', options.totalTimeoutMs, InvalidParameterError);
    const maxRetries = options.maxRetries === undefined ? this.#maxRetries : checkOption('maxRetries', options.maxRetries, InvalidParameterError);
    const scope = new CallScope(options.signal, totalTimeoutMs, this.#now());
    const sleep = this.#sleep ?? cancellableSleep(scope);
    // The error of the latest attempt: what a call whose deadline leaves no room for a retry ends with.
    let last: Error | undefined;
    let attempt = 0;
    const cancellation = (why: Cancellation, phase = 'waiting for its turn at the client\'s pace'): Error => why.kind === 'aborted'
      ? new AbortError({ method, url, reason: why.reason })
      : last ?? new TimeoutError({ method, url, host: this.address.hostPort, timeoutMs: totalTimeoutMs ?? 0, scope: 'call',
        phase, attempts: Math.max(attempt, 1) });
    const queued = (why: Cancellation): Error => cancellation(why, `waiting for one of the client's ${this.#maxConnections} connections (maxConnections)`);
    /** Waits `ms`, then for the client's pace; throws when the call is cancelled meanwhile. */
    const waitTurn = async (ms: number): Promise<void> => {
      if (scope.cancelled) throw cancellation(scope.cancelled);
      if (ms > 0) await scope.wait(ms, sleep, cancellation);
      for (;;) {
        const now = this.#now();
        const slot = this.#pacer.reserve(now, now);
        if (slot > now) {
          if (last && slot >= scope.deadline) throw last;
          await scope.wait(slot - now, sleep, cancellation);
        }
        if (!this.#pacer.pausedPast(slot)) return;
      }
    };
    /** The wait before the next attempt, or undefined when the call's deadline would pass first. */
    const withinDeadline = (ms: number | undefined): number | undefined =>
      ms !== undefined && this.#now() + ms < scope.deadline ? ms : undefined;

    try {
      for (attempt = 1; ; attempt++) {
        // A socket of the client's first, then its pace: the attempt's deadline starts when both are
        // given, so time queued behind the client's own calls is not the server's.
        const release = await this.#slots?.acquire(scope, queued);
        let outcome: AttemptOutcome;
        let epoch: number;
        let started: number;
        try {
          await waitTurn(0);
          epoch = this.#pacer.epoch;
          started = monotonicMs();
          if (attempt === 1) this.#pacer.callStarted(this.#now());
          const left = scope.remaining(this.#now());
          outcome = await this.#transport.attempt({
            method, url, headers, scope, timeoutMs: Math.min(timeoutMs, Math.max(0, left)), deadlineBound: left < timeoutMs, totalTimeoutMs,
          });
        } finally {
          release?.();
        }
        const ms = Math.round(monotonicMs() - started);
        const canRetry = attempt <= maxRetries;

        if (outcome.kind === 'failure') {
          const retryInMs = withinDeadline(canRetry && outcome.retryable ? this.#backoff(attempt) : undefined);
          this.#onEvent?.({ method, url, attempt, ms, error: outcome.error, ...(retryInMs === undefined ? {} : { retryInMs }) });
          last = outcome.error instanceof ConnectionError ? withAttempts(outcome.error, attempt) : outcome.error;
          if (retryInMs === undefined) throw last;
          await waitTurn(retryInMs);
          continue;
        }

        const { status, text } = outcome;
        if (status >= 200 && status <= 299) {
          this.#pacer.succeeded(this.#now());
          this.#onEvent?.({ method, url, attempt, ms, status, ...(outcome.invalidUtf8 ? { invalidUtf8: true } : {}) });
          // undici puts the socket back in its pool only after the answer's last callback has returned:
          // a request the caller starts at once (the ranking after the week info) would open a connection
          // of its own, a new TLS handshake with the real service. One turn of the event loop avoids it.
          await nextTurn();
          return { status, text, url, headers: outcome.headers, attempts: attempt, bytes: outcome.bytes };
        }
        // A Retry-After that makes no sense (negative, garbage) was dropped by requestedRetryMs: ordinary backoff.
        const askedMs = requestedRetryMs(outcome.headers);
        const retryAfterMs = isRetryableStatus(status) && askedMs !== undefined ? Math.min(askedMs, this.#maxRetryAfterMs) : undefined;
        // What the service says applies to the client, not to this call alone: every call waits and slows.
        if (retryAfterMs !== undefined) this.#pacer.pause(this.#now() + retryAfterMs);
        if (status === 429) this.#pacer.rateLimited(epoch, this.#now());
        const retryAfter = canRetry && retryAfterMs !== undefined;
        const retryInMs = withinDeadline(!canRetry || !isRetryableStatus(status) ? undefined
          : retryAfterMs !== undefined ? retryAfterDelayMs(retryAfterMs, this.#random) : this.#backoff(attempt));
        const error = errorForAnswer(
          { status, method, url, attempts: attempt, headers: outcome.headers, text, location: outcome.headers.location, retryAfterMs: askedMs },
          { notFound: options.notFound, origin: this.address.origin, apiKey: this.#apiKey });
        this.#onEvent?.({ method, url, attempt, ms, status, error, ...(retryInMs === undefined ? {} : { retryInMs }), ...(retryAfter && retryInMs !== undefined ? { retryAfter } : {}) });
        last = error;
        if (retryInMs === undefined) throw error;
        await waitTurn(retryInMs);
      }
    } finally {
      scope.dispose();
    }
  }

  /** GET and parse the JSON body in the given number mode; `response` is the answer without its body. */
  async getJson(path: string, mode: NumberMode, options: RequestOptions = {}): Promise<JsonResponse> {
    const { text, ...response } = await this.getText(path, options);
    return { data: parseJsonBody(text, mode, response, this.#apiKey), response };
  }

  /** Closes the connections this client opened once requests in flight finish. Reusable afterwards. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Drops the connections at once, failing requests in flight: for Ctrl-C, which must not wait. */
  destroy(): Promise<void> {
    return this.#transport.destroy();
  }

  #backoff(attempt: number): number {
    return backoffDelayMs(attempt - 1, this.#retryBaseDelayMs, this.#maxRetryDelayMs, this.#random);
  }
}

/** One turn of the event loop: setImmediate where there is one (Node, Bun, Deno), a zero timer elsewhere. */
function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    if (typeof setImmediate === 'function') setImmediate(resolve);
    else setTimeout(resolve, 0);
  });
}

/** The final error reports how many attempts were made; the per-attempt one was built before that was known. */
function withAttempts(error: ConnectionError, attempts: number): ConnectionError {
  if (attempts === 1) return error;
  const init: ConnectionErrorInit = {
    method: error.method, url: error.url, host: error.host, attempts, cause: error.cause, viaProxy: error.proxy ?? error.viaProxy,
    ...(error.code ? { code: error.code } : {}), ...(error.detail ? { detail: error.detail } : {}),
  };
  return error instanceof TimeoutError
    ? new TimeoutError({ ...init, timeoutMs: error.timeoutMs, scope: error.scope, ...(error.phase ? { phase: error.phase } : {}) })
    : new ConnectionError(init);
}

/**
 * The longest delay a timer can hold (2^31 - 1 ms, about 24.8 days): Node runs a longer one after
 * 1 ms (with a TimeoutOverflowWarning), so `timeoutMs: 2 ** 40` would time every attempt out at once.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Each numeric option's range: the timers' bound for the durations, whole numbers for the counts. */
const OPTION_RANGES: Readonly<Record<NumericClientOption, { min: number; max: number; integer?: true; what: string }>> = {
  timeoutMs: { min: Number.MIN_VALUE, max: MAX_TIMER_MS, what: 'milliseconds' },
  totalTimeoutMs: { min: Number.MIN_VALUE, max: MAX_TIMER_MS, what: 'milliseconds' },
  retryBaseDelayMs: { min: 0, max: MAX_TIMER_MS, what: 'milliseconds' },
  maxRetryDelayMs: { min: 0, max: MAX_TIMER_MS, what: 'milliseconds' },
  maxRetryAfterMs: { min: 0, max: MAX_TIMER_MS, what: 'milliseconds' },
  maxRetries: { min: 0, max: 1000, integer: true, what: 'retries' },
  maxConnections: { min: 1, max: 10_000, integer: true, what: 'connections' },
  maxResponseBytes: { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true, what: 'bytes' },
  maxRequestsPerSecond: { min: Number.MIN_VALUE, max: 1_000_000, what: 'requests a second' },
};

/**
 * `value` when it is in the option's range; otherwise the error naming the option (a ConfigurationError
 * for the client's options, an InvalidParameterError for one call's).
 */
function checkOption(
  name: NumericClientOption,
  value: unknown,
  ErrorClass: typeof ConfigurationError | typeof InvalidParameterError,
): number {
  const range = OPTION_RANGES[name];
  const fits = typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max &&
    (!range.integer || Number.isInteger(value));
  if (fits) return value;
  const low = range.min === Number.MIN_VALUE ? 'above 0' : `from ${range.min}`;
  const message = `${name} must be ${range.integer ? 'a whole number of' : 'a number of'} ${range.what} ${low} to ${range.max}` +
    `${range.max === MAX_TIMER_MS ? ' (about 24.8 days, the longest a timer can wait)' : ''} (got ${typeof value === 'number' ? String(value) : typeof value})`;
  if (ErrorClass === InvalidParameterError) throw new InvalidParameterError(name, message);
  throw new ConfigurationError(name, 'invalid', message);
}

/**
 * onEvent is the caller's code, run inside a call: an exception thrown there is the caller's bug and
 * must not fail the request it reports on (it would turn a success into a failure, or replace the real
 * error). It is reported where unexpected errors go, once per hook, and the call goes on.
 */
function guardedHook(hook: (event: RequestEvent) => void): (event: RequestEvent) => void {
  let reported = false;
  return (event) => {
    try {
      hook(event);
    } catch (error) {
      if (reported) return;
      reported = true;
      queueMicrotask(() => {
        // A warning, not a crash: process.emitWarning where there is one, console.warn elsewhere.
        const proc = (globalThis as { process?: { emitWarning?: (warning: Error) => void } }).process;
        const warning = new Error(`newsstats: the onEvent hook threw (ignored, the call went on): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        warning.name = 'NewsStatsHookWarning';
        if (proc?.emitWarning) proc.emitWarning(warning);
        else console.warn(warning.message);
      });
    }
  };
}
