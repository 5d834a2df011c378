/**
 * The sandbox's HTTP server: the contract's 20 GET endpoints over synthetic data, with the
 * contract's errors (400/401/404) plus 405, and optional injected faults for testing clients.
 * Plain node:http, keep-alive. Behaviour and choices are documented in docs/sandbox-server.md.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { sharedSandboxModel } from './data/index.js';
import type { SandboxModel } from './model.js';
import { FaultInjector, RateLimiter, type FaultKind } from './http/faults.js';
import { stringifyJson } from './http/json.js';
import { DEFAULT_LOG_MAX_MB, RequestLog, pathForLog, queryForLog } from './http/log.js';
import { BodyCache } from './http/lru.js';
import { readQuery } from './http/params.js';
import { HttpProblem, TraceIds, problemBody } from './http/problem.js';
import { findRoute, type RouteContext } from './http/routes.js';
import { ENDPOINT_SHAPES } from '../api/types.js';
import { endpointFor } from '../api/validate.js';
import { PUBLISHED_SANDBOX_KEY } from '../api/redact.js';
import { wildAnswer, wildSeed } from './wild.js';

export interface SandboxOptions {
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** 0 picks a free port. Default 0. */
  port?: number;
  /** The API key clients must send in X-Api-Key. Default 'sandbox'. */
  key?: string;
  /** Seed of the data, the faults and the trace ids. Default 1. */
  seed?: number;
  /**
   * Decides the current week and how much of it has happened. Default: today at 00:00 UTC (as
   * `--now` with today's date), so every run of a day sees the same data.
   */
  now?: Date;
  /** Share of authenticated requests, 0 to 1, that fail (500, 503 or dropped connection). Default 0. */
  failRate?: number;
  /** Mean added delay in ms (uniform +-50%). Default 0. */
  latencyMs?: number;
  /** Most requests admitted in any 1-second window; more get 429. Default: no limit. */
  rateLimit?: number;
  /** Appends one JSON line per request to this file. */
  logFile?: string;
  /**
   * The most the log file may hold, in MiB (fractions allowed); past it later requests are not logged
   * and `onLogFull` is called once. A FIFO, terminal or device has no cap. Default 64.
   */
  logMaxMb?: number;
  /** Told, once, that the log reached logMaxMb (the command says so on stderr). */
  onLogFull?: (message: string) => void;
  /**
   * Wild answers: nulls, left-out and unknown fields, empty arrays, names in many scripts, very long
   * text and integers beyond 2^53 wherever the contract allows them (src/sandbox/wild.ts). Default false.
   */
  wild?: boolean;
  /** Serve this model instead of generating one from seed and now (tests of the server alone). */
  model?: SandboxModel;
}

export interface RunningSandbox {
  /** Base URL, e.g. http://127.0.0.1:8787; the API root is url + '/api/data'. */
  url: string;
  key: string;
  /** Resolves once every request answered so far is in the log file (tests read it right after). */
  logWritten(): Promise<void>;
  /** Stops listening, ends open connections and flushes the log. */
  close(): Promise<void>;
}

import { SandboxOptionError, type SandboxOptionName } from './option-error.js';

export { SandboxOptionError, type SandboxOptionName };

export const SANDBOX_OPTION_DEFAULTS = {
  host: '127.0.0.1',
  port: 0,
  key: PUBLISHED_SANDBOX_KEY,
  seed: 1,
  failRate: 0,
  latencyMs: 0,
} as const;

/** Longest injected mean latency: beyond a minute a client's own timeout is what gets tested. */
export const MAX_LATENCY_MS = 60_000;

interface ResolvedOptions {
  host: string;
  port: number;
  key: string;
  seed: number;
  now: Date;
  failRate: number;
  latencyMs: number;
  rateLimit: number | undefined;
  logFile: string | undefined;
  logMaxMb: number;
  wild: boolean;
}

