/**
 * Where a lake lives: a local folder (local.ts) or an object store (s3.ts). The engine (sync.ts) only
 * ever names files relative to the lake's root (`rankings/week=202647/part-0.parquet`) and asks for
 * them whole: a destination publishes each file whole or not at all, and keeps one writer per lake.
 */
// Static (only sync loads this module): the bundle turned a dynamic import of a built-in into a copy
// of all its exports, made again for every file of a sync.
import { Writable } from 'node:stream';
import { OutputWriteError } from '../../output/write-error.js';
import { STATE_FILE } from '../state.js';

/** Where the engine keeps the links rows by partition, to merge new ones by key: a `_` hides it from readers. */
export const STORE_FOLDER = '_newsstats';

/** The one-writer lock beside the state: a leading `_`, so readers' globs pass it over. */
export const LOCK_FILE = '_newsstats_sync.lock';

/** Produces a file's bytes into a stream; the destination publishes them only once this resolves. */
export type Produce = (out: NodeJS.WritableStream) => Promise<void>;

/**
 * A file's bytes as pieces the caller already holds and leaves unchanged until the file has landed:
 * a local lake writes them as they are, where a Produce's are first copied into one buffer (the links
 * store's lines: 4.4 MB of copies held at once at a 25-week sync's merge).
 */
export type Chunks = readonly Buffer[];

export interface Destination {
  /** As the user named it, for messages: a folder's path or `s3://bucket/prefix`. */
  readonly where: string;
  /**
   * How many of the files a run reads one after another (a links merge's stores) are worth asking for
   * ahead of their turn: 0 where a read costs no round trip (a folder), more where each is one (an
   * object store). The engine reads that far ahead.
   */
  readonly readsAhead: number;
  /**
   * Checks that the lake is ours alone, takes the one-writer lock and removes what a killed run of
   * ours left behind. A lake that is not ours, or busy, is refused here, before any request.
   */
  open(): Promise<void>;
  /** Releases the lock; safe to call twice, and on a destination never opened. */
  close(): Promise<void>;
  /** The state's text, or undefined when the lake has none yet. */
  readState(): Promise<string | undefined>;
  /**
   * The state's text without opening the lake (`--plan`): nothing created, locked or written; a lake
   * that is not ours alone is still refused. close() after it.
   */
  peekState(): Promise<string | undefined>;
  /** Replaces the state, after every file it records has landed. */
  writeState(text: string): Promise<void>;
  /**
   * Waits for every file handed to write() to land (or fail), and throws the first failure, as
   * writeState does first: a run's last writes (a finished merge's emptied journal) are followed by no
   * state, and a failure of theirs was never reported (exit 0).
   */
  settle(): Promise<void>;
  /**
   * The write of `path` still on its way, if any: it settles once the file has landed, and rejects
   * with the failure (reported by the next writeState or settle() as well).
   */
  landing(path: string): Promise<void> | undefined;
  /** A file's bytes, or undefined when it is absent. */
  read(path: string): Promise<Buffer | undefined>;
  /** Which of these files the lake lacks (after open(), or peekState()). */
  missing(paths: readonly string[]): Promise<Set<string>>;
  /** Writes a file whole: readers see the old one or the new one, never a part. */
  write(path: string, content: Produce | Chunks): Promise<void>;
  /** A scratch area beside `path` for bytes the run holds until it merges them (Scratch). */
  scratch(path: string): Promise<Scratch>;
}

/**
 * Bytes a run holds until it merges them and a rerun fetches again (the links not yet merged): appended,
 * read back by position, gone at dispose(). Never published, never made durable. Held in the
 * process, the links of a 25-week sync were 4.4 MB of its peak and grew with the run.
 */
export interface Scratch {
  /** Appends the pieces, in order; returns the position of the first byte. */
  append(chunks: readonly Buffer[]): number;
  /** `length` bytes from `position`. */
  read(position: number, length: number): Buffer;
  /** Removes it; safe to call twice. */
  dispose(): void;
}

