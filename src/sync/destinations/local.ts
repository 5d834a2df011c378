/**
 * A lake in a local folder. The folder must be ours alone, as the cache folders must (cli/run/cache.ts):
 * owned by us and writable by nobody else, and so every folder in it. Inside it nothing is ever
 * followed: files are created with O_EXCL | O_NOFOLLOW under a name only this program uses, renamed
 * over their final name (a link planted there is replaced, never written through), and a folder that
 * is a link is refused. One writer at a time: a lock file holding the writer's pid and start time, so a
 * lock left by a crashed run is recognised and taken over. The clean-up removes only our own
 * temporary files, and only in the lake's own folders.
 */
import { constants, openSync, readFileSync, unlinkSync } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, stat, unlink, link, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { OutputWriteError } from '../../output/write-error.js';
import { isSystemError, makeFolders, pseudoFileSystemOf } from '../../shared/system-error.js';
import { STREAM_NAMES } from '../streams.js';
import { FilesOnTheirWay, LOCK_FILE, LakeError, STORE_FOLDER, holdsLake, insideLake, produceBytes, stoppedWhileLocking, writtenAfterRelease, type Chunks, type Destination, type Produce, type Scratch } from './destination.js';
import { holdsLock, processStart } from './lock-holder.js';
import { heldLinksNamed, OPEN_SCRATCH, ScratchFile } from './scratch-file.js';
import { MAX_STATE_BYTES, STATE_FILE } from '../state.js';



/** Our temporary files: `.NAME.newsstats-sync-PID-RANDOM.tmp`, a name no other program makes. */
const TEMPORARY = /^\..+\.newsstats-sync-\d+-[0-9a-f]{12}\.tmp$/;

const OPEN_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/**
 * Bytes handed to write() that may wait at once for their temporary files: the writes run behind the
 * fsyncs in the thread pool, and a links merge hands over its 170 files faster than they are written
 * (4-6 MB of a 25-week sync's peak, at its end). Enough for dozens of partitions at once.
 */
const MAX_BYTES_UNWRITTEN = 1024 * 1024;

const OPEN_READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Temporary files named by this process so far: with the pid, no two of a run share a name. */
let temporaryFiles = 0;

/**
 * A name of ours beside `path`. Not node:crypto's randomness: loading it starts OpenSSL, 4-6 MiB of a
 * sync's peak on Node 24 and 26 (docs/performance.md, "sync", "The peak"), and the name need not be
 * unguessable: the lake's folders are writable by us alone and the file is made with O_EXCL. The
 * count makes it unique in the run, the random half unlikely to meet what a dead run of the same pid
 * left (which open() removes anyway).
 */
function temporaryName(path: string): string {
  const unique = Math.floor(Math.random() * 0x1000000) * 0x1000000 + (temporaryFiles++ % 0x1000000);
  return join(dirname(path), `.${basename(path)}.newsstats-sync-${process.pid}-${unique.toString(16).padStart(12, '0')}.tmp`);
}

/** Why a folder in the lake may not be used, or undefined when it is ours alone. */
function folderProblem(path: string, stats: Awaited<ReturnType<typeof lstat>>): string | undefined {
  if (stats.isSymbolicLink()) return `${path} is a symbolic link; a lake holds no links: remove it`;
  if (!stats.isDirectory()) return `${path} is not a folder`;
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return `${path} belongs to another user (uid ${stats.uid}); a lake must be yours alone`;
  if ((Number(stats.mode) & 0o022) !== 0) return `${path} is writable by group or others (mode ${(Number(stats.mode) & 0o777).toString(8)}); a lake must be yours alone: chmod go-w it`;
  return undefined;
}

interface LockHolder {
  pid: number;
  start?: string;
  host: string;
  since: string;
}

