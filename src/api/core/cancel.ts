/**
 * Cancelling a call: the caller's signal, and the call's own deadline (totalTimeoutMs), both reach
 * every part of it (each attempt, each wait before a retry, each wait for the client's pace) through
 * one CallScope, which listens to the caller's signal once, whatever the call does meanwhile.
 */

/**
 * Callbacks waiting on each signal. A signal gets one listener of ours however many calls share it:
 * Node warns (MaxListenersExceededWarning) from the eleventh listener on one AbortSignal, and a
 * program that hands one signal to a batch of fifty calls has done nothing wrong.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

function dispatchAbort(this: AbortSignal): void {
  const callbacks = waiting.get(this);
  waiting.delete(this);
  for (const callback of callbacks ?? []) callback();
}

/** Runs `callback` once when `signal` aborts; the returned function unsubscribes. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = waiting.get(signal);
  if (!callbacks) {
    callbacks = new Set();
    waiting.set(signal, callbacks);
    signal.addEventListener('abort', dispatchAbort, { once: true });
  }
  const entry = () => callback();
  callbacks.add(entry);
  return () => {
    const current = waiting.get(signal);
    if (!current?.delete(entry) || current.size > 0) return;
    waiting.delete(signal);
    signal.removeEventListener('abort', dispatchAbort);
  };
}

/** Why a call stopped before it finished: the caller's abort, or its own deadline. */
export type Cancellation = { kind: 'aborted'; reason: unknown } | { kind: 'deadline' };

/**
 * One call's cancellation: the caller's signal and the deadline, as one event with one reason.
 * `dispose()` when the call ends, so a long-lived signal holds no callback of a finished call.
 */
export class CallScope {
  /** The client's clock (monotonicMs by default) by which the whole call must be over; Infinity without a deadline. */
  readonly deadline: number;
  #cancelled: Cancellation | undefined;
  readonly #callbacks = new Set<(why: Cancellation) => void>();
  readonly #unsubscribe: (() => void) | undefined;
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(signal: AbortSignal | undefined, totalTimeoutMs: number | undefined, now: number) {
    this.deadline = totalTimeoutMs === undefined ? Infinity : now + totalTimeoutMs;
    if (signal?.aborted) {
      this.#cancelled = { kind: 'aborted', reason: signal.reason };
      return;
    }
    if (signal) this.#unsubscribe = onAbort(signal, () => this.#cancel({ kind: 'aborted', reason: signal.reason }));
    if (totalTimeoutMs !== undefined) {
      this.#timer = setTimeout(() => this.#cancel({ kind: 'deadline' }), totalTimeoutMs);
      // The deadline alone must not keep a process alive that has nothing else to do.
      this.#timer.unref?.();
    }
  }

  get cancelled(): Cancellation | undefined {
    return this.#cancelled;
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  remaining(now: number): number {
    return this.deadline - now;
  }

  /** Calls `callback` when the call is cancelled (at once if it already is); returns the unsubscribe. */
  onCancel(callback: (why: Cancellation) => void): () => void {
    if (this.#cancelled) {
      callback(this.#cancelled);
      return () => undefined;
    }
    this.#callbacks.add(callback);
    return () => this.#callbacks.delete(callback);
  }

  /**
   * Waits `ms` with `sleep`, or less if the call is cancelled meanwhile: then it rejects with what
   * `toError` makes of the cancellation.
   */
  wait(ms: number, sleep: (ms: number) => Promise<void>, toError: (why: Cancellation) => unknown): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const stop = this.onCancel((why) => reject(toError(why)));
      sleep(ms).then(() => {
        stop();
        resolve();
      }, (error: unknown) => {
        stop();
        reject(error);
      });
    });
  }

  dispose(): void {
    this.#unsubscribe?.();
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#callbacks.clear();
  }

  #cancel(why: Cancellation): void {
    if (this.#cancelled) return;
    this.#cancelled = why;
    for (const callback of [...this.#callbacks]) callback(why);
    this.#callbacks.clear();
  }
}

/** A sleep that can be called off: the timer is cleared rather than left to run out. */
export function cancellableSleep(scope: CallScope): (ms: number) => Promise<void> {
  return (ms) => new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, ms);
    // When the call is cancelled, wait() has already rejected: only the timer is left to clear.
    const stop = scope.onCancel(() => clearTimeout(timer));
  });
}
