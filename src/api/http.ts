/**
 * The request core: base URL, headers, timeouts, retries and error mapping, on undici.
 * The only module that imports undici, so nothing pays for loading it until a request is due.
 */
import { isUtf8 } from 'node:buffer';
import { isIPv4 } from 'node:net';
import type { Dispatcher } from 'undici';
// The two dispatchers straight from their files: undici's index also loads fetch, WebSocket, the cache
// and cookies, and its cookies module touches globalThis.Headers, which makes Node load its own bundled
// copy of undici as well. Together about 50 ms of every run that makes a request. What the index does
// that they need is done here: give dispatchers request() and connect() (the proxy agent uses it).
import Agent from 'undici/lib/dispatcher/agent.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import UndiciDispatcher from 'undici/lib/dispatcher/dispatcher.js';
import dispatcherApi from 'undici/lib/api/index.js';
Object.assign(UndiciDispatcher.prototype, dispatcherApi);
import { LosslessNumber } from 'lossless-json';
import {
  AbortError,
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  type ConnectionErrorInit,
  ForbiddenError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  RedirectError,
  ResponseFormatError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from './errors.js';
import { parseJson, type NumberMode } from './json.js';
import { NumberBoundError } from '../shared/exact-json/slicing.js';
import { CallScope, cancellableSleep, type Cancellation } from './cancel.js';
import { HTTP_DEFAULTS, TEST_HOOKS, type InternalClientOptions, type RequestEvent } from './options.js';
import { Pacer } from './pacing.js';
import { monotonicMs } from './clock.js';
import { API_ROOT, type ProblemDetails } from './types.js';
import { VERSION } from '../shared/version.js';
import { printable } from '../shared/printable.js';
import { redactSecret } from './redact.js';
import { proxyFor, type ProxyRoute } from './proxy.js';

export { HTTP_DEFAULTS, type HttpClientOptions, type RequestEvent } from './options.js';

export type QueryScalar = string | number | boolean | bigint | LosslessNumber;
/** Query parameters; undefined and null are left out, arrays repeat the key. */
export type Query = Readonly<Record<string, QueryScalar | readonly QueryScalar[] | null | undefined>>;

export interface RequestOptions {
  query?: Query;
  /** What the path addresses, e.g. `person "abc-123"`: a 404 then says that it was not found. */
  notFound?: string;
  /**
   * Cancels the call: the attempt in flight, a wait before a retry, a wait for the client's pace. The
   * promise rejects with AbortError, whose `cause` is the signal's reason.
   */
  signal?: AbortSignal;
  /** This request's deadline per attempt, instead of the client's. */
  timeoutMs?: number;
  /** This request's deadline for the whole call, retries and waits included, instead of the client's. */
  totalTimeoutMs?: number;
  /** This request's retries, instead of the client's. */
  maxRetries?: number;
  /** Headers sent with this request besides the client's own (which they cannot replace: see REFUSED_HEADERS). */
  headers?: Readonly<Record<string, string>>;
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

/**
 * Headers a call may not set: the key is the client's to send (and to keep out of logs), and the
 * others are the connection's, which undici manages.
 */
const REFUSED_HEADERS = new Set(['x-api-key', 'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade']);

function callHeaders(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(lower)) throw new InvalidParameterError('headers', `${JSON.stringify(name)} is not a header name`);
    if (REFUSED_HEADERS.has(lower)) throw new InvalidParameterError('headers', `the ${lower} header is the client's to send; a call cannot set it`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new InvalidParameterError('headers', `the ${lower} header's value must be a string on one line`);
    result[lower] = value;
  }
  return result;
}

/** undici's raw [name, value, ...] list as a record, names in lower case. */
function headerRecord(rawHeaders: readonly Buffer[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = String(rawHeaders[index]).toLowerCase();
    const value = String(rawHeaders[index + 1]);
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return headers;
}

/** Where requests go, split the way undici wants it; checked once at construction. */
export interface ServiceAddress {
  origin: string;
  /** Path under the origin where the service lives ('' for the root), no trailing slash. */
  pathPrefix: string;
  /** host:port, for messages. */
  hostPort: string;
  /** The service is on this machine: its traffic must never be sent through a proxy. */
  loopback: boolean;
}


/**
 * Checks and normalises the service base URL. The key travels in a header, so a plain-http URL would
 * put it on the wire in clear text: allowed only to loopback, or when the caller opts in.
 */
export function resolveServiceAddress(baseUrl: string | undefined, allowInsecureHttp: boolean): ServiceAddress {
  const text = baseUrl?.trim() ?? '';
  if (text === '') {
    throw new ConfigurationError('baseUrl', 'missing', 'no base URL is set: give baseUrl, the service base, e.g. https://stats.example.com');
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigurationError('baseUrl', 'invalid', `base URL ${JSON.stringify(text)} is not a URL: write it in full, e.g. https://stats.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    // `localhost:8080` parses as scheme "localhost:", so name the whole text rather than the scheme.
    throw new ConfigurationError('baseUrl', 'invalid', `base URL ${JSON.stringify(text)} must start with https:// (or http:// for loopback)`);
  }
  if (url.username !== '' || url.password !== '') {
    // Credentials in the URL would end up in logs and messages; the key has its own setting.
    throw new ConfigurationError('baseUrl', 'invalid', 'base URL must not contain a user name or password');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigurationError('baseUrl', 'invalid', 'base URL must not contain a query (?) or fragment (#)');
  }
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError('baseUrl', 'insecure',
      `refusing to send the API key over plain http to ${url.host}: use an https:// base URL, or set allowInsecureHttp`);
  }
  let pathPrefix = url.pathname.replace(/\/+$/, '');
  // People paste the API root as often as the service base; both mean the same service.
  if (pathPrefix.endsWith(API_ROOT)) pathPrefix = pathPrefix.slice(0, -API_ROOT.length);
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return { origin: url.origin, pathPrefix, hostPort: `${url.hostname}:${port}`, loopback: isLoopbackHost(url.hostname) };
}

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  return isIPv4(host) && host.startsWith('127.');
}

/** Encodes a query the same way for every value type; LosslessNumber and bigint keep their digits. */
export function buildQueryString(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values: readonly QueryScalar[] = Array.isArray(value) ? (value as readonly QueryScalar[]) : [value as QueryScalar];
    for (const item of values) {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(queryValueText(item))}`);
    }
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function queryValueText(value: QueryScalar): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : invalidQueryNumber(value);
  return value.toString();
}

function invalidQueryNumber(value: number): never {
  throw new TypeError(`query value ${value} is not a finite number`);
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names a weekday or month; "-5" or "soon" would parse as odd dates, or not at all.
  if (!/^[a-z]{3}, \d{2} [a-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * A Retry-After wait plus jitter, so calls told the same second do not return in the same millisecond:
 * up to a fifth of the wait more, and at most one second more.
 */
export function retryAfterDelayMs(retryAfterMs: number, random: () => number): number {
  return retryAfterMs + Math.floor(random() * Math.min(retryAfterMs / 5, 1000));
}

/** Exponential backoff with full jitter: anywhere in [0, min(cap, base * 2^retryIndex)]. */
export function backoffDelayMs(retryIndex: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}

const RETRYABLE_STATUSES = new Set([408, 429]);

function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || (status >= 500 && status <= 599);
}

/** Failures a moment later may not repeat. DNS misses (ENOTFOUND) and TLS failures would, so they are not retried. */
const TRANSIENT_CONNECTION_CODES = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN',
  'ENETUNREACH', 'ENETDOWN', 'EHOSTUNREACH', 'EHOSTDOWN',
  'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_REQ_RETRY',
  // A proxy that closed or reset before the tunnel opened; a dispatcher retired after a stuck attempt.
  'PROXY_TUNNEL_FAILED', 'UND_ERR_DESTROYED',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** undici's complaints about the request itself: bugs, not network trouble. */
const PROGRAMMING_ERROR_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

/** The code of a network error, looking through undici's and happy-eyeballs' wrappers. */
function errorCode(error: unknown): string | undefined {
  const candidates: unknown[] = [error];
  for (let i = 0; i < candidates.length && i < 8; i++) {
    const candidate = candidates[i];
    if (typeof candidate !== 'object' || candidate === null) continue;
    const { code, cause, errors } = candidate as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    if (cause !== undefined) candidates.push(cause);
    if (Array.isArray(errors)) candidates.push(...(errors as unknown[]));
  }
  return undefined;
}

/** Which of the proxy variables are set, in any case. */

/** undici's error codes say little on their own ("UND_ERR_ABORTED"); their messages say what happened. */
function connectionDetail(error: unknown, code: string | undefined, apiKey: string): string | undefined {
  if (code !== undefined && !code.startsWith('UND_ERR_')) return undefined;
  return error instanceof Error ? cleanProblemText(error.message, apiKey)?.slice(0, 200) : undefined;
}

/**
 * Keeps a problem field printable on one line and free of the key, whatever the server echoed:
 * control characters and bidi overrides cannot reach the terminal.
 */
function cleanProblemText(value: unknown, apiKey: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = printable(redactSecret(value, apiKey)).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

function readProblem(text: string, apiKey: string): Partial<ProblemDetails> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const problem: Partial<ProblemDetails> = {};
  const type = cleanProblemText(record.type, apiKey);
  const title = cleanProblemText(record.title, apiKey);
  const traceId = cleanProblemText(record.traceId, apiKey);
  if (type !== undefined) problem.type = type;
  if (title !== undefined) problem.title = title;
  if (traceId !== undefined) problem.traceId = traceId;
  if (typeof record.status === 'number') problem.status = record.status;
  return Object.keys(problem).length > 0 ? problem : undefined;
}

function errorForStatus(init: ApiErrorInit, notFound: string | undefined): ApiError {
  const { status } = init;
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new ForbiddenError(init);
  if (status === 404) return new NotFoundError(notFound === undefined ? init : { ...init, description: notFound });
  if (status === 429) return new RateLimitError(init);
  if (status >= 500 && status <= 599) return new ServerError(init);
  return new ApiError(init);
}

/** Marks an abort as ours (the per-attempt deadline) rather than the caller's, and says in which phase it struck. */
class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
  /** The call's deadline (totalTimeoutMs) struck, not the attempt's own. */
  constructor(readonly phase: AttemptPhase, readonly wholeCall = false) {
    super(`timed out ${PHASE_TEXT[phase]}`);
  }
}

/** A body over the size limit: abandoned mid-stream rather than buffered. */
class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/**
 * Where an attempt is. `connect` covers DNS, TCP, TLS and a proxy's CONNECT: undici hands the request
 * a socket only once all of them are done.
 */
type AttemptPhase = 'connect' | 'headers' | 'body';

const PHASE_TEXT: Readonly<Record<AttemptPhase, string>> = {
  connect: 'while connecting (DNS, TCP, TLS, proxy CONNECT)',
  headers: 'waiting for the response headers',
  body: 'reading the response body',
};

/** Nesting deeper than this is no answer of the contract (its deepest is 3); parsing it would risk the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Everything of JSON text but its brackets: whole strings (one left open runs to the end, so no
 * quote is tried twice) and runs of anything else. What remains is the nesting alone.
 */
const NOT_A_BRACKET = /"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?$)|[^[\]{}"]+/g;

/** An array or object with nothing left in it, once everything but brackets is gone. */
const EMPTY_PAIR = /\[\]|\{\}/g;

/**
 * Whether arrays and objects in JSON text nest deeper than `limit` (strings skipped). The regular
 * expressions work in native code: the first leaves the brackets alone, and each pass of the second
 * takes out the innermost pairs, one level of nesting, so a balanced text takes as many passes as it
 * nests deep (3 for the contract's answers). A loop over the brackets, as before, ran a few thousand
 * times an answer: V8 then optimised it in the background (a further 5 MiB of memory for the
 * optimising compiler's code, in about half of the runs of a query). Unbalanced text (no JSON, which
 * JSON.parse refuses, but the slicing parser would recurse into) is counted bracket by bracket, unless
 * its pairs alone already nest deeper than `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  const brackets = text.replace(NOT_A_BRACKET, '');
  let left = brackets;
  for (let depth = 1; left.length > 0; depth++) {
    const inner = left.replace(EMPTY_PAIR, '');
    if (inner.length === left.length) return unbalancedDepthExceeds(brackets, limit);
    if (depth > limit) return true;
    left = inner;
  }
  return false;
}

/** Whether brackets that do not all pair up open deeper than `limit`, counted one by one. */
function unbalancedDepthExceeds(brackets: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < brackets.length; index++) {
    const code = brackets.charCodeAt(index);
    if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else depth--;
  }
  return false;
}

