/**
 * Milliseconds on a monotonic clock, as performance.now() counts them but from another origin: the
 * global `performance` loads node:perf_hooks and eight modules behind it on first use (about 4 million
 * instructions on Node 24, and more when compiled from source), for a clock process.hrtime reads as well.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