/** Fills in defaults and checks every value; throws SandboxOptionError naming the bad one. */
export function resolveSandboxOptions(options: SandboxOptions = {}): ResolvedOptions {
  const resolved: ResolvedOptions = {
    host: options.host ?? SANDBOX_OPTION_DEFAULTS.host,
    port: options.port ?? SANDBOX_OPTION_DEFAULTS.port,
    key: options.key ?? SANDBOX_OPTION_DEFAULTS.key,
    seed: options.seed ?? SANDBOX_OPTION_DEFAULTS.seed,
    now: options.now ?? startOfTodayUtc(),
    failRate: options.failRate ?? SANDBOX_OPTION_DEFAULTS.failRate,
    latencyMs: options.latencyMs ?? SANDBOX_OPTION_DEFAULTS.latencyMs,
    rateLimit: options.rateLimit,
    logFile: options.logFile,
    logMaxMb: options.logMaxMb ?? DEFAULT_LOG_MAX_MB,
    wild: options.wild ?? false,
  };
  const fail = (option: SandboxOptionName, message: string): never => {
    throw new SandboxOptionError(option, `${option} ${message}`);
  };
  if (resolved.host.trim() === '') fail('host', 'must not be empty');
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    fail('port', `must be an integer from 0 to 65535, not ${resolved.port}`);
  }
  // Header values are visible ASCII; anything else could never be sent by a client.
  if (!/^[\x21-\x7e]+$/.test(resolved.key)) fail('key', 'must be non-empty visible ASCII without spaces');
  if (!Number.isSafeInteger(resolved.seed)) fail('seed', `must be an integer, not ${resolved.seed}`);
  if (Number.isNaN(resolved.now.getTime())) fail('now', 'must be a valid date');
  if (!(resolved.failRate >= 0 && resolved.failRate <= 1)) {
    fail('failRate', `must be a number from 0 to 1, not ${resolved.failRate}`);
  }
  if (!(resolved.latencyMs >= 0 && resolved.latencyMs <= MAX_LATENCY_MS)) {
    fail('latencyMs', `must be a number from 0 to ${MAX_LATENCY_MS}, not ${resolved.latencyMs}`);
  }
  if (resolved.rateLimit !== undefined && !(Number.isInteger(resolved.rateLimit) && resolved.rateLimit >= 1)) {
    fail('rateLimit', `must be an integer of at least 1, not ${resolved.rateLimit}`);
  }
  if (resolved.logFile !== undefined && resolved.logFile.trim() === '') fail('logFile', 'must not be empty');
  if (!(resolved.logMaxMb > 0 && Number.isFinite(resolved.logMaxMb))) fail('logMaxMb', `must be a number of MiB above 0, not ${resolved.logMaxMb}`);
  return resolved;
}

/**
 * The default clock: today's date at 00:00 UTC, never the moment. The current week's articles are
 * scaled by how much of the week has passed, so a clock read at each start made two runs seconds
 * apart answer differently.
 */
