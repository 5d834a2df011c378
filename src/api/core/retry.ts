/**
 * The retry policy, pure: which answers and failures are worth another attempt, and how long to wait
 * before it (the service's Retry-After, or exponential backoff with jitter). No clock of its own and
 * no randomness of its own: both are passed in, so each rule is a plain function of its inputs.
 */

/** Statuses a moment later may change: request timeout, rate limit, any server error. */
const RETRYABLE_STATUSES = new Set([408, 429]);

export function isRetryableStatus(status: number): boolean {
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

/** Whether a failed connection with this code (undefined: none known) may succeed on another attempt. */
export function isTransientConnectionCode(code: string | undefined): boolean {
  return code === undefined || TRANSIENT_CONNECTION_CODES.has(code);
}

/**
 * The wait the service asked for, in milliseconds from now: `retry-after-ms` (milliseconds, as the
 * Stainless SDKs read it) when it is a number, else Retry-After (delta-seconds or an HTTP-date);
 * undefined when neither is there or readable.
 */
export function requestedRetryMs(headers: Readonly<Record<string, string>>, nowMs: number = Date.now()): number | undefined {
  const ms = headers['retry-after-ms']?.trim();
  if (ms !== undefined && /^\d+(?:\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  return parseRetryAfter(headers['retry-after'], nowMs);
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
