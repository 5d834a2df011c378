/**
 * The transport: one attempt of one request, on undici, under one deadline covering every phase from
 * DNS to the last byte of the body; the dispatcher (a pool per origin, or a proxy agent) it runs on.
 * The only module that imports undici, so nothing pays for loading it until a request is due.
 *
 * What an attempt ends with is an AttemptOutcome: an answer (any status, the body read in full), or
 * a failure already mapped to a ConnectionError or TimeoutError and marked retryable or not. What to
 * do with either is the client's (http-client.ts), by the retry policy (retry.ts).
 */
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
import { AbortError, type ApiError, ConnectionError, type ConnectionErrorInit, ResponseTooLargeError, TimeoutError } from '../errors.js';
import type { CallScope } from './cancel.js';
import type { ProxyRoute } from './proxy.js';
import { decodeBody, formatBytes, cleanProblemText } from './response.js';
import { isTransientConnectionCode } from './retry.js';

/**
 * Where an attempt is. `connect` covers DNS, TCP, TLS and a proxy's CONNECT: undici hands the request
 * a socket only once all of them are done.
 */
export type AttemptPhase = 'connect' | 'headers' | 'body';

export const PHASE_TEXT: Readonly<Record<AttemptPhase, string>> = {
  connect: 'while connecting (DNS, TCP, TLS, proxy CONNECT)',
  headers: 'waiting for the response headers',
  body: 'reading the response body',
};

/** One attempt's part of its call: where it goes and what bounds it. */
export interface AttemptPlan {
  method: string;
  /** Path and query. */
  url: string;
  /** Every header to send, the client's own included. */
  headers: Record<string, string>;
  scope: CallScope;
  timeoutMs: number;
  /** The call's deadline is nearer than timeoutMs, so the attempt's timer is the call's. */
  deadlineBound: boolean;
  /** The call's whole deadline, for messages. */
  totalTimeoutMs: number | undefined;
}

export type AttemptOutcome =
  | { kind: 'response'; status: number; text: string; invalidUtf8: boolean; bytes: number; headers: Record<string, string> }
  | { kind: 'failure'; error: ConnectionError | ApiError; retryable: boolean };

/** What carries attempts to the service: undici on Node (this file), fetch elsewhere (fetch-transport.ts). */
export interface Transport {
  attempt(plan: AttemptPlan): Promise<AttemptOutcome>;
  /** Closes the connections once requests in flight finish; the transport reconnects if used again. */
  close(): Promise<void>;
  /** Drops the connections at once, failing requests in flight. */
  destroy(): Promise<void>;
}

/** What every transport is told by the client. */
export interface TransportSettings {
  origin: string;
  /** host:port, for messages. */
  hostPort: string;
  apiKey: string;
  /** The client's per-attempt deadline: the dispatcher's own connect timeout. */
  timeoutMs: number;
  maxConnections: number;
  maxResponseBytes: number;
  /** The proxy requests go through; undefined when direct. */
  proxy: ProxyRoute | undefined;
}

