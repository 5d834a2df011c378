/** bin/code-cache.cjs: the folder its caches live in (the user's own, 0700, no links), and the ways to turn it off. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface CodeCache {
  codeCacheDirectory: (env: NodeJS.ProcessEnv, uid: number) => string | undefined;
  cacheDirectory: (env: NodeJS.ProcessEnv, uid: number | undefined) => string | undefined;
}

const ROOT = resolve(import.meta.dirname, '../..');
const { cacheDirectory, codeCacheDirectory: compileCacheDirectory } = createRequire(import.meta.url)(join(ROOT, 'bin', 'code-cache.cjs')) as CodeCache;
const uid = process.getuid!();

let base: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'newsstats-code-cache-folder-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('the code cache folder', () => {
  it('is $XDG_CACHE_HOME/newsstats/compile-cache, created 0700 from newsstats/ down', () => {
    const directory = compileCacheDirectory({ XDG_CACHE_HOME: base }, uid);
    expect(directory).toBe(join(base, 'newsstats', 'compile-cache'));
    expect(statSync(join(base, 'newsstats')).mode & 0o777).toBe(0o700);
    expect(statSync(directory!).mode & 0o777).toBe(0o700);
  });

  it('is refused when another user could write into newsstats/ or replace it', () => {
    mkdirSync(join(base, 'newsstats'));
    chmodSync(join(base, 'newsstats'), 0o777);
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBeUndefined();
  });

  it('is refused when it is a symbolic link, even to a folder of ours', () => {
    mkdirSync(join(base, 'newsstats'), { mode: 0o700 });
    mkdirSync(join(base, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(base, 'elsewhere'), join(base, 'newsstats', 'compile-cache'));
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBeUndefined();
  });

  it('creates nothing inside a newsstats/ that is a symbolic link', () => {
    mkdirSync(join(base, 'elsewhere'), { mode: 0o700 });
    symlinkSync(join(base, 'elsewhere'), join(base, 'newsstats'));
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBeUndefined();
    expect(readdirSync(join(base, 'elsewhere'))).toEqual([]);
  });

  it('is refused when its folders belong to another user', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid + 4242)).toBeUndefined();
  });

  it('is refused under a base anyone may write to, unless the base is sticky as /tmp is', () => {
    chmodSync(base, 0o777);
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBeUndefined();
    chmodSync(base, 0o1777);
    expect(compileCacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBe(join(base, 'newsstats', 'compile-cache'));
  });

  it('is not there when the base is a file (the run goes on without it)', () => {
    const file = join(base, 'file');
    writeFileSync(file, '');
    expect(compileCacheDirectory({ XDG_CACHE_HOME: file }, uid)).toBeUndefined();
  });
});

describe('turning the code cache off', () => {
  it('has no folder when the user turned caching off or chose a folder for Node\'s own, or without a uid to check', () => {
    for (const [env, id] of [
      [{ XDG_CACHE_HOME: base, NODE_DISABLE_COMPILE_CACHE: '1' }, uid],
      [{ XDG_CACHE_HOME: base, NEWSSTATS_NO_STARTUP_MACHINERY: '1' }, uid],
      [{ XDG_CACHE_HOME: base, NODE_COMPILE_CACHE: join(base, 'mine') }, uid],
      [{ XDG_CACHE_HOME: base }, undefined],
    ] as const) {
      expect(cacheDirectory(env, id)).toBeUndefined();
    }
    expect(existsSync(join(base, 'newsstats'))).toBe(false);
    expect(cacheDirectory({ XDG_CACHE_HOME: base }, uid)).toBe(join(base, 'newsstats', 'compile-cache'));
  });

  it('is where bin/newsstats.cjs keeps a code cache of each file of dist/ it ran, from the second run on', () => {
    const { NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _off, NEWSSTATS_NO_STARTUP_MACHINERY: _plain, ...env } = process.env;
    // Not --version, nor a piped --help: the bin answers those before loading anything (dist/help/).
    for (const _run of [1, 2]) execFileSync(process.execPath, [join(ROOT, 'bin', 'newsstats.cjs'), 'config', 'path'], { env: { ...env, XDG_CACHE_HOME: base } });
    const folder = join(base, 'newsstats', 'compile-cache');
    const [codeFolder] = readdirSync(folder).filter((name) => name.startsWith('code-'));
    expect(statSync(join(folder, codeFolder!)).mode & 0o777).toBe(0o700);
    const caches = readdirSync(join(folder, codeFolder!));
    expect(caches).toContain('cli+main.js');
    expect(caches.length).toBeGreaterThan(5);
    expect(statSync(join(folder, codeFolder!, 'cli+main.js')).mode & 0o777).toBe(0o600);
  });
});