export function startOfTodayUtc(clock: Date = new Date()): Date {
  return new Date(Date.UTC(clock.getUTCFullYear(), clock.getUTCMonth(), clock.getUTCDate()));
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Where the sandbox serves the contract as OpenAPI 3.1 (docs/openapi.json in the package). */
export const OPENAPI_PATH = '/openapi.json';
const ALLOWED_METHODS = 'GET, HEAD';
/** Prefix of cache entries keyed by the URL as sent (canonical keys start with a route name). */
const RAW_URL_KEY = 'url ';

/**
 * The serialised answers of a model, plain or made wild with a seed, shared by every sandbox of this
 * process that serves them: a 200 answer depends on nothing else but the URL. Sandboxes of the same
 * seed and clock share a model (sharedSandboxModel) and so these too, as the test suite's hundreds of
 * mostly alike sandboxes do; they go with the model.
 */
const answerCaches = new WeakMap<SandboxModel, Map<number | undefined, BodyCache>>();

function answerCache(model: SandboxModel, wildSeed: number | undefined): BodyCache {
  let caches = answerCaches.get(model);
  if (!caches) answerCaches.set(model, (caches = new Map<number | undefined, BodyCache>()));
  let cache = caches.get(wildSeed);
  if (!cache) caches.set(wildSeed, (cache = new BodyCache()));
  return cache;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const settings = resolveSandboxOptions(options);
  const model = options.model ?? sharedSandboxModel({ seed: settings.seed, now: settings.now });
  const logFile = settings.logFile;
  const log = logFile === undefined ? undefined : await RequestLog.open(logFile, Math.floor(settings.logMaxMb * 1024 * 1024), () =>
    options.onLogFull?.(`the request log ${logFile} reached its cap of ${settings.logMaxMb} MiB; later requests are not logged`));
  const handler = new SandboxHandler(model, settings, log);
  const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => handler.handle(req, res));
  // Longer than undici's default keep-alive (4 s), so the client, not the server, ends idle sockets.
  server.keepAliveTimeout = 5_000;

  try {
    await listen(server, settings.host, settings.port);
  } catch (error) {
    await log?.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    key: settings.key,
    logWritten: () => log?.written() ?? Promise.resolve(),
    close() {
      closing ??= (async () => {
        handler.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          // close() waits for open keep-alive sockets; a sandbox stops at once instead.
          server.closeAllConnections();
        });
        await log?.close();
      })();
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`;
      const reason =
        error.code === 'EADDRINUSE' ? `port ${port} is already in use` :
        error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' ? `${host} is not an address of this machine` :
        error.code === 'EACCES' ? `no permission to listen on port ${port}` :
        error.message;
      // The host and port are the caller's choice, so failing to listen on them is an option error.
      reject(Object.assign(new SandboxOptionError(error.code === 'EADDRINUSE' || error.code === 'EACCES' ? 'port' : 'host', `sandbox cannot listen on ${where}: ${reason}`), { code: error.code }));
    };
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

class SandboxHandler {
  private readonly context: RouteContext;
  private readonly keyDigest: Buffer;
  private readonly faults: FaultInjector;
  private readonly rateLimiter: RateLimiter | undefined;
  private readonly traceIds: TraceIds;
  private readonly cache: BodyCache;
  private readonly pendingDelays = new Set<NodeJS.Timeout>();
  /** Requests arrived and not yet answered or dropped: the log's inFlight, so counted only when logging. */
  private open = 0;

  constructor(
    model: SandboxModel,
    private readonly settings: ResolvedOptions,
    private readonly log: RequestLog | undefined,
  ) {
    // Week info is fixed for the life of the model (now is fixed), and every windowed route needs it.
    this.context = { model, weekInfo: model.weekInfo() };
    this.keyDigest = digest(settings.key);
    this.faults = new FaultInjector(settings.seed, settings.failRate, settings.latencyMs);
    this.rateLimiter = settings.rateLimit === undefined ? undefined : new RateLimiter(settings.rateLimit);
    this.traceIds = new TraceIds(settings.seed);
    this.cache = answerCache(model, settings.wild ? settings.seed : undefined);
  }

  stop(): void {
    for (const timer of this.pendingDelays) clearTimeout(timer);
    this.pendingDelays.clear();
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const logging = this.log && {
      log: this.log,
      key: this.settings.key,
      inFlight: ++this.open,
      onClosed: () => {
        this.open -= 1;
      },
    };
    const exchange = new Exchange(req, res, logging);

    // The contract as OpenAPI 3.1 is public, as its document is: no key needed.
    if (exchange.pathname === OPENAPI_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
      void import('./openapi-document.js').then(({ OPENAPI_JSON }) => this.finish(exchange, { status: 200, body: Buffer.from(OPENAPI_JSON, 'utf8'), headers: {} }));
      return;
    }
    // Authentication comes first, on every path, so an unknown path tells a keyless caller nothing.
    // 401s get no faults, delay or rate limit: a misconfigured client should learn so at once.
    const keyProblem = this.checkKey(req.headers['x-api-key']);
    if (keyProblem) return this.finish(exchange, this.problem(401, keyProblem));

    const plan = this.faults.next();
    if (this.rateLimiter && !this.rateLimiter.tryAdmit(exchange.arrival)) {
      const title = `Too many requests: at most ${this.settings.rateLimit} a second`;
      return this.finish(exchange, this.problem(429, title, { 'retry-after': '1' }), 'rate-limited');
    }
    if (plan.delayMs === 0) return this.answer(exchange, plan.fault);
    const timer = setTimeout(() => {
      this.pendingDelays.delete(timer);
      this.answer(exchange, plan.fault);
    }, plan.delayMs);
    this.pendingDelays.add(timer);
  }

  private answer(exchange: Exchange, fault: FaultKind | undefined): void {
    if (exchange.res.destroyed) return;
    switch (fault) {
      case 'error':
        return this.finish(exchange, this.problem(500, 'Injected failure (sandbox fail rate)'), fault);
      case 'unavailable':
        // Retry-After 0: the sandbox wants retries tested, not waited for.
        return this.finish(
          exchange,
          this.problem(503, 'Injected unavailability (sandbox fail rate)', { 'retry-after': '0' }),
          fault,
        );
      case 'dropped':
        exchange.req.socket.destroy();
        return exchange.record(null, fault);
      case undefined:
        return this.finish(exchange, this.route(exchange));
    }
  }

  private route(exchange: Exchange): Reply {
    try {
      const match = findRoute(exchange.pathname);
      if (!match) throw new HttpProblem(404, `No endpoint at ${exchange.pathname}`);
      const method = exchange.req.method;
      if (method !== 'GET' && method !== 'HEAD') {
        throw new HttpProblem(405, `Method ${method} is not allowed: the API is read-only (GET)`, {
          allow: ALLOWED_METHODS,
        });
      }
      // Fast path: this exact URL was answered with 200 before. The answer depends on nothing but
      // the URL (key, method and faults are settled by now), so parsing can be skipped.
      const rawKey = RAW_URL_KEY + (exchange.req.url ?? '');
      const known = this.cache.get(rawKey);
      if (known !== undefined) return { status: 200, body: known, headers: {} };
      const resolved = match.resolve(this.context, readQuery(exchange.search));
      let body = this.cache.get(resolved.key);
      if (body === undefined) {
        const answer = resolved.produce();
        body = Buffer.from(stringifyJson(this.settings.wild ? this.wild(exchange.pathname, resolved.key, answer) : answer), 'utf8');
        this.cache.set(resolved.key, body);
      }
      this.cache.set(rawKey, body);
      return { status: 200, body, headers: {} };
    } catch (error) {
      if (error instanceof HttpProblem) return this.problem(error.status, error.title, error.headers);
      const message = error instanceof Error ? error.message : String(error);
      return this.problem(500, `The sandbox failed: ${message}`);
    }
  }

  /** The answer made wild by the endpoint's shape, the same for the same request and seed. */
  private wild(pathname: string, requestKey: string, answer: unknown): unknown {
    const endpoint = endpointFor(pathname);
    if (endpoint === undefined) return answer;
    return wildAnswer(answer, ENDPOINT_SHAPES[endpoint], wildSeed(this.settings.seed, requestKey));
  }

  private problem(status: number, title: string, headers: Readonly<Record<string, string>> = {}): Reply {
    const body = Buffer.from(stringifyJson(problemBody(status, title, this.traceIds.next())), 'utf8');
    return { status, body, headers };
  }

  private finish(exchange: Exchange, reply: Reply, fault?: FaultKind | 'rate-limited'): void {
    const { res } = exchange;
    if (res.destroyed) return;
    res.writeHead(reply.status, {
      'content-type': JSON_CONTENT_TYPE,
      'content-length': reply.body.length,
      ...reply.headers,
    });
    // For HEAD, node:http sends the headers and drops the body.
    res.end(reply.body);
    exchange.record(reply.status, fault);
  }

  /** undefined when the key is right, else the 401 title. Never echoes what was sent. */
  private checkKey(header: string | string[] | undefined): string | undefined {
    if (header === undefined || header === '') return 'Missing API key: send it in the X-Api-Key header';
    const sent = Array.isArray(header) ? header.join(', ') : header;
    // Compare digests in constant time, so response timing does not leak the key's prefix.
    if (!timingSafeEqual(digest(sent), this.keyDigest)) return 'Invalid API key';
    return undefined;
  }
}

interface Reply {
  status: number;
  body: Buffer;
  headers: Readonly<Record<string, string>>;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** One request and its answer, with what the log needs. */
class Exchange {
  readonly arrival = performance.now();
  readonly pathname: string;
  readonly search: string;
  private readonly arrivedAt: string | undefined;
  private closed = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /**
     * Set only when logging. The key is needed to redact it from the logged query; inFlight is the
     * requests open when this one arrived, itself included; onClosed is called once, when the answer is
     * sent or the connection is gone without one.
     */
    private readonly logging: { log: RequestLog; key: string; inFlight: number; onClosed: () => void } | undefined,
  ) {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    this.pathname = mark === -1 ? url : url.slice(0, mark);
    this.search = mark === -1 ? '' : url.slice(mark + 1);
    this.arrivedAt = logging === undefined ? undefined : new Date().toISOString();
    // A client that hangs up while its answer is delayed gets no record(): the count must drop anyway.
    if (logging !== undefined) res.once('close', () => this.close());
  }

  record(status: number | null, fault: FaultKind | 'rate-limited' | undefined): void {
    if (this.logging === undefined) return;
    // The answer is written (or the connection dropped) by now: a client can only ask again after this.
    this.close();
    this.logging.log.write({
      time: this.arrivedAt!,
      method: this.req.method ?? '',
      path: pathForLog(this.pathname, this.logging.key),
      query: queryForLog(this.search, this.logging.key),
      status,
      ms: Math.round((performance.now() - this.arrival) * 10) / 10,
      inFlight: this.logging.inFlight,
      ...(fault ? { fault } : {}),
    });
  }

  private close(): void {
    if (this.closed || this.logging === undefined) return;
    this.closed = true;
    this.logging.onClosed();
  }
}
