/**
 * A closed pipe is the reader saying "enough" (`newsstats ... | head`): end quietly with exit 0,
 * as cat and grep do, instead of an EPIPE stack trace.
 */
export function installEpipeGuard(
  stream: NodeJS.WritableStream,
  exit: (code: number) => void = (code) => process.exit(code),
  onOtherError?: (error: NodeJS.ErrnoException) => void,
): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') {
      exit(0);
      return;
    }
    // Any other write failure is real (ENOSPC, EIO): the caller reports it, or, rethrown, it reaches the
    // process's uncaught-error handling exactly as if no listener had been installed.
    if (onOtherError) onOtherError(error);
    else throw error;
  });
}
