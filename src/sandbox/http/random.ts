/**
 * Small seeded pseudo-random streams. The sandbox draws fault decisions and trace ids from them so
 * that the same seed and the same order of requests give the same faults and the same trace ids.
 */

/** splitmix32: spreads nearby seeds (1, 2, 3...) into unrelated 32-bit states. */
function mixSeed(seed: number, stream: number): number {
  let state = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  state = Math.imul(state ^ (state >>> 16), 0x21f0aaad);
  state = Math.imul(state ^ (state >>> 15), 0x735a2d97);
  return (state ^ (state >>> 15)) >>> 0;
}

/** mulberry32: fast, 32 bits of state, plenty for fault dice and ids. */
export class SeededRandom {
  private state: number;

  constructor(seed: number, stream: number) {
    this.state = mixSeed(seed, stream);
  }

  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4_294_967_296;
  }
}

/** Independent streams, so drawing a trace id never shifts the fault sequence and vice versa. */
export const RANDOM_STREAMS = { faults: 1, traceIds: 2 } as const;
