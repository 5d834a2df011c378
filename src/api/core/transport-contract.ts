/**
 * What every transport shares: the plan of one attempt, what it ends with, the phases it goes through,
 * its deadline, and how a failure becomes the ConnectionError or TimeoutError the caller sees. No
 * runtime of its own: the undici transport (undici-transport.ts) and the fetch one (fetch-transport.ts)
 * both build on it.
 */
import { AbortError, type ApiError, ConnectionError, type ConnectionErrorInit, ResponseTooLargeError, TimeoutError } from '../errors.js';
import type { CallScope } from './cancel.js';
import type { ProxyRoute } from './proxy.js';
import { cleanProblemText, formatBytes } from './response.js';
import { isTransientConnectionCode } from './retry.js';

/**
 * Where an attempt is. `connect` covers DNS, TCP, TLS and a proxy's CONNECT: undici hands the request
 * a socket only once all of them are done.
 */
export type AttemptPhase = 'connect' | 'headers' | 'response' | 'body';

export const PHASE_TEXT: Readonly<Record<AttemptPhase, string>> = {
  connect: 'while connecting (DNS, TCP, TLS, proxy CONNECT)',
  headers: 'waiting for the response headers',
  // fetch hands over a response only with its headers: connecting and waiting for them are one phase.
  response: 'connecting or waiting for the response headers',
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

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

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
