/**
 * --output FILE written atomically: everything goes to a temporary file beside the target
 * (`.<name>.<pid>.<random>.tmp`, same directory so the rename cannot cross file systems), which is
 * fsynced and renamed over the target only on commit(). A failed or interrupted run leaves the
 * target as it was, never partial or emptied.
 */
import { createWriteStream, unlinkSync, type WriteStream } from 'node:fs';
import { chmod, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicFile {
  /** Where output goes until commit. */
  readonly stream: WriteStream;
  /** Ends the stream, fsyncs, renames the temporary file over the target. */
  commit(): Promise<void>;
  /**
   * Discards the temporary file; the target is untouched. A no-op after commit() or a previous
   * abort(), so callers can abort in a `finally` unconditionally.
   */
  abort(): Promise<void>;
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    const stats = await stat(path);
    if (stats.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR', path });
    return stats.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes through a symlink to the file it points at, rather than replacing the link by a file. */
async function resolveTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw error;
  }
}

/** Makes the rename itself durable; not every platform can open a directory, so best effort. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is already fsynced; only the directory entry's durability is lost.
  }
}

function closeStream(stream: WriteStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/**
 * `newFileMode` is the mode a file that does not exist yet is created with (less the umask); an
 * existing target always keeps its own.
 */
export async function openAtomicFile(path: string, newFileMode = 0o666): Promise<AtomicFile> {
  const target = await resolveTarget(path);
  const mode = await existingMode(target);
  const directory = dirname(target);
  // Imported here, not at the top: output/index re-exports this module, and node:crypto costs every
  // command about 2 ms to load.
  const { randomBytes } = await import('node:crypto');
  const temporary = join(directory, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);

  // 'wx': never follow or reuse anything already at the temporary name. `flush`: fsync before close.
  const stream = createWriteStream(temporary, { flags: 'wx', mode: mode ?? newFileMode, flush: true });
  let streamError: unknown;
  stream.on('error', (error) => {
    streamError ??= error;
  });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });

  // If the process exits without commit or abort (process.exit on SIGINT), leave no temporary file.
  const removeOnExit = () => {
    try {
      unlinkSync(temporary);
    } catch {
      // already gone
    }
  };
  process.once('exit', removeOnExit);

  let state: 'open' | 'committing' | 'done' = 'open';

  const discard = async () => {
    state = 'done';
    process.off('exit', removeOnExit);
    stream.destroy();
    await closeStream(stream).catch(() => undefined);
    await removeQuietly(temporary);
  };

  return {
    stream,
    async commit() {
      if (state !== 'open') throw new Error(`output file ${path} was already ${state === 'done' ? 'closed' : 'being committed'}`);
      state = 'committing';
      try {
        if (streamError) throw streamError;
        const closed = closeStream(stream);
        stream.end();
        await closed;
        if (streamError) throw streamError;
        // createWriteStream's mode is reduced by the umask; an existing target keeps its exact mode.
        if (mode !== undefined) await chmod(temporary, mode);
        await rename(temporary, target);
        state = 'done';
        process.off('exit', removeOnExit);
      } catch (error) {
        await discard();
        throw error;
      }
      await syncDirectory(directory);
    },
    async abort() {
      if (state === 'done') return;
      await discard();
    },
  };
}