/** A scratch area in the process's memory, where a lake has no local folder (an object store). */
export class MemoryScratch implements Scratch {
  #pieces: Buffer[] = [];
  #starts: number[] = [];
  #size = 0;

  append(chunks: readonly Buffer[]): number {
    const start = this.#size;
    const piece = Buffer.concat(chunks);
    this.#pieces.push(piece);
    this.#starts.push(start);
    this.#size += piece.length;
    return start;
  }

  read(position: number, length: number): Buffer {
    const parts: Buffer[] = [];
    for (let index = 0; index < this.#pieces.length && length > 0; index++) {
      const piece = this.#pieces[index]!;
      const start = this.#starts[index]!;
      if (position >= start + piece.length) continue;
      const part = piece.subarray(position - start, Math.min(piece.length, position - start + length));
      parts.push(part);
      position += part.length;
      length -= part.length;
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  dispose(): void {
    this.#pieces = [];
    this.#starts = [];
  }
}

/**
 * Files handed to a lake's write() and still on their way, by path: a lake publishes them in the
 * background, and awaits them all before its state (settle), so the state never records a file that
 * has not landed. One of a folder's, one of an object store's.
 */
export class FilesOnTheirWay {
  readonly #landing = new Map<string, Promise<void>>();

  /** The write of `path` on its way, if any (Destination.landing). */
  get(path: string): Promise<void> | undefined {
    return this.#landing.get(path);
  }

  set(path: string, landing: Promise<void>): void {
    this.#landing.set(path, landing);
  }

  /** Settles once every write on its way has, failed or not (close() waits so before the lock goes). */
  async allSettled(): Promise<void> {
    await Promise.allSettled([...this.#landing.values()]);
  }

  /**
   * Waits for every write on its way, then throws the first failure (Destination.settle). Promise.all
   * gave up at the first, and the run closed its lake and released the lock while the others were
   * still landing.
   */
  async settle(): Promise<void> {
    const landing = [...this.#landing.values()];
    this.#landing.clear();
    const failure = (await Promise.allSettled(landing)).find((result) => result.status === 'rejected');
    if (failure !== undefined) throw failure.reason;
  }
}

/** A lake the user must fix before it is synced (exit 2): not a folder, not theirs alone, a link in it. */
export class LakeError extends Error {
  override name = 'LakeError';
}

/** Collects what a producer writes: partitions are small (compressed Parquet), and written in one go. */
export async function produceBytes(content: Produce | Chunks): Promise<Buffer> {
  if (typeof content !== 'function') return Buffer.concat(content);
  const produce = content;
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      callback();
    },
  });
  await produce(out);
  return Buffer.concat(chunks);
}

/** A lake closed (a signal's clean-up) before it held its lock: it takes none afterwards. */
export function stoppedWhileLocking(where: string): OutputWriteError {
  return new OutputWriteError(where, undefined, 'the run was stopped while it took the lake\'s lock');
}

/** A write handed over once the lake was closed: refused, as another sync may hold the lake by then. */
export function writtenAfterRelease(target: string): OutputWriteError {
  return new OutputWriteError(target, undefined, 'the run was stopped and the lake\'s lock released: nothing more is written');
}

/**
 * One lake to a folder or prefix, none inside another: a reader's glob over `outer/**` reads whatever
 * lies under it, so the inner lake's rows would be read with the outer's, twice where they overlap.
 * Each run looks above its lake, all the way up, and one level into its folders: whichever of the two
 * runs next after the second lake is made is refused (docs/sync.md, "Reading the lake").
 */
export function insideLake(where: string, outer: string): LakeError {
  return new LakeError(`${where} is inside the lake ${outer} (it holds ${STATE_FILE}): a read of ${outer} would read both lakes' rows; sync to a folder or prefix beside it`);
}

export function holdsLake(where: string, inner: string): LakeError {
  return new LakeError(`${where} holds another lake, ${inner} (it has a ${STATE_FILE} of its own): a read of ${where} would read both lakes' rows; move that lake beside this one`);
}
