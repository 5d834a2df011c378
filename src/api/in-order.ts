/**
 * Many requests at once, their results handed on in input order: the engine of the bulk exports.
 *
 * Results that finish before the ones ahead of them wait, and what waits is bounded twice: by count
 * (no task starts `window` places ahead of the oldest unfinished one) and by size (no task starts
 * while the waiting results hold `maxBufferedBytes` or more). The count alone let one stalled request
 * hold 63 answers of 15 MiB each behind it at concurrency 16 (1.78 GB).
 */

export interface InOrderOptions {
  /** Tasks in flight at once. */
  concurrency: number;
  /** How far ahead of the oldest unfinished task one may start; default concurrency × 4. */
  window?: number;
  /** Finished results waiting to be taken may hold this many bytes before no further task starts. */
  maxBufferedBytes?: number;
  /**
   * The caller's signal: once it aborts, no task starts, the tasks in flight get it through theirs,
   * and the consumer gets the abort's error at its next step instead of results still waiting.
   */
  signal?: AbortSignal | undefined;
}

/** A task's result and what holding it costs, in bytes (the size of the body it was read from). */
export interface Sized<Result> {
  value: Result;
  bytes: number;
}

/**
 * Runs `task` over `items`, at most `concurrency` at once, yielding results in input order. A failed
 * task stops new ones from starting; its error is thrown when its turn comes (the results before it
 * are yielded first). Leaving the loop early aborts the tasks in flight through their signal.
 */
export async function* inOrder<Item, Result>(
  items: readonly Item[],
  task: (item: Item, index: number, signal: AbortSignal) => Promise<Sized<Result>>,
  options: InOrderOptions,
): AsyncGenerator<Result, void, undefined> {
  const concurrency = Math.max(1, Math.floor(options.concurrency));
  const window = options.window ?? concurrency * 4;
  const maxBufferedBytes = options.maxBufferedBytes ?? Infinity;
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([stop.signal, options.signal]) : stop.signal;
  const pending: Array<Promise<Sized<Result>> | undefined> = [];
  const finishedBytes = new Map<number, number>();
  let nextToStart = 0;
  let nextToTake = 0;
  let running = 0;
  let buffered = 0;
  let failed = false;

  const pump = (): void => {
    while (
      // Once the consumer has left (stop aborted) or the caller aborted, nothing new starts; a caller's
      // abort reaches the tasks in flight through their signal and fails them.
      !failed && !signal.aborted && running < concurrency && nextToStart < items.length &&
      nextToStart < nextToTake + window &&
      // The oldest unfinished task always may start: nothing else can free the budget.
      (buffered < maxBufferedBytes || nextToStart === nextToTake)
    ) {
      const index = nextToStart;
      nextToStart += 1;
      running += 1;
      const promise = task(items[index]!, index, signal).then((result) => {
        running -= 1;
        if (index >= nextToTake) {
          finishedBytes.set(index, result.bytes);
          buffered += result.bytes;
        }
        pump();
        return result;
      }, (error: unknown) => {
        running -= 1;
        failed = true;
        throw error;
      });
      // Rejections are taken when their turn comes; one past a failure may never be.
      promise.catch(() => undefined);
      pending[index] = promise;
    }
  };

  try {
    pump();
    while (nextToTake < items.length) {
      const result = await pending[nextToTake]!;
      pending[nextToTake] = undefined;
      buffered -= finishedBytes.get(nextToTake) ?? 0;
      finishedBytes.delete(nextToTake);
      nextToTake += 1;
      pump();
      yield result.value;
    }
  } finally {
    stop.abort();
  }
}

/**
 * Runs tasks with at most `concurrency` in flight and hands results on in input order, whatever order
 * they finish in. Results that finish early wait in a window of bounded size: a task is not started
 * while the oldest unfinished one is `window` places behind, so memory stays flat on long runs:
 * inOrder above, bounded by count alone (the bulk exports also bound it by bytes).
 */
export async function forEachInOrder<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  task: (item: Item, index: number) => Promise<Result>,
  emit: (result: Result, index: number) => Promise<void> | void,
  window = concurrency * 4,
): Promise<void> {
  let index = 0;
  const sized = async (item: Item, at: number) => ({ value: await task(item, at), bytes: 0 });
  for await (const result of inOrder(items, sized, { concurrency, window })) {
    await emit(result, index);
    index += 1;
  }
}
