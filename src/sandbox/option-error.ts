/**
 * The sandbox's option error, apart from the sandbox so the library entry can export the class without
 * loading the server and its data generator.
 */
import { NewsStatsError } from '../api/errors.js';

/**
 * A bad option value, or a host and port it cannot listen on. A NewsStatsError; the message names the
 * option as the library spells it (`failRate`), and `option` says which, so the CLI can name its flag.
 */
export class SandboxOptionError extends NewsStatsError {
  override name = 'SandboxOptionError';
  constructor(readonly option: SandboxOptionName, message: string) {
    super(message);
  }
}

/** The options a SandboxOptionError can be about. */
export type SandboxOptionName = 'host' | 'port' | 'key' | 'seed' | 'now' | 'failRate' | 'latencyMs' | 'rateLimit' | 'logFile' | 'logMaxMb';
