/**
 * Milliseconds on a monotonic clock, as performance.now() counts them but from another origin. On Node
 * process.hrtime: the global `performance` loads node:perf_hooks and eight modules behind it on first
 * use (about 4 million instructions on Node 24, and more when compiled from source), for a clock
 * process.hrtime reads as well. Elsewhere (Workers, browsers, Deno without process) performance.now().
 */
const hrtime = (globalThis as { process?: { hrtime?: { bigint?: () => bigint } } }).process?.hrtime;

export const monotonicMs: () => number = typeof hrtime?.bigint === 'function'
  ? () => Number(hrtime.bigint!()) / 1e6
  : () => performance.now();
