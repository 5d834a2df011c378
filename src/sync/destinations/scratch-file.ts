/**
 * The links a sync holds until it merges them, in a file of ours rather than the process's memory
 * (12.7 MB of lines at a two-year lake's first sync). A local lake keeps it beside the merge store
 * under a temporary name (local.ts); a lake in an object store, which has no append and whose objects
 * are no place for scratch bytes, in a private folder of its own under the system's temporary folder.
 */
import { closeSync, constants, openSync, readSync, rmdirSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { OutputWriteError } from '../../output/write-error.js';
import { isSystemError } from '../../shared/system-error.js';
import type { Scratch } from './destination.js';

/**
 * What an error about the held links names: their folder and what the file is for. The file's own
 * name is a temporary one of ours (`.held.ndjson.newsstats-sync-…tmp`), which told a user with a full
 * disk nothing.
 */
export function heldLinksNamed(folder: string): string {
  return `${folder} (the links held until the merge)`;
}

/** Made new, never through a link, read and written back by position. */
export const OPEN_SCRATCH = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** The prefix of a private temporary folder of a sync's (`newsstats-sync-XXXXXX` under TMPDIR). */
export const PRIVATE_SCRATCH_PREFIX = 'newsstats-sync-';

/**
 * A file of ours, appended and read back by position, never fsynced (a rerun fetches its bytes
 * again): removed at dispose(), and at exit should the run end first, with the folder made for it.
 * Read and written with synchronous calls: its bytes are the page cache's, and a merge reads a
 * 25-week sync's links back in about 800 pieces, each of which, through the thread pool, cost the
 * main thread more than the read (14,000 futex calls against 8,000).
 */
export class ScratchFile implements Scratch {
  #size = 0;
  #fd: number | undefined;
  /** A run ended by a signal exits without reaching dispose(): removed then too, as the lock is. */
  readonly #disposeOnExit = () => this.dispose();

  /** `folder`: made for this file alone (privateScratch), removed with it. */
  constructor(
    readonly path: string,
    fd: number,
    readonly folder?: string,
  ) {
    this.#fd = fd;
    process.once('exit', this.#disposeOnExit);
  }

  get #named(): string {
    return heldLinksNamed(dirname(this.path));
  }

  get #open(): number {
    if (this.#fd === undefined) throw new Error(`${this.path} is disposed of`);
    return this.#fd;
  }

  append(chunks: readonly Buffer[]): number {
    const start = this.#size;
    try {
      const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      const written = writevSync(this.#open, chunks, start);
      // A short write leaves the rest to write from where it stopped.
      const rest = written === total ? undefined : Buffer.concat(chunks).subarray(written);
      for (let at = 0; rest !== undefined && at < rest.length; ) at += writeSync(this.#open, rest, at, rest.length - at, start + written + at);
      this.#size += total;
    } catch (error) {
      throw isSystemError(error) ? new OutputWriteError(this.#named, error) : error;
    }
    return start;
  }

  read(position: number, length: number): Buffer {
    const bytes = Buffer.allocUnsafe(length);
    for (let at = 0; at < length; ) {
      const read = readSync(this.#open, bytes, at, length - at, position + at);
      if (read === 0) throw new OutputWriteError(this.#named, undefined, `it ended at ${position + at} bytes, short of what was written to it`);
      at += read;
    }
    return bytes;
  }

  dispose(): void {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd === undefined) return;
    process.off('exit', this.#disposeOnExit);
    try {
      closeSync(fd);
      unlinkSync(this.path);
      if (this.folder !== undefined) rmdirSync(this.folder);
    } catch {
      // Gone already; a local lake's next open() removes what is left.
    }
  }
}

/**
 * A scratch file named `name` in a folder made for it alone under the system's temporary folder
 * (TMPDIR, else /tmp): mkdtemp makes the folder 0700 under a name no one else has, so nothing in it
 * was put there by another, and the file is made 0600 with O_EXCL and O_NOFOLLOW all the same.
 * Throws the system's error when either can't be made (a read-only container): the caller decides.
 */
export async function privateScratch(name: string): Promise<ScratchFile> {
  const folder = await mkdtemp(join(tmpdir(), PRIVATE_SCRATCH_PREFIX));
  const file = join(folder, name);
  try {
    return new ScratchFile(file, openSync(file, OPEN_SCRATCH, 0o600), folder);
  } catch (error) {
    await rmdir(folder).catch(() => undefined);
    throw error;
  }
}
