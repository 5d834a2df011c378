/**
 * The operating system's file system as every layer that touches files meets it (the output, the
 * config store, the cache, a sync's lake), so it sits below them all: its failures in words, what a
 * folder that takes no new entry is, and a `mkdir -p` that ends. One module, loaded at start-up
 * already: each of these as a module of its own was a chunk more for every command to load
 * (test/build/startup-modules.test.ts), and the promise file system is reached only when called.
 */
import { mkdirSync, promises as fileSystem, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';


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

/**
 * Kernel file systems that exist as folders but take no new file or folder (statfs f_type magic
 * numbers): root may write anywhere, yet a file or folder made in /proc or /sys fails with ENOENT,
 * which reads as a missing folder.
 */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'the kernel\'s process file system (proc)'],
  [0x62656572, 'the kernel\'s sysfs'],
  [0x27e0eb, 'a cgroup file system'],
  [0x63677270, 'a cgroup2 file system'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0xcafe4a11, 'bpffs'],
]);

/** What kernel file system holds `folder`, when it is one that takes no new entry; else undefined. */
export function pseudoFileSystemOf(folder: string): string | undefined {
  try {
    return PSEUDO_FILE_SYSTEMS.get(statfsSync(folder).type);
  } catch {
    return undefined;
  }
}

/*
 * `mkdir -p`, a folder at a time from the first missing one down. Node's own recursive mkdir (sync and
 * async alike, Node 20 to 26) loops for ever where a folder exists but takes no new one and says
 * ENOENT, as /proc and /sys do: `sync /proc/lake` hung with four pool threads calling mkdir, and a
 * config or cache folder under /proc spun the main thread, deaf to SIGTERM. Here that is the mkdir's
 * own error, thrown once. bin/code-cache.cjs, which runs before dist/ is loaded, has its twin.
 */

/** The folders of `path` that do not exist yet, the outermost first. */
function missingFromSync(path: string): string[] {
  const missing: string[] = [];
  for (let at = path; !statSync(at, { throwIfNoEntry: false }) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  return missing;
}

/** Makes `path` and the folders above it that are missing; the first folder made, or undefined when none was. */
export function makeFoldersSync(path: string, mode: number): string | undefined {
  const missing = missingFromSync(path);
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return missing[0];
}

/** makeFoldersSync through the thread pool. */
export async function makeFolders(path: string, mode: number): Promise<string | undefined> {
  const missing: string[] = [];
  for (let at = path; dirname(at) !== at; at = dirname(at)) {
    const found = await fileSystem.stat(at).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    });
    if (found) break;
    missing.unshift(at);
  }
  for (const folder of missing) {
    await fileSystem.mkdir(folder, { mode }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  return missing[0];
}