/** Reads a small file of the lake without following a link or blocking on a FIFO; undefined when absent. */
async function readBounded(path: string, limit: number): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(path, OPEN_READ);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new LakeError(`${path} is a symbolic link; a lake holds no links: remove it`);
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new LakeError(`${path} is a folder, not a file: remove it`);
    if (!stats.isFile()) throw new LakeError(`${path} is not a regular file: remove it`);
    const uid = process.getuid?.();
    if (uid !== undefined && stats.uid !== uid) throw new LakeError(`${path} belongs to another user (uid ${stats.uid}); a lake must be yours alone`);
    if (stats.size > limit) throw new LakeError(`${path} is ${stats.size} bytes, more than a newsstats file there can be (${limit}): remove it`);
    const buffer = Buffer.alloc(stats.size);
    const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Whether `folder` holds a lake's state (any entry of that name: it is refused as the lake's own would be). */
async function holdsState(folder: string): Promise<boolean> {
  try {
    await lstat(join(folder, STATE_FILE));
    return true;
  } catch {
    return false; // absent, or a folder we may not look into: no lake we could tell of
  }
}

/** A lake in a folder above `path`, up to the root (destination.ts, insideLake). */
async function refuseInsideLake(where: string, path: string): Promise<void> {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    if (await holdsState(folder)) throw insideLake(where, folder);
    if (folder === dirname(folder)) return;
  }
}

/**
 * `path` as it will be once made: the links of its nearest folder that exists resolved, the rest as
 * named. A lake asked for through a link (`teams/eu`, teams a link into another lake) is looked above
 * where it would land before its folder is made there.
 */
async function landingPath(path: string): Promise<string> {
  for (let existing = path; ; existing = dirname(existing)) {
    try {
      return join(await realpath(existing), relative(existing, path));
    } catch {
      if (existing === dirname(existing)) return path;
    }
  }
}

/** A lake above `where`, as named and where it lands (destination.ts, insideLake). */
async function refuseInsideLakes(where: string): Promise<void> {
  await refuseInsideLake(where, where);
  const landing = await landingPath(where);
  if (landing !== where) await refuseInsideLake(where, landing);
}

/** A lake in a folder of the lake's own folder (destination.ts, holdsLake). */
async function refuseLakesInside(where: string, root: string): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (entry.isDirectory() && (await holdsState(join(root, entry.name)))) throw holdsLake(where, join(where, entry.name));
  }
}

export class LocalLake implements Destination {
  #root: string | undefined;
  readonly #vetted = new Set<string>();
  #lockText: string | undefined;
  readonly #releaseOnExit = () => this.#releaseSync();

  /** A read is a system call away, no round trip to hide: none is asked ahead, as each held is memory. */
  readonly readsAhead = 0;

  constructor(readonly where: string) {}

