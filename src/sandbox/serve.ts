/**
 * `newsstats sandbox`: runs the sandbox in the foreground until SIGINT or SIGTERM.
 * stdout gets the base URL alone (so `URL=$(newsstats sandbox &)`-style scripts can read it);
 * everything meant for a person goes to stderr.
 */
import { SandboxOptionError, startSandbox, type SandboxOptions } from './server.js';

export interface SandboxIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Where SIGINT and SIGTERM arrive: the process, or an emitter standing in for it in tests. */
export type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Starts the sandbox, announces it, and resolves once a stop signal has closed it. */
export async function serveSandbox(
  options: SandboxOptions,
  io: SandboxIo,
  signals: SignalSource = process,
): Promise<void> {
  const sandbox = await startSandbox(options);
  io.stdout.write(sandbox.url + '\n');
  io.stderr.write(
    `newsstats sandbox: serving synthetic data at ${sandbox.url} (key: ${sandbox.key}). Ctrl-C stops.\n`,
  );
  await new Promise<void>((resolve, reject) => {
    const stop = () => {
      signals.off('SIGINT', stop);
      signals.off('SIGTERM', stop);
      sandbox.close().then(resolve, reject);
    };
    signals.on('SIGINT', stop);
    signals.on('SIGTERM', stop);
  });
}

/**
 * Parses `--now YYYY-MM-DD` into midnight UTC of that day (the model reads the week in UTC).
 * Throws SandboxOptionError for text that is not a real calendar date.
 */
export function parseSandboxNow(text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2026-02-30 over to March; a round trip catches it.
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) {
      return date;
    }
  }
  throw new SandboxOptionError(`--now "${text}" is not a date: write YYYY-MM-DD, for example 2026-03-02`);
}

/** The `newsstats sandbox` flags as commander hands them over (text, all optional). */
export interface SandboxFlags {
  host?: string;
  port?: string;
  key?: string;
  seed?: string;
  now?: string;
  failRate?: string;
  latency?: string;
  rateLimit?: string;
  log?: string;
}

/**
 * Turns flag text into SandboxOptions, with messages that name the flag. Range checks beyond
 * "is a number" happen in startSandbox (resolveSandboxOptions), whose messages name the option.
 */
export function sandboxOptionsFromFlags(flags: SandboxFlags): SandboxOptions {
  const options: SandboxOptions = {};
  if (flags.host !== undefined) options.host = flags.host;
  if (flags.key !== undefined) options.key = flags.key;
  if (flags.log !== undefined) options.logFile = flags.log;
  if (flags.now !== undefined) options.now = parseSandboxNow(flags.now);
  if (flags.port !== undefined) options.port = integerFlag('--port', flags.port);
  if (flags.seed !== undefined) options.seed = integerFlag('--seed', flags.seed);
  if (flags.rateLimit !== undefined) options.rateLimit = integerFlag('--rate-limit', flags.rateLimit);
  if (flags.latency !== undefined) options.latencyMs = numberFlag('--latency', flags.latency);
  if (flags.failRate !== undefined) options.failRate = numberFlag('--fail-rate', flags.failRate);
  return options;
}

function integerFlag(flag: string, text: string): number {
  const value = Number(text.trim());
  if (!/^[+-]?\d+$/.test(text.trim()) || !Number.isSafeInteger(value)) {
    throw new SandboxOptionError(`${flag} "${text}" is not an integer`);
  }
  return value;
}

function numberFlag(flag: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) throw new SandboxOptionError(`${flag} "${text}" is not a number`);
  return value;
}