/** Marks an abort as ours (the per-attempt deadline) rather than the caller's, and says in which phase it struck. */
export class AttemptTimeout extends Error {
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

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** undici's complaints about the request itself: bugs, not network trouble. */
const PROGRAMMING_ERROR_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

/** The code of a network error, looking through undici's and happy-eyeballs' wrappers. */
export function errorCode(error: unknown): string | undefined {
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

/** undici's error codes say little on their own ("UND_ERR_ABORTED"); their messages say what happened. */
function connectionDetail(error: unknown, code: string | undefined, apiKey: string): string | undefined {
  if (code !== undefined && !code.startsWith('UND_ERR_')) return undefined;
  return error instanceof Error ? cleanProblemText(error.message, apiKey)?.slice(0, 200) : undefined;
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

/**
 * A failed attempt as the ConnectionError (or TimeoutError) it becomes, and whether a retry may help.
 * Shared by every transport: `code` is the system or undici code when there is one.
 */
export function attemptFailure(settings: TransportSettings, plan: AttemptPlan, error: Error, phase: AttemptPhase, timeoutCode = false): AttemptOutcome {
  const { method, url, timeoutMs } = plan;
  const code = error instanceof AttemptTimeout ? undefined : errorCode(error);
  const detail = error instanceof AttemptTimeout ? undefined : connectionDetail(error, code, settings.apiKey);
  const init: ConnectionErrorInit = {
    method, url, host: settings.hostPort, cause: error,
    ...(code ? { code } : {}), ...(detail ? { detail } : {}), ...(settings.proxy ? { viaProxy: settings.proxy.host } : {}),
  };
  if (error instanceof AttemptTimeout && error.wholeCall) {
    return { kind: 'failure', error: new TimeoutError({ ...init, timeoutMs: plan.totalTimeoutMs ?? timeoutMs, phase: PHASE_TEXT[phase], scope: 'call' }), retryable: false };
  }
  if (error instanceof AttemptTimeout || timeoutCode || (code !== undefined && TIMEOUT_CODES.has(code))) {
    // undici's own timeouts are the dispatcher's, set from the client's deadline: when they strike
    // first, a longer per-call deadline was not the one that ended the attempt.
    const struck = error instanceof AttemptTimeout ? timeoutMs : Math.min(timeoutMs, settings.timeoutMs);
    return { kind: 'failure', error: new TimeoutError({ ...init, timeoutMs: struck, phase: PHASE_TEXT[phase] }), retryable: true };
  }
  return { kind: 'failure', error: new ConnectionError(init), retryable: isTransientConnectionCode(code) };
}

/** The failure of a body over maxResponseBytes: abandoned, not retried (it would be as large again). */
export function tooLargeFailure(settings: TransportSettings, plan: AttemptPlan, status: number): AttemptOutcome {
  return {
    kind: 'failure',
    retryable: false,
    error: new ResponseTooLargeError({ status, method: plan.method, url: plan.url },
      `is larger than the limit of ${formatBytes(settings.maxResponseBytes)}`, settings.maxResponseBytes),
  };
}

/**
 * Arms one attempt's deadline and its cancellation. `giveUp` is called once, with an AttemptTimeout
 * (this attempt's deadline, or the call's) or the caller's AbortError; the returned function disarms
 * both.
 */
export function armAttempt(plan: AttemptPlan, phase: () => AttemptPhase, giveUp: (reason: Error) => void): () => void {
  const timer = setTimeout(() => giveUp(new AttemptTimeout(phase(), plan.deadlineBound)), plan.timeoutMs);
  const stopListening = plan.scope.onCancel((why) => giveUp(why.kind === 'deadline'
    ? new AttemptTimeout(phase(), true)
    : new AbortError({ method: plan.method, url: plan.url, reason: why.reason })));
  return () => {
    clearTimeout(timer);
    stopListening();
  };
}

/** Attempts on undici: the pool (or proxy agent) is made on first use and kept for the client's life. */
export class UndiciTransport implements Transport {
  readonly #settings: TransportSettings;
  readonly #injectedDispatcher: Dispatcher | undefined;
  #ownDispatcher: Dispatcher | undefined;

  constructor(settings: TransportSettings, dispatcher: Dispatcher | undefined) {
    this.#settings = settings;
    this.#injectedDispatcher = dispatcher;
  }

  async close(): Promise<void> {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    await dispatcher?.close();
  }

  async destroy(): Promise<void> {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    await dispatcher?.destroy();
  }

  #dispatcher(): Dispatcher {
    if (this.#injectedDispatcher) return this.#injectedDispatcher;
    if (!this.#ownDispatcher) {
      const { proxy, timeoutMs, maxConnections } = this.#settings;
      // undici's own connect timeout (10 s) would outlast a shorter deadline in the TLS handshake. It is
      // the client's deadline: a call given a longer one of its own still connects within the client's.
      const poolOptions = { keepAliveTimeout: 10_000, connections: maxConnections, connect: { timeout: timeoutMs } };
      this.#ownDispatcher = proxy
        ? new ProxyAgent({ ...poolOptions, uri: proxy.url, clientFactory: (origin: URL, options: object) => proxyPool(origin, options, proxy, timeoutMs) })
        : new Agent(poolOptions);
    }
    return this.#ownDispatcher;
  }

  /**
   * One attempt under one deadline, covering every phase from DNS to the last byte of the body. undici
   * can only abort a request once it holds a socket, so the deadline settles the attempt itself; an
   * attempt stuck before that (a proxy that never answers CONNECT) retires the dispatcher it waits in.
   */
  attempt(plan: AttemptPlan): Promise<AttemptOutcome> {
    const settings = this.#settings;
    const dispatcher = this.#dispatcher();
    return new Promise<AttemptOutcome>((resolve, reject) => {
      let phase: AttemptPhase = 'connect';
      let abortRequest: ((reason: Error) => void) | undefined;
      let settled = false;
      let status = 0;
      let headers: Record<string, string> = {};
      let received = 0;
      const chunks: Buffer[] = [];

      const settle = (outcome: AttemptOutcome | { kind: 'throw'; error: unknown }) => {
        if (settled) return;
        settled = true;
        disarm();
        if (outcome.kind === 'throw') reject(outcome.error);
        else resolve(outcome);
      };
      const giveUp = (reason: Error) => {
        if (settled) return;
        // Settled first: aborting or destroying below reports errors of its own, which must not win.
        if (reason instanceof AttemptTimeout) settle(attemptFailure(settings, plan, reason, phase));
        else settle({ kind: 'throw', error: reason });
        if (abortRequest) abortRequest(reason);
        else if (dispatcher === this.#ownDispatcher && settings.proxy) this.#retireDispatcher();
      };
      let disarm: () => void = () => undefined;
      disarm = armAttempt(plan, () => phase, giveUp);
      // Cancelled before it began: settle() ran while disarm was still the stand-in.
      if (settled) return disarm();

      dispatcher.dispatch({ origin: settings.origin, path: plan.url, method: plan.method, headers: plan.headers }, {
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
          const declared = Number(headers['content-length']);
          if (declared > settings.maxResponseBytes) {
            settle(tooLargeFailure(settings, plan, status));
            abortRequest?.(new BodyTooLarge());
            return false;
          }
          return true;
        },
        onData: (chunk: Buffer) => {
          received += chunk.length;
          if (received > settings.maxResponseBytes) {
            settle(tooLargeFailure(settings, plan, status));
            abortRequest?.(new BodyTooLarge());
            return false;
          }
          chunks.push(chunk);
          return true;
        },
        onComplete: () => {
          // Every body is read, errors included: it may hold problem details, and an unread body pins the socket.
          settle({ kind: 'response', status, ...decodeBody(Buffer.concat(chunks)), bytes: received, headers });
        },
        onError: (error: Error) => {
          if (settled) return;
          const code = errorCode(error);
          if (code !== undefined && PROGRAMMING_ERROR_CODES.has(code)) return settle({ kind: 'throw', error });
          settle(attemptFailure(settings, plan, error, phase));
        },
      });
    });
  }

  /** Destroys a dispatcher stuck in a connect loop; the next attempt builds a fresh one. */
  #retireDispatcher(): void {
    const dispatcher = this.#ownDispatcher;
    this.#ownDispatcher = undefined;
    void dispatcher?.destroy().catch(() => undefined);
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

/**
 * The pool that talks to the proxy itself (the proxy agent's clientFactory). Its CONNECT answer is
 * bounded by the client's deadline, and a proxy closing or resetting before answering is renamed (see
 * ProxyTunnelError).
 */
export function proxyPool(origin: URL, options: object, proxy: ProxyRoute, timeoutMs: number): Dispatcher {
  const pool = new Pool(origin, { ...options, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  // The pool's own connect, taken before it is replaced below.
  const connect: (params: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData> = pool.connect.bind(pool);
  Object.assign(pool, {
    connect: async (params: Dispatcher.ConnectOptions) => {
      try {
        return await connect(params);
      } catch (error) {
        const code = errorCode(error);
        if (code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_INFO') throw error;
        throw new ProxyTunnelError(`the proxy ${proxy.host} closed the connection before the tunnel opened`, { cause: error });
      }
    },
  });
  return pool;
}
