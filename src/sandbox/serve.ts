/**
 * `newsstats sandbox`: runs the sandbox in the foreground until SIGINT or SIGTERM.
 * stdout gets the base URL alone (so `URL=$(newsstats sandbox &)`-style scripts can read it);
 * everything meant for a person goes to stderr.
 */
import { startSandbox, type SandboxOptions } from './server.js';

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
