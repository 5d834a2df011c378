/**
 * `newsstats sandbox`: runs the sandbox in the foreground until SIGINT or SIGTERM.
 * stdout gets the base URL alone (so `URL=$(newsstats sandbox &)`-style scripts can read it);
 * everything meant for a person goes to stderr.
 */
import { isIP } from 'node:net';
import { SANDBOX_OPTION_DEFAULTS, startSandbox, type SandboxOptions } from './server.js';

/** An address only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return /^::ffff:127\./.test(bare);
}

/**
 * The warning for a sandbox others can reach with a key everyone knows (the default one, printed in
 * every example): its data is synthetic, but it answers anyone, and a --fail-rate or --latency run is
 * anyone's to flood. undefined when there is nothing to say.
 */
export function exposureWarning(host: string, key: string): string | undefined {
  if (isLoopbackHost(host) || key !== SANDBOX_OPTION_DEFAULTS.key) return undefined;
  return `newsstats sandbox: warning: listening on ${host}, reachable from other machines, with the default key "${key}" that anyone can guess; pass --key with a key of your own (or --host 127.0.0.1)`;
}

export interface SandboxIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /**
   * Writes a message for the person at the terminal; the CLI's wraps it at a terminal's width and
   * keeps it one line in a log (cli/run/reporter.ts). Without one, each message is a line on stderr.
   */
  note?: (message: string) => void;
}

/** Where SIGINT and SIGTERM arrive: the process, or an emitter standing in for it in tests. */
export type SignalSource = Pick<NodeJS.EventEmitter, 'on' | 'off'>;

/** Starts the sandbox, announces it, and resolves once a stop signal has closed it. */
export async function serveSandbox(
  options: SandboxOptions,
  io: SandboxIo,
  signals: SignalSource = process,
): Promise<void> {
  const note = io.note ?? ((message: string) => void io.stderr.write(`${message}\n`));
  const sandbox = await startSandbox({
    ...options,
    onLogFull: (message) => {
      options.onLogFull?.(message);
      note(`newsstats sandbox: ${message} (--log-max-mb raises the cap)`);
    },
  });
  io.stdout.write(sandbox.url + '\n');
  const warning = exposureWarning(options.host ?? SANDBOX_OPTION_DEFAULTS.host, options.key ?? SANDBOX_OPTION_DEFAULTS.key);
  if (warning !== undefined) note(warning);
  note(`newsstats sandbox: serving synthetic data at ${sandbox.url} (key: ${sandbox.key}). Ctrl-C stops.`);
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
