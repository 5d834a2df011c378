/**
 * The transport on Node: one attempt of one request, on undici, under one deadline covering every phase from
 * DNS to the last byte of the body; the dispatcher (a pool per origin, or a proxy agent) it runs on.
 * The only module that imports undici, so nothing pays for loading it until a request is due.
 *
 * What an attempt ends with is an AttemptOutcome: an answer (any status, the body read in full), or
 * a failure already mapped to a ConnectionError or TimeoutError and marked retryable or not. What to
 * do with either is the client's (http-client.ts), by the retry policy (retry.ts).
 */
import type { Dispatcher } from 'undici';
import { Agent, Pool, ProxyAgent } from './undici.js';
import { decodeBody } from './response.js';
import {
  armAttempt, attemptFailure, AttemptTimeout, errorCode, tooLargeFailure,
  type AttemptOutcome, type AttemptPhase, type AttemptPlan, type Transport, type TransportSettings,
} from './transport-contract.js';
import type { ProxyRoute } from './proxy.js';

/** A body over the size limit: abandoned mid-stream rather than buffered. */
class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/** undici's complaints about the request itself: bugs, not network trouble. */
const PROGRAMMING_ERROR_CODES = new Set(['UND_ERR_INVALID_ARG', 'UND_ERR_NOT_SUPPORTED']);

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
