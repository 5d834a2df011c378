import { integerFlag, withDefault } from './options.js';

/** Requests in flight for week panels, trends and bulk exports unless --concurrency says otherwise. */
export const DEFAULT_CONCURRENCY = 4;

/** --concurrency of the bulk commands (export, sync). */
export const concurrencyFlag = withDefault(integerFlag('--concurrency <n>', 'requests in flight, over as many keep-alive connections', { min: 1, max: 32 }), DEFAULT_CONCURRENCY);

/**
 * Runs tasks with at most `concurrency` in flight and hands results on in input order, whatever order
 * they finish in. Results that finish early wait in a window of bounded size: a task is not started
 * while the oldest unfinished one is `window` places behind, so memory stays flat on long runs.
 */
export async function forEachInOrder<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  task: (item: Item, index: number) => Promise<Result>,
  emit: (result: Result, index: number) => Promise<void> | void,
  window = concurrency * 4,
): Promise<void> {
  const finished = new Map<number, Result>();
  let nextToStart = 0;
  let nextToEmit = 0;
  let failure: { error: unknown } | undefined;

  await new Promise<void>((resolve, reject) => {
    let running = 0;
    let emitting = false;

    const drain = async () => {
      if (emitting) return;
      emitting = true;
      try {
        while (finished.has(nextToEmit)) {
          const result = finished.get(nextToEmit)!;
          finished.delete(nextToEmit);
          await emit(result, nextToEmit);
          nextToEmit += 1;
        }
      } catch (error) {
        failure ??= { error };
      } finally {
        emitting = false;
      }
      pump();
    };

    const pump = () => {
      if (failure) {
        if (running === 0) reject(failure.error);
        return;
      }
      if (nextToEmit === items.length) {
        resolve();
        return;
      }
      while (running < concurrency && nextToStart < items.length && nextToStart < nextToEmit + window) {
        const index = nextToStart;
        nextToStart += 1;
        running += 1;
        task(items[index]!, index).then(
          (result) => {
            running -= 1;
            finished.set(index, result);
            void drain();
          },
          (error: unknown) => {
            running -= 1;
            failure ??= { error };
            pump();
          },
        );
      }
    };

    pump();
  });
}

/** forEachInOrder, collecting the results into an array. */
export async function mapInOrder<Item, Result>(
  items: readonly Item[],
  concurrency: number,
  task: (item: Item, index: number) => Promise<Result>,
): Promise<Result[]> {
  const results: Result[] = [];
  await forEachInOrder(items, concurrency, task, (result) => {
    results.push(result);
  });
  return results;
}
