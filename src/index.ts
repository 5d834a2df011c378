/**
 * The library entry: `import { NewsStatsClient } from 'newsstats'`.
 * Loads no CLI code; the sandbox is a separate import (`startSandbox`) so a client pays nothing for it.
 */
import type { RunningSandbox, SandboxOptions } from './sandbox/server.js';

export {
  NewsStatsClient,
  path,
  type APIPromise,
  type CallOptions,
  type ClientOptions,
  type CountryStatsExportItem,
  type ExportParams,
  type ExportWindow,
  type LinksExportItem,
  type LinksExportParams,
  type LosslessOf,
  type NumberMode,
  type Parsed,
  type ResponseInfo,
  type WithResponse,
} from './api/client.js';
export * from './api/errors.js';
export * from './api/types.js';
export { HTTP_DEFAULTS, type RequestEvent } from './api/options.js';
export { parseJson as parse } from './api/json.js';
export { stringify } from './shared/exact-json/stringify.js';
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
} from './shared/weeks.js';
export { VERSION } from './shared/version.js';
// The class of every number a client in 'lossless' mode returns. lossless-json is a dependency, not
// bundled, so `instanceof LosslessNumber` holds whether it is imported from here or from 'lossless-json'.
export { LosslessNumber, isLosslessNumber } from 'lossless-json';

export type { RunningSandbox, SandboxOptions, SandboxOptionName } from './sandbox/server.js';

/**
 * Starts the local synthetic API (see docs/sandbox.md); loaded only when called. A bad option rejects
 * with SandboxOptionError, a NewsStatsError naming the option.
 */
export async function startSandbox(options?: SandboxOptions): Promise<RunningSandbox> {
  const { startSandbox: start } = await import('./sandbox/server.js');
  return start(options);
}

/**
 * The error of a bad sandbox option. Defined with the sandbox, which loads only when started; this
 * class is the same one, so `instanceof` holds, without loading the sandbox to export it.
 */
export { SandboxOptionError } from './sandbox/option-error.js';
