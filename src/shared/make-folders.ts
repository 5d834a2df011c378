/**
 * `mkdir -p`, a folder at a time from the first missing one down. Node's own recursive mkdir (sync and
 * async alike, Node 20 to 26) loops for ever where a folder exists but takes no new one and says
 * ENOENT, as /proc and /sys do: `sync /proc/lake` hung with four pool threads calling mkdir, and a
 * config or cache folder under /proc spun the main thread, deaf to SIGTERM. Here that is the mkdir's
 * own error, thrown once. bin/code-cache.cjs, which runs before dist/ is loaded, has its twin.
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

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
    const found = await stat(at).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    });
    if (found) break;
    missing.unshift(at);
  }
  for (const folder of missing) {
    await mkdir(folder, { mode }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
  return missing[0];
}
