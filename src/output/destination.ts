/**
 * Where a run's output goes: stdout, or a file written atomically (a temporary file beside the target,
 * renamed into place only when everything was written). A failure or Ctrl-C leaves the target untouched.
 * A device, FIFO or other special file is written into as a shell's `> target` would (atomic.ts).
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { openAtomicFile } from './atomic.js';
import { isSystemError } from '../shared/system-error.js';
import { OutputWriteError } from './write-error.js';

export interface Destination {
  /** The file to write; stdout when absent. */
  outputPath?: string;
  /** How a failure names the file: the path as the user gave it (default: outputPath). */
  label?: string;
  stdout: NodeJS.WritableStream;
  /** Registers what to do if the run is interrupted before `write` settles (remove the temporary file). */
  onInterrupt(cleanup: () => Promise<void>): void;
}

/**
 * Runs `write` against the destination's stream and commits the file only when it succeeds. The
 * operating system's failures on the file (a full disk, EIO, a target that cannot be opened) become one
 * OutputWriteError naming it (exit 6); a failing stdout is reported by the caller, which sees both its
 * error event and the rejected write.
 */
export async function writeToDestination(destination: Destination, write: (stream: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  if (!destination.outputPath) {
    await write(destination.stdout);
    return;
  }
  const target = destination.label ?? destination.outputPath;
  const asWriteError = (error: unknown) => (isSystemError(error) ? new OutputWriteError(target, error, folderThatCannotHold(destination.outputPath!, error)) : error);
  const file = await openAtomicFile(destination.outputPath).catch((error: unknown) => {
    throw asWriteError(error);
  });
  let settled = false;
  destination.onInterrupt(async () => {
    if (!settled) await file.abort();
  });
  try {
    await write(file.stream);
    await file.commit();
    settled = true;
  } catch (error) {
    settled = true;
    await file.abort();
    throw asWriteError(error);
  }
}

/**
 * ENOENT from a folder that exists (a file system that takes no new file) is not "no such directory":
 * the true reason, or undefined to keep the errno's words.
 */
function folderThatCannotHold(path: string, error: NodeJS.ErrnoException): string | undefined {
  if (error.code !== 'ENOENT') return undefined;
  const directory = dirname(path);
  return statSync(directory, { throwIfNoEntry: false })?.isDirectory() ? `the directory ${directory} exists but cannot hold a new file (not a regular file system?)` : undefined;
}
