/**
 * Runs once before any test file:
 * - builds dist/ from src/ when src/ changed since the last build, so the spawned tests
 *   (bin/newsstats.cjs loads dist/) never run stale code, even under a plain `npx vitest`. The
 *   in-process tests import src/ directly.
 * - gives the run a temporary folder of its own (TMPDIR, so `os.tmpdir()` in every test file) and
 *   removes it afterwards: the suite makes about 1,700 temporary folders a run, and left in /tmp they
 *   piled up to 200,000 entries, where each new one took longer to make.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
  const runFolder = mkdtempSync(join(tmpdir(), 'newsstats-test-'));
  // Set before the worker threads start, which copy this environment.
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

function build(): void {
  const built = statSync(join(ROOT, 'dist'), { throwIfNoEntry: false }) ? newest(join(ROOT, 'dist')) : 0;
  const buildScript = join(ROOT, 'scripts', 'build.mjs');
  const inputs = Math.max(newest(join(ROOT, 'src')), newest(join(ROOT, 'scripts')), statSync(join(ROOT, 'package-lock.json')).mtimeMs);
  if (built > inputs) return;
  // The bundle is what bin/newsstats.cjs loads; the tests need no declarations (npm run build adds them).
  execFileSync(process.execPath, [buildScript], { cwd: ROOT, stdio: 'inherit' });
}
