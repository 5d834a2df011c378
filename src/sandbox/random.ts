/**
 * Seeded randomness for the sandbox, the dataset's and the server's alike. Nothing here reads the
 * clock or Math.random: the same seed always yields the same stream, which is what makes the dataset
 * byte-identical run to run, and the faults and trace ids the same for the same requests.
 */

export type Random = () => number;

const MULBERRY32_STEP = 0x6d2b79f5;

/**
 * mulberry32: a tiny 32-bit generator, fast and good enough for synthetic data. next() returns [0, 1).
 * An object rather than a closure where draws are many (the dataset's article stage): V8 inlines the
 * method into the loop that calls it.
 *
 * Its state only counts (each draw adds a constant), so the stream can be read out of order: the
 * k-th draw after a saved `position` is drawAt(position, k). The article stage saves positions and
 * skips the draws whose values are needed only later, then draws them on demand.
 */
export class RandomStream {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    return output((this.state = (this.state + MULBERRY32_STEP) >>> 0));
  }

  /** The state now: drawAt(position, k) is what the k-th next() from here returns. */
  get position(): number {
    return this.state;
  }

  /** Passes over `count` draws without computing them. */
  skip(count: number): void {
    this.state = (this.state + Math.imul(count, MULBERRY32_STEP)) >>> 0;
  }
}

/** The k-th draw (k >= 1) after a stream's `position`. */
export function drawAt(position: number, k: number): number {
  return output((position + Math.imul(k, MULBERRY32_STEP)) >>> 0);
}

function output(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** mulberry32 (RandomStream) as a function. */
export function mulberry32(seed: number): Random {
  const stream = new RandomStream(seed);
  return () => stream.next();
}

/**
 * lowbias32: a bijection on 32-bit integers (xor-shifts and odd multiplications are each
 * invertible), so distinct inputs give distinct outputs. Used where uniqueness matters (articleHash).
 */
export function permute32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** Mixes several integers into one 32-bit seed, for independent lazily-derived streams. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) h = permute32((h ^ permute32(part >>> 0)) + 0x632be5ab);
  return h;
}

/**
 * The server's streams, mixed with the seed (`mulberry32(mixSeed(seed, stream))`). Separate streams,
 * so drawing a trace id never shifts the fault sequence and vice versa; numbered apart from the
 * dataset's generation stages (small tags in data/), so no server draw repeats a data stream.
 */
export const RANDOM_STREAMS = { faults: 101, traceIds: 102 } as const;

export function randomInt(random: Random, min: number, maxInclusive: number): number {
  return min + Math.floor(random() * (maxInclusive - min + 1));
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Approximately normal (sum of three uniforms), mean 0 and standard deviation `sd`. */
export function roughNormal(random: Random, sd: number): number {
  return (random() + random() + random() - 1.5) * 2 * sd;
}

/**
 * Index into cumulative[start .. end-1] (running totals, ascending, restarting at `start`) for a
 * uniform draw scaled to the slice's total.
 */
export function pickCumulative(cumulative: Float64Array, start: number, end: number, draw: number): number {
  const target = draw * cumulative[end - 1]!;
  let low = start;
  let high = end - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (cumulative[mid]! > target) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Fisher-Yates, in place. */
export function shuffle<T>(random: Random, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
