import { forEachInOrder } from '../../api/in-order.js';
import { integerFlag, withDefault } from './options.js';

/** Requests in flight for week panels, trends and bulk exports unless --concurrency says otherwise. */
export const DEFAULT_CONCURRENCY = 4;

/** --concurrency of the bulk commands (export, sync). */
export const concurrencyFlag = withDefault(integerFlag('--concurrency <n>', 'requests in flight, over as many keep-alive connections', { min: 1, max: 32 }), DEFAULT_CONCURRENCY);

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
