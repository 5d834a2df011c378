/**
 * The client's own queue for its sockets. At most `maxConnections` attempts are in the transport at
 * once; the rest wait here, before their per-attempt deadline starts. Left to undici's pool, a request
 * waiting for a socket already ran its deadline, and the time showed up as "timed out while connecting":
 * 100 calls on 8 sockets to a server taking 500 ms failed 74 times with a 2 s timeoutMs, though the
 * server answered each in 500 ms. A call's whole deadline (totalTimeoutMs) and its signal still end a
 * wait here.
 */
import type { CallScope, Cancellation } from './cancel.js';

export class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];

  constructor(count: number) {
    this.#free = count;
  }

  /**
   * Resolves with the function that gives the slot back, once one is free; rejects with what
   * `toError` makes of the cancellation when the call is cancelled first.
   */
  acquire(scope: CallScope, toError: (why: Cancellation) => unknown): Promise<() => void> {
    if (scope.cancelled) return Promise.reject(toError(scope.cancelled));
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        stop();
        resolve(this.#releaser());
      };
      this.#waiting.push(grant);
      const stop = scope.onCancel((why) => {
        const index = this.#waiting.indexOf(grant);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(toError(why));
      });
    });
  }

  /** Gives the slot back once: to the longest waiting call, or to the free count. */
  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}
