import { inOrder } from '../api/in-order.js';
import { integerFlag, withDefault } from './options.js';

/** Requests in flight for week panels, trends and bulk exports unless --concurrency says otherwise. */
export const DEFAULT_CONCURRENCY = 4;

/** --concurrency of the bulk commands (export, sync). */
export const concurrencyFlag = withDefault(integerFlag('--concurrency <n>', 'requests in flight, over as many keep-alive connections', { min: 1, max: 32 }), DEFAULT_CONCURRENCY);

/**
 * Runs tasks with at most `concurrency` in flight and hands results on in input order, whatever order
 * they finish in. Results that finish early wait in a window of bounded size: a task is not started
 * while the oldest unfinished one is `window` places behind, so memory stays flat on long runs. (The
 * library's inOrder, which the bulk exports also bound by bytes.)
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
