/**
 * The operating system's failures in words. Used by every layer that touches files (the output, the
 * config store, the cache), so it sits below them all.
 */

const REASONS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EIO: 'input/output error',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'no such directory',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EISDIR: 'it is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EFBIG: 'file too large',
  ENXIO: 'no reader on the other end',
  EBADF: 'the descriptor is closed',
};

/** The operating system's reason in words, with its code: `read-only file system (EROFS)`. */
export function systemErrorReason(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code !== undefined && REASONS[code]) return `${REASONS[code]} (${code})`;
  return code ?? (cause instanceof Error ? cause.message : String(cause));
}

/** A failure of the operating system (it has an errno code), as opposed to a bug or a refusal of ours. */
export function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
