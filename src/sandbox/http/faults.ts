/**
 * Injected faults: random failures, latency and a rate limit, for exercising a client's retries.
 *
 * Reproducibility: every authenticated request draws exactly three numbers from one seeded stream,
 * in arrival order, whatever happens to it afterwards. So the n-th request of a run gets the same
 * fault and the same delay in every run with the same seed, failRate and latencyMs.
 * The rate limit depends on the clock and is the one fault that is not reproducible.
 */
import { mixSeed, mulberry32, RANDOM_STREAMS, type Random } from '../random.js';

export type FaultKind = 'error' | 'unavailable' | 'dropped';

export interface FaultPlan {
  /** undefined: the request is answered normally. */
  fault: FaultKind | undefined;
  /** Milliseconds to wait before answering (or failing). */
  delayMs: number;
}

export class FaultInjector {
  private readonly random: Random;

  constructor(
    seed: number,
    private readonly failRate: number,
    private readonly latencyMs: number,
  ) {
    this.random = mulberry32(mixSeed(seed, RANDOM_STREAMS.faults));
  }

  /** Draws the plan of the next request. Call once per authenticated request, in arrival order. */
  next(): FaultPlan {
    const failDraw = this.random();
    const kindDraw = this.random();
    const jitterDraw = this.random();
    // The three kinds are equally likely: a client must cope with each.
    const fault: FaultKind | undefined =
      failDraw < this.failRate ? (kindDraw < 1 / 3 ? 'error' : kindDraw < 2 / 3 ? 'unavailable' : 'dropped') : undefined;
    // Uniform jitter of +-50% around latencyMs, so a client never sees a suspiciously fixed delay.
    const delayMs = this.latencyMs > 0 ? Math.round(this.latencyMs * (0.5 + jitterDraw)) : 0;
    return { fault, delayMs };
  }
}

/**
 * At most `limit` admitted requests in any rolling 1-second window. Rejected requests are not
 * counted, so a client that waits the Retry-After second gets through.
 */
export class RateLimiter {
  private readonly admitted: number[] = [];
  private head = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 1000,
  ) {}

  tryAdmit(nowMs: number): boolean {
    while (this.head < this.admitted.length && this.admitted[this.head]! <= nowMs - this.windowMs) this.head++;
    // Compact now and then, so the array does not grow for the life of the server.
    if (this.head > 1024 && this.head * 2 > this.admitted.length) {
      this.admitted.splice(0, this.head);
      this.head = 0;
    }
    if (this.admitted.length - this.head >= this.limit) return false;
    this.admitted.push(nowMs);
    return true;
  }
}
