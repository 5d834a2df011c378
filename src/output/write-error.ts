import { systemErrorReason } from '../shared/system-error.js';

/**
 * The output could not be written: a full disk (ENOSPC), an I/O error (EIO), a target that cannot be
 * opened. One line naming the target and the operating system's reason, never a stack trace.
 */
export class OutputWriteError extends Error {
  override name = 'OutputWriteError';
  readonly target: string;
  readonly code: string | undefined;

  /** `detail` says more than the errno's words where the caller knows it (which folder is missing). */
  constructor(target: string, cause: unknown, detail?: string) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    super(`cannot write to ${target}: ${detail === undefined ? systemErrorReason(cause) : `${detail}${code === undefined ? '' : ` (${code})`}`}`, { cause });
    this.target = target;
    this.code = code;
  }
}