  get root(): string {
    if (this.#root === undefined) throw new Error('the lake is not open');
    return this.#root;
  }

  async open(): Promise<void> {
    if (this.#closed) throw stoppedWhileLocking(this.where);
    // Before the folder is made: a refused lake leaves nothing behind.
    await refuseInsideLakes(this.where);
    const existing = await stat(this.where).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new OutputWriteError(this.where, error);
    });
    if (existing && !existing.isDirectory()) throw new LakeError(`${this.where} is not a folder`);
    if (!existing) {
      const first = await makeFolders(this.where, 0o755).catch((error: NodeJS.ErrnoException) => {
        // /proc and /sys exist but take no new folder, and say ENOENT: say what the folder is.
        const above = dirname(error.path ?? this.where);
        const kind = error.code === 'ENOENT' ? pseudoFileSystemOf(above) : undefined;
        throw new OutputWriteError(error.path ?? this.where, error, kind === undefined ? undefined : `${above} exists but cannot hold a folder: it is ${kind}, not a regular file system`);
      });
      // Each folder made, from the first up to the lake itself, is a new entry of the one above it.
      for (let made = this.where; first !== undefined && made !== dirname(made); made = dirname(made)) {
        this.#newEntries.add(dirname(made));
        if (made === first) break;
      }
    }
    // The folder named may be a link the user made (/data/lake -> /mnt/big/lake): what it names is vetted.
    this.#root = await realpath(this.where);
    const problem = folderProblem(this.#root, await lstat(this.#root));
    if (problem !== undefined) throw new LakeError(problem);
    await refuseLakesInside(this.where, this.#root);
    this.#vetted.add(this.#root);
    this.#released = false;
    await this.#lock();
    await this.#removeLeftovers();
  }

  /**
   * Set by a close() while the lake held no lock (a signal's clean-up while the run opens the lake, or
   * before it began to): the lake takes none afterwards, as an object store's does. A lock taken after
   * the clean-up was left behind when the process exited before its exit handler was in place, naming
   * the run, until the next run found its process gone. A lake closed after it was opened may be
   * opened again.
   */
  #closed = false;
  /** The lock while it is being taken: close() waits for it, so a lock taken meanwhile is removed too. */
  #locking: Promise<void> | undefined;

  async #lock(): Promise<void> {
    if (this.#closed) throw stoppedWhileLocking(this.where);
    this.#locking = this.#takeLock();
    try {
      await this.#locking;
    } finally {
      this.#locking = undefined;
    }
    // Closed meanwhile: close() waited for the lock and removed it.
    if (this.#closed) throw stoppedWhileLocking(this.where);
  }

  async #takeLock(): Promise<void> {
    const path = join(this.root, LOCK_FILE);
    const holder: LockHolder = { pid: process.pid, start: await processStart('self'), host: hostname(), since: new Date().toISOString() };
    const text = JSON.stringify(holder) + '\n';
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        const handle = await open(path, OPEN_NEW, 0o644);
        try {
          await handle.writeFile(text);
        } finally {
          await handle.close();
        }
        this.#lockText = text;
        process.once('exit', this.#releaseOnExit);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw isSystemError(error) ? new OutputWriteError(path, error) : error;
      }
      const found = (await readBounded(path, 4096))?.toString('utf8');
      if (found === undefined) continue;
      const other = lockHolder(found);
      if (other !== undefined && (await holdsLock(other))) {
        throw new OutputWriteError(this.where, undefined, `it is being synced by process ${other.pid} on ${other.host} since ${other.since}; wait for it to end, or remove ${path} if no sync is running there`);
      }
      await this.#takeOver(path, found);
    }
    throw new OutputWriteError(this.where, undefined, `its lock ${path} keeps changing; another sync is starting there`);
  }

  /** Moves a stale lock aside and deletes it, unless what was moved is not the stale one (then it is put back). */
  async #takeOver(path: string, stale: string): Promise<void> {
    const aside = temporaryName(path);
    try {
      await rename(path, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const moved = (await readBounded(aside, 4096))?.toString('utf8');
    if (moved !== stale) await link(aside, path).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
  }

  #releaseSync(): void {
    // On exit (a signal's process.exit): only a lock that is still ours is removed.
    if (this.#lockText === undefined) return;
    try {
      const path = join(this.root, LOCK_FILE);
      if (readFileSync(path, 'utf8') === this.#lockText) unlinkSync(path);
    } catch {
      // already gone
    }
    this.#lockText = undefined;
  }

  /**
   * Set by close(): a write handed over after it (a signal's clean-up while the run goes on for a
   * moment before its exit) is refused, so nothing lands once the lock is released, where another
   * sync may have taken the lake. open() clears it.
   */
  #released = false;

  #refuseOnceReleased(path: string): void {
    if (this.#released) throw writtenAfterRelease(join(this.where, path));
  }

  async close(): Promise<void> {
    if (this.#lockText === undefined) this.#closed = true;
    this.#released = true;
    // No write of ours goes on once the lock is released.
    await this.#pending.allSettled();
    await this.#locking?.catch(() => undefined);
    if (this.#lockText === undefined) return;
    process.off('exit', this.#releaseOnExit);
    const path = join(this.root, LOCK_FILE);
    const found = await readBounded(path, 4096).catch(() => undefined);
    if (found?.toString('utf8') === this.#lockText) await unlink(path).catch(() => undefined);
    this.#lockText = undefined;
  }

  /**
   * Our temporary files a killed run left: in the lake's own folders only, never through a link. All
   * of a level's folders are listed at once, each once: every listing is a round trip through the
   * thread pool before the run's first request, and a lake of two years has some 600 week folders.
   */
  async #removeLeftovers(): Promise<void> {
    const list = async (folder: string) => ({ folder, entries: await readdir(folder, { withFileTypes: true }).catch(() => []) });
    const [root, ...streams] = await Promise.all([this.root, ...STREAM_NAMES.map((name) => join(this.root, name)), ...STREAM_NAMES.map((name) => join(this.root, STORE_FOLDER, name))].map(list));
    const weekFolders = streams.flatMap(({ folder, entries }) => entries.filter((entry) => entry.isDirectory() && /^week=(\d{6}|0)$/.test(entry.name)).map((entry) => join(folder, entry.name)));
    const listed = [root!, ...streams, ...(await Promise.all(weekFolders.map(list)))];
    await Promise.all(listed.flatMap(({ folder, entries }) => entries
      .filter((entry) => entry.isFile() && TEMPORARY.test(entry.name))
      .map((entry) => unlink(join(folder, entry.name)).catch(() => undefined))));
  }

  /** Creates the folders of a path inside the lake one by one, each vetted: no link, ours alone. */
  async #folder(relative: string): Promise<string> {
    let path = this.root;
    for (const part of relative.split('/').filter((item) => item !== '' && item !== '.')) {
      path = join(path, part);
      if (this.#vetted.has(path)) continue;
      try {
        await mkdir(path, { mode: 0o755 });
        this.#newEntries.add(dirname(path));
        // Made just now by this run, in a folder vetted already: a real folder of ours that no one
        // else can write into (0755, and a umask only takes bits away), so nothing to look at: one
        // lstat fewer a partition's new folder, a round trip through the thread pool each.
        this.#vetted.add(path);
        continue;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new OutputWriteError(path, error);
      }
      const problem = folderProblem(path, await lstat(path));
      if (problem !== undefined) throw new LakeError(problem);
      this.#vetted.add(path);
    }
    return path;
  }

  async peekState(): Promise<string | undefined> {
    // A lake not made yet is refused as its run would be.
    await refuseInsideLakes(this.where);
    const existing = await stat(this.where).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw new OutputWriteError(this.where, error);
    });
    if (!existing) return undefined;
    if (!existing.isDirectory()) throw new LakeError(`${this.where} is not a folder`);
    this.#root = await realpath(this.where);
    const problem = folderProblem(this.#root, await lstat(this.#root));
    if (problem !== undefined) throw new LakeError(problem);
    await refuseLakesInside(this.where, this.#root);
    return this.readState();
  }

  async readState(): Promise<string | undefined> {
    return (await readBounded(join(this.root, STATE_FILE), MAX_STATE_BYTES))?.toString('utf8');
  }

  /**
   * Folders given an entry since the last state: a file renamed into them (a partition, a merge store),
   * or a folder made in them (a partition's `week=…`, the lake itself). A rename is durable once its
   * folder is fsynced, and a new folder once the one above it is: without a journal (ext4's, and
   * others'), a crash could lose a partition the state records. Nothing needs either before the next
   * state records it, so each folder is fsynced once before that state, not once a file: a 25-week
   * sync's 85 merge stores share one folder (docs/sync.md, "Durability").
   */
  readonly #newEntries = new Set<string>();

  async writeState(text: string): Promise<void> {
    this.#refuseOnceReleased(STATE_FILE);
    // Every file the state may record first: published and durable, or the state is not written.
    await this.settle();
    const changed = [...this.#newEntries];
    this.#newEntries.clear();
    await Promise.all(changed.map((folder) => syncFolder(folder)));
    // The state is the run's commit: its own folder is fsynced at once.
    await this.#publish(STATE_FILE, [Buffer.from(text)]);
    this.#newEntries.delete(this.root);
    await syncFolder(this.root);
  }

  /**
   * A file of ours beside `path`, under a temporary name: removed by dispose(), and, should the run be
   * killed first, by the next run's open() with the other temporary files. Never fsynced: a rerun
   * fetches its bytes again.
   */
  async scratch(path: string): Promise<Scratch> {
    const folder = await this.#folder(dirname(path));
    const file = temporaryName(join(folder, basename(path)));
    try {
      return new ScratchFile(file, openSync(file, OPEN_SCRATCH, 0o600));
    } catch (error) {
      throw isSystemError(error) ? new OutputWriteError(heldLinksNamed(folder), error) : error;
    }
  }

  async missing(paths: readonly string[]): Promise<Set<string>> {
    const absent = await Promise.all(paths.map((path) => stat(join(this.root, path)).then(() => false, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return true;
      throw new OutputWriteError(join(this.root, path), error);
    })));
    return new Set(paths.filter((_path, index) => absent[index]));
  }

  async read(path: string): Promise<Buffer | undefined> {
    await this.#pending.get(path);
    return readBounded(join(this.root, path), 1024 * 1024 * 1024);
  }

  /**
   * Files being made durable and published: each is fsynced, renamed over its name and its folder
   * fsynced in the background, many at once (one fsync after another was most of a sync's time: 53
   * partitions of 3 weeks, 5.5 s of wall for 0.95 s of CPU), and all of them are awaited before the
   * state is written, so the state never records a file that has not landed.
   */
  readonly #pending = new FilesOnTheirWay();

  landing(path: string): Promise<void> | undefined {
    return this.#pending.get(path);
  }

  settle(): Promise<void> {
    return this.#pending.settle();
  }

  /** Bytes handed to write() and not yet in their temporary files; at most MAX_BYTES_UNWRITTEN. */
  #unwritten = 0;
  readonly #waitingForRoom: Array<() => void> = [];

  async write(path: string, content: Produce | Chunks): Promise<void> {
    this.#refuseOnceReleased(path);
    const bytes = typeof content === 'function' ? [await produceBytes(content)] : content;
    const size = bytes.reduce((sum, chunk) => sum + chunk.length, 0);
    while (this.#unwritten > 0 && this.#unwritten + size > MAX_BYTES_UNWRITTEN) await new Promise<void>((resolve) => this.#waitingForRoom.push(resolve));
    this.#unwritten += size;
    let counted = true;
    const written = () => {
      if (!counted) return;
      counted = false;
      this.#unwritten -= size;
      for (const resolve of this.#waitingForRoom.splice(0)) resolve();
    };
    await this.#pending.get(path);
    const done = this.#publish(path, bytes, written);
    // A failure is reported by the next writeState (exit 6), which awaits every file before it.
    done.then(written, written);
    this.#pending.set(path, done);
  }

  /** `written` is told once the bytes are in the temporary file, and let go: their memory is free. */
  async #publish(path: string, bytes: Chunks, written: () => void = () => undefined): Promise<void> {
    const folder = await this.#folder(dirname(path));
    const target = join(folder, basename(path));
    const temporary = temporaryName(target);
    try {
      const handle = await open(temporary, OPEN_NEW, 0o644);
      try {
        await writeWhole(handle, bytes);
        bytes = [];
        written();
        await handle.sync();
      } finally {
        await handle.close();
      }
      // rename() replaces whatever is at the name, a planted link included, and never follows it.
      await rename(temporary, target);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw isSystemError(error) ? new OutputWriteError(target, error) : error;
    }
    // Made durable by the next writeState (the state's own folder by writeState itself).
    this.#newEntries.add(folder);
  }
}

/** Writes the pieces one after another from the file's start, however short a write comes back. */
async function writeWhole(handle: FileHandle, chunks: Chunks): Promise<void> {
  if (chunks.length <= 1) return handle.writeFile(chunks[0] ?? Buffer.alloc(0));
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const written = (await handle.writev(chunks as Buffer[], 0)).bytesWritten;
  if (written === total) return;
  // A short write leaves the rest to write from where it stopped (writev at a position moves no offset).
  const rest = Buffer.concat(chunks).subarray(written);
  for (let at = 0; at < rest.length; at += (await handle.write(rest, at, rest.length - at, written + at)).bytesWritten);
}

/** Makes a rename durable; not every platform can open a folder, so best effort. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is fsynced; only the folder entry's durability is lost.
  }
}

function lockHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isSafeInteger(value.pid) || value.pid <= 0 || typeof value.host !== 'string') return undefined;
    return { pid: value.pid, start: typeof value.start === 'string' ? value.start : undefined, host: value.host, since: String(value.since) };
  } catch {
    return undefined;
  }
}

