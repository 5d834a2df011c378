/**
 * --output FILE written atomically: everything goes to a temporary file beside the target
 * (`.<name>.<pid>.<random>.tmp`, same directory so the rename cannot cross file systems), which is
 * fsynced and renamed over the target only on commit(). A failed or interrupted run leaves the
 * target as it was, never partial or emptied.
 *
 * Anything that is not a regular file (/dev/null, a FIFO, a terminal, /dev/stdout, /dev/fd/N, a
 * process substitution) is written into, as a shell redirect would: renaming a file over it would
 * replace the device (as root) or fail (as anyone else), and a reader on a FIFO would get nothing.
 */
import { createWriteStream, statSync, unlinkSync, type WriteStream } from 'node:fs';
import { chmod, lstat, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

export interface AtomicFile {
  /** Where output goes until commit. */
  readonly stream: NodeJS.WritableStream;
  /** Ends the stream, fsyncs, renames the temporary file over the target. */
  commit(): Promise<void>;
  /**
   * Discards the temporary file; the target is untouched. A no-op after commit() or a previous
   * abort(), so callers can abort in a `finally` unconditionally.
   */
  abort(): Promise<void>;
}

async function existingMode(path: string, followSymlinks: boolean): Promise<number | undefined> {
  try {
    const stats = followSymlinks ? await stat(path) : await lstat(path);
    if (!followSymlinks && stats.isSymbolicLink()) return undefined;
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
 * A device, FIFO or socket, or a path under /dev or /proc (/dev/stdout, /dev/fd/3 and process
 * substitutions name an open descriptor of this process, whatever it points at): written into.
 */
export function isSpecialTarget(path: string, cwd = '.'): boolean {
  const target = resolve(cwd, path);
  if (/^\/(dev|proc)\//.test(target)) return true;
  const stats = statSync(target, { throwIfNoEntry: false });
  return stats !== undefined && !stats.isFile() && !stats.isDirectory();
}

/**
 * /dev/stdout and /dev/stderr are this process's own streams, as bash treats them in a redirect:
 * reopening them by path fails when they are sockets (ENXIO) and would race the stream's own writes.
 */
function ownStream(path: string): NodeJS.WriteStream | undefined {
  const match = /^\/(?:dev\/(?:(stdout)|(stderr)|fd\/([12]))|proc\/self\/fd\/([12]))$/.exec(resolve(path));
  if (!match) return undefined;
  return match[1] || match[3] === '1' || match[4] === '1' ? process.stdout : process.stderr;
}

/** Output into one of our own streams: flushed on commit, never closed (it is not ours to close). */
function ownStreamFile(stream: NodeJS.WriteStream): AtomicFile {
  let done = false;
  return {
    stream,
    async commit() {
      if (done) return;
      done = true;
      await new Promise<void>((resolvePromise, reject) => stream.write('', (error) => (error ? reject(error) : resolvePromise())));
    },
    async abort() {
      done = true;
    },
  };
}

/** A write stream, open, that remembers its first error, with the close that reports it. */
interface OpenedStream {
  stream: WriteStream;
  /** Ends the stream and waits for it to close; throws the stream's first error, if it had one. */
  endAndClose: () => Promise<void>;
}

async function openWriteStream(path: string, options: Parameters<typeof createWriteStream>[1]): Promise<OpenedStream> {
  const stream = createWriteStream(path, options);
  let streamError: unknown;
  stream.on('error', (error) => {
    streamError ??= error;
  });
  await new Promise<void>((resolvePromise, reject) => {
    stream.once('open', () => resolvePromise());
    stream.once('error', reject);
  });
  // `errored` is set before the 'error' event is emitted: a close seen first must not pass for success.
  const throwIfErrored = () => {
    if (streamError ?? stream.errored) throw streamError ?? stream.errored;
  };
  return {
    stream,
    endAndClose: async () => {
      throwIfErrored();
      const closed = closeStream(stream);
      stream.end();
      await closed;
      throwIfErrored();
    },
  };
}

/** Writes straight into a special file, as `> target` in a shell would. */
async function openSpecialFile(path: string): Promise<AtomicFile> {
  const own = ownStream(path);
  if (own) return ownStreamFile(own);
  // Opening a FIFO waits for its reader, as a shell's redirect does.
  const { stream, endAndClose } = await openWriteStream(path, { flags: 'w' });
  let done = false;
  return {
    stream,
    async commit() {
      if (done) throw new Error(`output file ${path} was already closed`);
      done = true;
      await endAndClose();
    },
    async abort() {
      if (done) return;
      done = true;
      stream.destroy();
      await closeStream(stream).catch(() => undefined);
    },
  };
}

export interface AtomicFileOptions {
  /**
   * Replace a symlink at `path` by the new file instead of writing to the file it points at. The
   * cache uses it: a link planted in its folder must not redirect a write to another file.
   */
  replaceSymlink?: boolean;
}

/**
 * `newFileMode` is the mode a file that does not exist yet is created with (less the umask); an
 * existing target always keeps its own.
 */
export async function openAtomicFile(path: string, newFileMode = 0o666, options: AtomicFileOptions = {}): Promise<AtomicFile> {
  const followSymlinks = options.replaceSymlink !== true;
  if (followSymlinks && isSpecialTarget(path)) return openSpecialFile(path);
  const target = followSymlinks ? await resolveTarget(path) : path;
  const mode = await existingMode(target, followSymlinks);
  const directory = dirname(target);
  // Imported here, not at the top: output/index re-exports this module, and node:crypto costs every
  // command about 2 ms to load.
  const { randomBytes } = await import('node:crypto');
  const temporary = join(directory, `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);

  // 'wx': never follow or reuse anything already at the temporary name. `flush`: fsync before close.
  const { stream, endAndClose } = await openWriteStream(temporary, { flags: 'wx', mode: mode ?? newFileMode, flush: true });

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
        await endAndClose();
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
