/**
 * --output FILE written atomically: everything goes to a temporary file beside the target
 * (`.<name>.<pid>.<random>.tmp`, same directory so the rename cannot cross file systems), which is
 * fsynced and renamed over the target only on commit(). A failed or interrupted run leaves the
 * target as it was, never partial or emptied.
 *
 * What the path IS decides, never where it is: a character or block device, a FIFO or a socket, and
 * a path naming one of this process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N, a
 * process substitution), are written into, as a shell redirect would: renaming a file over them would
 * replace the device (as root) or fail (as anyone else), and a reader on a FIFO would get nothing. A
 * regular file under /dev or /proc (/dev/shm/x.csv, /proc/self/cwd/x.csv) is a file like any other.
 *
 * A FIFO is opened without blocking (a blocked open() holds a libuv thread that Ctrl-C cannot free:
 * the process could then not even exit) and written through a pipe handle on the event loop.
 */
// node:fs's promises, reached when a file is written: not node:fs/promises, whose import loads Node's
// promise file system (1 ms of CPU on Node 24) in every run that loads this module, a query to stdout
// included (docs/performance.md, "Less for a run with an empty cache to compile and run").
import { closeSync, constants, createWriteStream, fstatSync, open as openCallback, promises as fsPromises, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';

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
    const stats = followSymlinks ? await fsPromises.stat(path) : await fsPromises.lstat(path);
    if (!followSymlinks && stats.isSymbolicLink()) return undefined;
    if (stats.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR', path });
    return stats.mode & 0o7777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Symlinks followed before a dangling one is given up on, as the kernel's own limit (ELOOP). */
const MAX_SYMLINK_HOPS = 40;

/**
 * Writes through a symlink to the file it points at, rather than replacing the link by a file. A
 * dangling link is followed to the name it points at, which is created there, as `> link` in a shell
 * creates its target.
 */
async function resolveTarget(path: string): Promise<string> {
  let current = resolve(path);
  for (let hop = 0; hop <= MAX_SYMLINK_HOPS; hop++) {
    try {
      return await fsPromises.realpath(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const stats = await fsPromises.lstat(current).catch(() => undefined);
    if (!stats?.isSymbolicLink()) return current;
    current = resolve(dirname(current), await fsPromises.readlink(current));
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP', syscall: 'open', path });
}

/** Makes the rename itself durable; not every platform can open a directory, so best effort. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await fsPromises.open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is already fsynced; only the directory entry's durability is lost.
  }
}

/** What an output stream is to us: a Writable that closes, a file stream or a pipe socket. */
type OutputStream = Writable & { readonly closed: boolean };

function closeStream(stream: OutputStream): Promise<void> {
  if (stream.closed) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.once('close', resolve);
    stream.once('error', reject);
  });
}

async function removeQuietly(path: string): Promise<void> {
  await fsPromises.unlink(path).catch(() => undefined);
}

/**
 * /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N and /proc/<our pid>/fd/N: names of
 * this process's open descriptors (process substitution hands us one), whatever they point at.
 */
const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdin|stdout|stderr|fd\/\d+)|proc\/(?:self|thread-self|(\d+))\/fd\/\d+)$/;

function namesOwnDescriptor(target: string): boolean {
  const match = DESCRIPTOR_PATH.exec(target);
  return match !== null && (match[1] === undefined || Number(match[1]) === process.pid);
}

/**
 * A target written into rather than replaced: one of our own descriptors by name, or a path that is
 * (after symlinks) a character or block device, a FIFO or a socket. Decided by what the path is,
 * never by where: /dev/shm/x.csv is a regular file. A path that cannot be looked at is not special;
 * opening it reports why.
 */
export function isSpecialTarget(path: string, cwd = '.'): boolean {
  const target = resolve(cwd, path);
  if (namesOwnDescriptor(target)) return true;
  let stats;
  try {
    stats = statSync(target, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  return stats !== undefined && (stats.isCharacterDevice() || stats.isBlockDevice() || stats.isFIFO() || stats.isSocket());
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
  stream: OutputStream;
  /** Ends the stream and waits for it to close; throws the stream's first error, if it had one. */
  endAndClose: () => Promise<void>;
}

/** Wraps a stream that is opening (or open) with the first-error bookkeeping endAndClose relies on. */
async function trackedStream(stream: OutputStream, opened: Promise<void>): Promise<OpenedStream> {
  let streamError: unknown;
  stream.on('error', (error) => {
    streamError ??= error;
  });
  await opened;
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

function openWriteStream(path: string, options: Parameters<typeof createWriteStream>[1]): Promise<OpenedStream> {
  const stream = createWriteStream(path, options);
  return trackedStream(stream, new Promise<void>((resolvePromise, reject) => {
    stream.once('open', () => resolvePromise());
    stream.once('error', reject);
  }));
}

/** How often a FIFO with no reader is tried again: a shell's `> fifo` waits for one too. */
const FIFO_RETRY_MS = 50;

/**
 * Opens a special file for writing without ever blocking in open(): O_NONBLOCK makes a FIFO with no
 * reader fail at once (ENXIO), so the wait for a reader is a timer loop that SIGINT and SIGTERM end,
 * not a libuv thread stuck in the kernel. A FIFO or socket is then written through a pipe handle on
 * the event loop (a blocked write() would hold a thread the same way); a device is reopened plainly.
 */
async function openSpecialStream(path: string): Promise<OpenedStream> {
  const flags = constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
  for (;;) {
    let fd: number;
    try {
      // A plain descriptor, not a FileHandle: the pipe handle takes it over, and a FileHandle would
      // close it again when collected.
      fd = await openDescriptor(path, flags);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      await new Promise((resolvePromise) => setTimeout(resolvePromise, FIFO_RETRY_MS));
      continue;
    }
    let stats;
    try {
      stats = fstatSync(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    if (!stats.isFIFO() && !stats.isSocket()) {
      // A device (or a regular file behind /dev/fd/N): its writes finish, so a plain stream will do.
      closeSync(fd);
      return openWriteStream(path, { flags: 'w' });
    }
    const { Socket } = await import('node:net');
    let socket;
    try {
      socket = new Socket({ fd, readable: false, writable: true });
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return trackedStream(socket, Promise.resolve());
  }
}

function openDescriptor(path: string, flags: number): Promise<number> {
  return new Promise((resolvePromise, reject) => openCallback(path, flags, (error, fd) => (error ? reject(error) : resolvePromise(fd))));
}

/** Writes straight into a special file, as `> target` in a shell would. */
async function openSpecialFile(path: string): Promise<AtomicFile> {
  const own = ownStream(path);
  if (own) return ownStreamFile(own);
  const { stream, endAndClose } = await openSpecialStream(path);
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
        if (mode !== undefined) await fsPromises.chmod(temporary, mode);
        await fsPromises.rename(temporary, target);
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
