/**
 * A closed pipe is the reader saying "enough" (`newsstats ... | head`): end quietly with exit 0,
 * as cat and grep do, instead of an EPIPE stack trace.
 */
export function installEpipeGuard(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      exit(0);
      return;
    }
    // Any other write failure is real: rethrown, it reaches the process's uncaught-error handling
    // exactly as if no listener had been installed.
    throw error;
  });
}
