/**
 * Where a run's output goes: stdout, or a file written atomically (a temporary file beside the target,
 * renamed into place only when everything was written). A failure or Ctrl-C leaves the target untouched.
 */
import { openAtomicFile } from './atomic.js';

export interface Destination {
  /** The file to write; stdout when absent. */
  outputPath?: string;
  stdout: NodeJS.WritableStream;
  /** Registers what to do if the run is interrupted before `write` settles (remove the temporary file). */
  onInterrupt(cleanup: () => Promise<void>): void;
}

/** Runs `write` against the destination's stream and commits the file only when it succeeds. */
export async function writeToDestination(destination: Destination, write: (stream: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  if (!destination.outputPath) {
    await write(destination.stdout);
    return;
  }
  const file = await openAtomicFile(destination.outputPath);
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
    throw error;
  }
}
