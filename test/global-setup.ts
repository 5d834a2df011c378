/**
 * Runs once before any test file:
 * - builds dist/ from src/ when src/ changed since the last build, so the spawned tests
 *   (bin/newsstats.cjs loads dist/) never run stale code, even under a plain `npx vitest`. The
 *   in-process tests import src/ directly.
 * - gives the run a temporary folder of its own (TMPDIR, so `os.tmpdir()` in every test file) and
 *   removes it afterwards: the suite makes about 1,700 temporary folders a run, and left in /tmp they
 *   piled up to 200,000 entries, where each new one took longer to make. The folder is in memory
 *   (/dev/shm) when the machine has one with room: the suite makes about 7,000 files and folders and
 *   syncs every file it writes atomically, which on this machine's disk cost a seventh of the suite's
 *   CPU (Node 24: 35.0 s and 32.5 s against 41.0 s and 37.1 s, alternating, quiet; README, Development).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** The newest modification time of any file under `directory`, or 0 when it does not exist. */
function newest(directory: string): number {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

export default function setup(): () => void {
  build();
  const runFolder = mkdtempSync(join(runFolderBase(), 'newsstats-test-'));
  // Set before the worker processes start, which inherit this environment.
  process.env.TMPDIR = runFolder;
  return () => {
    try {
      // Retried: a process a test started may still be writing into it as it exits.
      rmSync(runFolder, { recursive: true, force: true, maxRetries: 5 });
    } catch (error) {
      // A folder left behind is not a failed run: say where it is, and go on.
      console.warn(`the run's temporary folder ${runFolder} was not removed: ${(error as Error).message}`);
    }
  };
}

/** A run leaves about 30 MiB; a container's /dev/shm may hold only 64 MiB, so ask for far more. */
const MEMORY_FOLDER_ROOM = 1024 * 1024 * 1024;

/** /dev/shm when it is a folder this user can write with room to spare, else the usual temporary folder. */
function runFolderBase(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    if (statSync('/dev/shm').isDirectory() && bavail * bsize >= MEMORY_FOLDER_ROOM) return '/dev/shm';
  } catch {
    // No such folder (macOS, Windows) or not ours to write: the disk it is.
  }
  return tmpdir();
}

function build(): void {
  const built = statSync(join(ROOT, 'dist'), { throwIfNoEntry: false }) ? newest(join(ROOT, 'dist')) : 0;
  const buildScript = join(ROOT, 'scripts', 'build.mjs');
  const inputs = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'scripts')), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  if (built > inputs) return;
  // The bundle is what bin/newsstats.cjs loads; the tests need no declarations (npm run build adds them).
  execFileSync(process.execPath, [buildScript], { cwd: ROOT, stdio: 'inherit' });
}
