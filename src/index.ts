/**
 * The library entry: `import { NewsStatsClient } from 'newsstats'`.
 * Loads no CLI code; the sandbox is a separate import (`startSandbox`) so a client pays nothing for it.
 */
export { NewsStatsClient, path, type CallOptions, type ClientOptions, type NumberMode, type Parsed, type LosslessOf } from './api/client.js';
export * from './api/errors.js';
export * from './api/types.js';
export { HTTP_DEFAULTS, type RequestEvent } from './api/options.js';
export { parse, stringify } from './api/serialize.js';
export {
  addWeeks,
  isoWeekOf,
  isValidWeek,
  listWeeks,
  mondayOf,
  parseWeek,
  parseWeekSpec,
  resolveWeekWindow,
  weeksBetween,
  weeksInYear,
  WeekError,
  type WeekSpec,
  type WeekWindow,
} from './weeks.js';
export { VERSION } from './version.js';
// The class of every number a client in 'lossless' mode returns. lossless-json is a dependency, not
// bundled, so `instanceof LosslessNumber` holds whether it is imported from here or from 'lossless-json'.
export { LosslessNumber, isLosslessNumber } from 'lossless-json';

/** Starts the local synthetic API (see docs/sandbox.md); loaded only when called. */
export async function startSandbox(options?: import('./sandbox/server.js').SandboxOptions) {
  const { startSandbox: start } = await import('./sandbox/server.js');
  return start(options);
}