/** The one header value, from undici's raw [name, value, ...] list. */
function rawHeader(rawHeaders: readonly Buffer[] | readonly string[], name: string): string | undefined {
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if (String(rawHeaders[index]).toLowerCase() === name) return String(rawHeaders[index + 1]);
  }
  return undefined;
}

/** Where a redirect points, as a message may show it: resolved, without credentials, query or fragment. */
function redirectTarget(location: string | undefined, origin: string, apiKey: string): string | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    const url = new URL(location, origin);
    return cleanProblemText(`${url.protocol}//${url.host}${url.pathname}`, apiKey);
  } catch {
    return cleanProblemText(location.split('?')[0], apiKey);
  }
}

/**
 * A proxy that closes the connection before answering CONNECT makes undici report a socket error,
 * which its client takes as "retry the connection" and loops on without end (thousands of CONNECTs a
 * second). Renamed, the failure reaches the request and our bounded retries instead.
 */
class ProxyTunnelError extends Error {
  override name = 'ProxyTunnelError';
  readonly code = 'PROXY_TUNNEL_FAILED';
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A body as text. A UTF-8 byte order mark at the start is dropped (JSON parsers may ignore one, and
 * some servers on Windows send it). Bytes that are not UTF-8 still become U+FFFD, but `invalidUtf8`
 * says so, so the caller can tell the user instead of passing on altered text in silence. isUtf8 is
 * native (simdutf): a fraction of the decoding's own cost.
 */
export function decodeBody(body: Buffer): { text: string; invalidUtf8: boolean } {
  const start = body.subarray(0, 3).equals(UTF8_BOM) ? 3 : 0;
  const content = body.subarray(start);
  return { text: content.toString('utf8'), invalidUtf8: !isUtf8(content) };
}

type AttemptOutcome =
  | { kind: 'response'; status: number; text: string; invalidUtf8: boolean; bytes: number; headers: Record<string, string>; retryAfterMs: number | undefined; location: string | undefined }
  | { kind: 'failure'; error: ConnectionError | ApiError; retryable: boolean };

/** One attempt's part of its call: where it goes and what bounds it. */
interface AttemptPlan {
  method: string;
  url: string;
  headers: Record<string, string>;
  scope: CallScope;
  timeoutMs: number;
  /** The call's deadline is nearer than timeoutMs, so the attempt's timer is the call's. */
  deadlineBound: boolean;
  /** The call's whole deadline, for messages. */
  totalTimeoutMs: number | undefined;
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
  readonly #maxResponseBytes: number;
  readonly #totalTimeoutMs: number | undefined;
  readonly #onEvent: ((event: RequestEvent) => void) | undefined;
  readonly #random: () => number;
  readonly #sleep: ((ms: number) => Promise<void>) | undefined;
  readonly #now: () => number;
  readonly #pacer: Pacer;
  readonly #injectedDispatcher: Dispatcher | undefined;
  #ownDispatcher: Dispatcher | undefined;
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
    this.#timeoutMs = nonNegative('timeoutMs', options.timeoutMs ?? HTTP_DEFAULTS.timeoutMs);
    this.#maxRetries = Math.floor(nonNegative('maxRetries', options.maxRetries ?? HTTP_DEFAULTS.maxRetries));
    this.#maxConnections = Math.max(1, Math.floor(nonNegative('maxConnections', options.maxConnections ?? HTTP_DEFAULTS.maxConnections)));
    this.#retryBaseDelayMs = nonNegative('retryBaseDelayMs', options.retryBaseDelayMs ?? HTTP_DEFAULTS.retryBaseDelayMs);
    this.#maxRetryDelayMs = nonNegative('maxRetryDelayMs', options.maxRetryDelayMs ?? HTTP_DEFAULTS.maxRetryDelayMs);
    this.#maxRetryAfterMs = nonNegative('maxRetryAfterMs', options.maxRetryAfterMs ?? HTTP_DEFAULTS.maxRetryAfterMs);
    this.#maxResponseBytes = nonNegative('maxResponseBytes', options.maxResponseBytes ?? HTTP_DEFAULTS.maxResponseBytes);
    this.#totalTimeoutMs = options.totalTimeoutMs === undefined ? undefined : nonNegative('totalTimeoutMs', options.totalTimeoutMs);
    const maxRequestsPerSecond = options.maxRequestsPerSecond;
    if (maxRequestsPerSecond !== undefined && !(Number.isFinite(maxRequestsPerSecond) && maxRequestsPerSecond > 0)) {
      throw new RangeError(`maxRequestsPerSecond must be a positive number (got ${maxRequestsPerSecond})`);
    }
    this.#pacer = new Pacer(maxRequestsPerSecond);
    this.#onEvent = options.onEvent;
    const hooks = options[TEST_HOOKS];
    this.#random = hooks?.random ?? Math.random;
    this.#sleep = hooks?.sleep;
    this.#now = hooks?.now ?? monotonicMs;
    this.#injectedDispatcher = options.dispatcher;
    // Loopback never goes through a proxy (as Go's net/http decides too): a plain-http request to a
    // local tunnel or the sandbox would otherwise carry the key, in clear text, to the proxy host.
    // Read here, so a malformed variable is a ConfigurationError naming it before any request.
    this.#proxy = this.address.loopback || this.#injectedDispatcher ? undefined : proxyFor(this.address.origin, options.env ?? process.env);
  }

