/**
 * bin/newsstats.cjs itself: the `--version` it answers before loading anything, and its way back to
 * main() when that write fails.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run/exit-codes.js';
import { VERSION } from '../../src/shared/version.js';
import { BIN, REPO, tempDir } from './harness.js';

const run = (script: string) => spawnSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8', env: { ...process.env, BIN, NODE: process.execPath } });

describe('bin/newsstats.cjs --version', () => {
  it('prints the version and nothing else, for --version and -V', () => {
    for (const flag of ['--version', '-V']) {
      const result = run(`"$NODE" "$BIN" ${flag}`);
      expect(result).toMatchObject({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('reports a stdout that cannot be written in one line, with the output-failure exit code', () => {
    const result = run('"$NODE" "$BIN" --version >/dev/full');
    expect(result.status).toBe(EXIT.outputFailed);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: cannot write to stdout: .*ENOSPC/)]);
  });

  it('ends quietly on a closed pipe', () => {
    // The reader closes its end at once; Node takes far longer to start, so the write meets a closed pipe.
    const result = run('"$NODE" "$BIN" --version | { exec 0<&-; }');
    expect(result).toMatchObject({ status: 0, stderr: '' });
  });
});

/**
 * #31 item 8: `git pull && npm install` rebuilds dist/ in place; a run in those seconds finds it
 * incomplete and says so in one line, exit 1, never a stack trace. A copy of the package whose dist/
 * lacks the entry, or holds it cut off mid-write, or lacks a chunk the entry loads later.
 */
describe('a cache or config folder under /proc (a folder that takes no new one)', () => {
  // Node's recursive mkdir spun the main thread there for ever, before any signal listener could run:
  // every run hung at full CPU, and SIGTERM did not end it.
  it.runIf(existsSync('/proc/self'))('runs as without a cache, and says the config folder cannot be made, both at once', () => {
    const env = { PATH: process.env.PATH ?? '', HOME: tempDir(), XDG_CACHE_HOME: '/proc/newsstats-cache', XDG_CONFIG_HOME: '/proc/newsstats-config' };
    const version = spawnSync(process.execPath, [join(REPO, 'bin', 'newsstats.cjs'), '--version'], { encoding: 'utf8', env, timeout: 20_000, killSignal: 'SIGKILL' });
    expect([version.status, version.signal, version.stderr]).toEqual([0, null, '']);
    const config = spawnSync(process.execPath, [join(REPO, 'bin', 'newsstats.cjs'), 'config', 'set', 'base-url', 'https://stats.example.com'], { encoding: 'utf8', env, timeout: 20_000, killSignal: 'SIGKILL' });
    expect(config.signal).toBeNull();
    expect(config.stderr).toMatch(/^error: cannot create the config folder \/proc\/newsstats-config\/newsstats: .*\(ENOENT\)\n$/);
  });
});

describe('a run while dist/ is being rebuilt', () => {
  const REBUILDING = 'error: newsstats is being rebuilt (its dist/ folder is incomplete, as during npm install or npm run build); run it again in a moment\n';
  const copy = (dist: 'none' | 'cut' | 'no-chunks' | 'cut-chunks') => {
    const root = tempDir('newsstats-rebuild-');
    cpSync(join(REPO, 'bin'), join(root, 'bin'), { recursive: true });
    cpSync(join(REPO, 'package.json'), join(root, 'package.json'));
    if (dist === 'none') mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    else cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true });
    if (dist === 'cut') writeFileSync(join(root, 'dist', 'cli', 'main.js'), readFileSync(join(REPO, 'dist', 'cli', 'main.js'), 'utf8').slice(0, 4000));
    if (dist === 'no-chunks') rmSync(join(root, 'dist', 'chunks'), { recursive: true });
    // Every chunk cut off mid-write: the first the entry loads fails to compile, after main() began.
    if (dist === 'cut-chunks') {
      for (const name of readdirSync(join(root, 'dist', 'chunks')).filter((file) => file.endsWith('.js'))) {
        const path = join(root, 'dist', 'chunks', name);
        const text = readFileSync(path, 'utf8');
        writeFileSync(path, text.slice(0, Math.floor(text.length / 2)));
      }
    }
    return join(root, 'bin', 'newsstats.cjs');
  };

  it.each(['none', 'cut', 'no-chunks', 'cut-chunks'] as const)('dist/ %s: one line, exit 1', (dist) => {
    const bin = copy(dist);
    for (const home of [tempDir(), undefined]) {
      // With and without a code-cache folder: both ways of loading dist/.
      const env = { PATH: process.env.PATH ?? '', HOME: home ?? '/nonexistent', XDG_CACHE_HOME: home === undefined ? '' : join(home, 'cache'), NEWSSTATS_BASE_URL: 'http://127.0.0.1:9', NEWSSTATS_API_KEY: 'k' };
      const result = spawnSync(process.execPath, [bin, '-q', 'people', 'search', 'okafor'], { encoding: 'utf8', env });
      expect(result.stderr).toBe(REBUILDING);
      expect(result.status).toBe(1);
    }
  });
});
