/**
 * The client's pace, shared by every call of one client: a 429 that one call gets slows all of them,
 * instead of each call learning it alone and its retries arriving together with everyone else's.
 *
 * - `maxRequestsPerSecond` spaces the starts of attempts evenly (1000 / rate ms apart).
 * - A Retry-After on a 429 or 503 pauses every call until it has passed.
 * - A 429 also lowers the pace to what the service evidently accepts: the answers that succeeded in
 *   the second before it (less a tenth), or half the calls started in that second, whichever is more. With neither
 *   (one call, retrying) there is nothing to pace: its own Retry-After and backoff do. Only a 429 to
 *   an attempt started at the current pace lowers it again, so the 429s to one flood count once. A
 *   minute without a 429 restores the configured pace.
 */

const WINDOW_MS = 1000;
/** How long a learned pace holds without a further 429. */
const LEARNED_PACE_MS = 60_000;

export class Pacer {
  readonly #configuredInterval: number;
  /** Milliseconds between attempt starts; 0 for no spacing. */
  #interval: number;
  #pausedUntil = -Infinity;
  /** When the latest slot was handed out. */
  #lastSlot = -Infinity;
  /** Bumped whenever the pace is lowered: a 429 to an attempt of an older epoch says nothing new. */
  #epoch = 0;
  #lowered = -Infinity;
  readonly #starts: number[] = [];
  readonly #successes: number[] = [];

  constructor(maxRequestsPerSecond: number | undefined) {
    this.#configuredInterval = maxRequestsPerSecond === undefined ? 0 : 1000 / maxRequestsPerSecond;
    this.#interval = this.#configuredInterval;
  }

  get epoch(): number {
    return this.#epoch;
  }

  /** The interval between starts now in force, in ms (0: none). */
  intervalMs(now: number): number {
    if (this.#interval !== this.#configuredInterval && now - this.#lowered > LEARNED_PACE_MS) this.#interval = this.#configuredInterval;
    return this.#interval;
  }

  /**
   * The time at or after `earliest` when the next attempt may start, taken: the following one is
   * spaced after it. The caller waits until then.
   */
  reserve(earliest: number, now: number): number {
    const slot = Math.max(earliest, this.#pausedUntil, this.#lastSlot + this.intervalMs(now));
    this.#lastSlot = slot;
    return slot;
  }

  /** Whether a pause began after `slot` was handed out, so the attempt must wait again. */
  pausedPast(slot: number): boolean {
    return this.#pausedUntil > slot;
  }

  /** A call's first attempt started (retries are spaced by their own waits, and are no new demand). */
  callStarted(now: number): void {
    this.#starts.push(now);
    prune(this.#starts, now);
  }

  succeeded(now: number): void {
    this.#successes.push(now);
    prune(this.#successes, now);
  }

  /** The service asked every caller to wait (Retry-After on a 429 or 503). */
  pause(until: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, until);
  }

  /** A 429 to an attempt started in `epoch`: the pace was too fast. */
  rateLimited(epoch: number, now: number): void {
    if (epoch !== this.#epoch) return;
    prune(this.#starts, now);
    prune(this.#successes, now);
    // A tenth below what got through: at exactly the service's limit, ordinary jitter in arrival
    // times puts one request a second over it.
    const perSecond = Math.max(this.#successes.length * 0.9, Math.floor(this.#starts.length / 2));
    if (perSecond === 0) return;
    this.#interval = Math.max(1000 / perSecond, this.#configuredInterval);
    this.#epoch += 1;
    this.#lowered = now;
  }
}

function prune(times: number[], now: number): void {
  let stale = 0;
  while (stale < times.length && times[stale]! <= now - WINDOW_MS) stale++;
  if (stale > 0) times.splice(0, stale);
}