  /** GET `path` (which starts with /api/data); resolves for 2xx, throws the mapped error otherwise. */
  async getText(path: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const url = `${this.address.pathPrefix}${path}${buildQueryString(options.query)}`;
    const method = 'GET';
    const headers = callHeaders(options.headers);
    const timeoutMs = options.timeoutMs === undefined ? this.#timeoutMs : nonNegative('timeoutMs', options.timeoutMs);
    const totalTimeoutMs = options.totalTimeoutMs === undefined ? this.#totalTimeoutMs : nonNegative('totalTimeoutMs', options.totalTimeoutMs);
    const maxRetries = options.maxRetries === undefined ? this.#maxRetries : Math.floor(nonNegative('maxRetries', options.maxRetries));
    const scope = new CallScope(options.signal, totalTimeoutMs, this.#now());
    const sleep = this.#sleep ?? cancellableSleep(scope);
    // The error of the latest attempt: what a call whose deadline leaves no room for a retry ends with.
    let last: Error | undefined;
    let attempt = 0;
    const cancellation = (why: Cancellation): Error => why.kind === 'aborted'
      ? new AbortError({ method, url, reason: why.reason })
      : last ?? new TimeoutError({ method, url, host: this.address.hostPort, timeoutMs: totalTimeoutMs ?? 0, scope: 'call',
        phase: 'waiting for its turn at the client\'s pace', attempts: Math.max(attempt, 1) });
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
        await waitTurn(0);
        const epoch = this.#pacer.epoch;
        const started = monotonicMs();
        if (attempt === 1) this.#pacer.callStarted(this.#now());
        const left = scope.remaining(this.#now());
        const outcome = await this.#attempt({
          method, url, headers, scope, timeoutMs: Math.min(timeoutMs, Math.max(0, left)), deadlineBound: left < timeoutMs, totalTimeoutMs,
        });
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
          await new Promise<void>((resolveTurn) => setImmediate(resolveTurn));
          return { status, text, url, headers: outcome.headers, attempts: attempt, bytes: outcome.bytes };
        }
        // A Retry-After that makes no sense (negative, garbage) was dropped by parseRetryAfter: ordinary backoff.
        const retryAfterMs = isRetryableStatus(status) && outcome.retryAfterMs !== undefined
          ? Math.min(outcome.retryAfterMs, this.#maxRetryAfterMs) : undefined;
        // What the service says applies to the client, not to this call alone: every call waits and slows.
        if (retryAfterMs !== undefined) this.#pacer.pause(this.#now() + retryAfterMs);
        if (status === 429) this.#pacer.rateLimited(epoch, this.#now());
        const retryAfter = canRetry && retryAfterMs !== undefined;
        const retryInMs = withinDeadline(!canRetry || !isRetryableStatus(status) ? undefined
          : retryAfterMs !== undefined ? retryAfterDelayMs(retryAfterMs, this.#random) : this.#backoff(attempt));
        const problem = readProblem(text, this.#apiKey);
        const init = { status, method, url, attempts: attempt, ...(problem ? { problem } : {}) };
        const error = status >= 300 && status <= 399
          ? new RedirectError({ ...init, location: redirectTarget(outcome.location, this.address.origin, this.#apiKey) })
          : errorForStatus(init, options.notFound);
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
    const response = await this.getText(path, options);
    const { status, url, headers, attempts, bytes } = response;
    return { data: this.#parse(response, mode), response: { status, url, headers, attempts, bytes } };
  }

  #parse(response: HttpResponse, mode: NumberMode): unknown {
    try {
      if (response.text.trim() === '') throw new SyntaxError('the body is empty');
      if (jsonDepthExceeds(response.text, MAX_JSON_DEPTH)) {
        // Parsing is recursive: a hostile body nested a million deep would overflow the stack.
        throw new ResponseTooLargeError({ status: response.status, method: 'GET', url: response.url },
          `is nested deeper than ${MAX_JSON_DEPTH} levels, which no answer of the API is`);
      }
      return parseJson(response.text, mode);
    } catch (error) {
      if (error instanceof NumberBoundError) throw new ResponseShapeError({ status: response.status, method: 'GET', url: response.url }, error.message);
      if (!(error instanceof SyntaxError)) throw error;
      throw new ResponseFormatError({ status: response.status, method: 'GET', url: response.url, cause: error },
        error.message.replace(/\s+/g, ' ').slice(0, 200));
    }
  }

  /** Closes the connections this client opened once requests in flight finish. Reusable afterwards. */
  async close(): Promise<void> {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    await dispatcher?.close();
  }

  /** Drops the connections at once, failing requests in flight: for Ctrl-C, which must not wait. */
  async destroy(): Promise<void> {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    await dispatcher?.destroy();
  }

  #dispatcher(): Dispatcher {
    if (this.#injectedDispatcher) return this.#injectedDispatcher;
    if (!this.#ownDispatcher) {
      // undici's own connect timeout (10 s) would outlast a shorter deadline in the TLS handshake. It is
      // the client's deadline: a call given a longer one of its own still connects within the client's.
      const poolOptions = { keepAliveTimeout: 10_000, connections: this.#maxConnections, connect: { timeout: this.#timeoutMs } };
      this.#ownDispatcher = this.#proxy
        ? new ProxyAgent({ ...poolOptions, uri: this.#proxy.url, clientFactory: (origin: URL, options: object) => this.#proxyClient(origin, options) })
        : new Agent(poolOptions);
    }
    return this.#ownDispatcher;
  }

  /**
   * The pool that talks to the proxy itself. Its CONNECT answer is bounded by the client's deadline,
   * and a proxy closing or resetting before answering is renamed (see ProxyTunnelError).
   */
  #proxyClient(origin: URL, options: object): Dispatcher {
    const pool = new Pool(origin, { ...options, headersTimeout: this.#timeoutMs, bodyTimeout: this.#timeoutMs });
    // The pool's own connect, taken before it is replaced below.
    const connect: (params: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData> = pool.connect.bind(pool);
    Object.assign(pool, {
      connect: async (params: Dispatcher.ConnectOptions) => {
        try {
          return await connect(params);
        } catch (error) {
          const code = errorCode(error);
          if (code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_INFO') throw error;
          throw new ProxyTunnelError(`the proxy ${this.#proxy?.host ?? ''} closed the connection before the tunnel opened`, { cause: error });
        }
      },
    });
    return pool;
  }

  #backoff(attempt: number): number {
    return backoffDelayMs(attempt - 1, this.#retryBaseDelayMs, this.#maxRetryDelayMs, this.#random);
  }

  /**
   * One attempt under one deadline, covering every phase from DNS to the last byte of the body. undici
   * can only abort a request once it holds a socket, so the deadline settles the attempt itself; an
   * attempt stuck before that (a proxy that never answers CONNECT) retires the dispatcher it waits in.
   */
  #attempt(plan: AttemptPlan): Promise<AttemptOutcome> {
    const { method, url, scope, timeoutMs } = plan;
    const dispatcher = this.#dispatcher();
    return new Promise<AttemptOutcome>((resolve, reject) => {
      let phase: AttemptPhase = 'connect';
      let abortRequest: ((reason: Error) => void) | undefined;
      let settled = false;
      let status = 0;
      let retryAfterMs: number | undefined;
      let location: string | undefined;
      let headers: Record<string, string> = {};
      let received = 0;
      const chunks: Buffer[] = [];

      const settle = (outcome: AttemptOutcome | { kind: 'throw'; error: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        stopListening();
        if (outcome.kind === 'throw') reject(outcome.error);
        else resolve(outcome);
      };
      const giveUp = (reason: Error) => {
        if (settled) return;
        // Settled first: aborting or destroying below reports errors of its own, which must not win.
        if (reason instanceof AttemptTimeout) settle(this.#failure(plan, reason, phase));
        else settle({ kind: 'throw', error: reason });
        if (abortRequest) abortRequest(reason);
        else if (dispatcher === this.#ownDispatcher && this.#proxy) this.#retireDispatcher();
      };
      let stopListening: () => void = () => undefined;
      const timer = setTimeout(() => giveUp(new AttemptTimeout(phase, plan.deadlineBound)), timeoutMs);
      stopListening = scope.onCancel((why) => giveUp(why.kind === 'deadline'
        ? new AttemptTimeout(phase, true)
        : new AbortError({ method, url, reason: why.reason })));
      if (settled) return;

      const tooLarge = (): AttemptOutcome => ({
        kind: 'failure',
        retryable: false,
        error: new ResponseTooLargeError({ status, method, url },
          `is larger than the limit of ${formatBytes(this.#maxResponseBytes)}`, this.#maxResponseBytes),
      });

      dispatcher.dispatch({
        origin: this.address.origin,
        path: url,
        method,
        headers: { ...plan.headers, 'x-api-key': this.#apiKey, accept: plan.headers.accept ?? 'application/json', 'user-agent': plan.headers['user-agent'] ?? this.#userAgent },
      }, {
        onConnect: (abort: (reason?: Error) => void) => {
          abortRequest = abort;
          phase = 'headers';
          if (settled) abort(new Error('attempt already settled'));
        },
        onHeaders: (statusCode: number, rawHeaders: Buffer[]) => {
          if (statusCode < 200) return true; // informational: the real answer follows
          status = statusCode;
          phase = 'body';
          headers = headerRecord(rawHeaders);
          retryAfterMs = parseRetryAfter(rawHeader(rawHeaders, 'retry-after'));
          location = rawHeader(rawHeaders, 'location');
          const declared = Number(rawHeader(rawHeaders, 'content-length'));
          if (declared > this.#maxResponseBytes) {
            settle(tooLarge());
            abortRequest?.(new BodyTooLarge());
            return false;
          }
          return true;
        },
        onData: (chunk: Buffer) => {
          received += chunk.length;
          if (received > this.#maxResponseBytes) {
            settle(tooLarge());
            abortRequest?.(new BodyTooLarge());
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete: () => {
          // Every body is read, errors included: it may hold problem details, and an unread body pins the socket.
          settle({ kind: 'response', status, ...decodeBody(Buffer.concat(chunks)), bytes: received, headers, retryAfterMs, location });
        },
        onError: (error: Error) => {
          if (settled) return;
          const code = errorCode(error);
          if (code !== undefined && PROGRAMMING_ERROR_CODES.has(code)) return settle({ kind: 'throw', error });
          settle(this.#failure(plan, error, phase));
        },
      });
    });
  }

  /** A failed attempt as the ConnectionError (or TimeoutError) it becomes, and whether a retry may help. */
  #failure(plan: AttemptPlan, error: Error, phase: AttemptPhase): AttemptOutcome {
    const { method, url, timeoutMs } = plan;
    const code = error instanceof AttemptTimeout ? undefined : errorCode(error);
    const detail = error instanceof AttemptTimeout ? undefined : connectionDetail(error, code, this.#apiKey);
    const init: ConnectionErrorInit = {
      method, url, host: this.address.hostPort, cause: error,
      ...(code ? { code } : {}), ...(detail ? { detail } : {}), ...(this.#proxy ? { viaProxy: this.#proxy.host } : {}),
    };
    if (error instanceof AttemptTimeout && error.wholeCall) {
      return { kind: 'failure', error: new TimeoutError({ ...init, timeoutMs: plan.totalTimeoutMs ?? timeoutMs, phase: PHASE_TEXT[phase], scope: 'call' }), retryable: false };
    }
    if (error instanceof AttemptTimeout || (code !== undefined && TIMEOUT_CODES.has(code))) {
      // undici's own timeouts are the dispatcher's, set from the client's deadline: when they strike
      // first, a longer per-call deadline was not the one that ended the attempt.
      const struck = error instanceof AttemptTimeout ? timeoutMs : Math.min(timeoutMs, this.#timeoutMs);
      return { kind: 'failure', error: new TimeoutError({ ...init, timeoutMs: struck, phase: PHASE_TEXT[phase] }), retryable: true };
    }
    return { kind: 'failure', error: new ConnectionError(init), retryable: code === undefined || TRANSIENT_CONNECTION_CODES.has(code) };
  }

  /** Destroys a dispatcher stuck in a connect loop; the next attempt builds a fresh one. */
  #retireDispatcher(): void {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    void dispatcher?.destroy().catch(() => undefined);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
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

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number (got ${value})`);
  return value;
}
