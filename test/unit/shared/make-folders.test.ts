/**
 * mkdir -p that ends (src/shared/system-error.ts). Node's recursive mkdir spins for ever on a folder
 * that exists but takes no new one and says ENOENT (/proc): a sync into /proc/lake hung, and a config
 * or cache folder there spun the main thread, deaf to SIGTERM. The /proc test hangs with Node's
 * recursive mkdir (mkdir(path, { recursive: true })), and so fails at its timeout.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolders, makeFoldersSync } from '../../../src/shared/system-error.js';
import { tempDir } from '../../e2e/harness.js';

// procfs: it exists, and mkdir in it says ENOENT, whoever asks.
const procfs = existsSync('/proc/self') ? it : it.skip;

describe('makeFolders', () => {
  it('makes every missing folder, outermost first, and returns the first it made; none made, undefined', async () => {
    const root = tempDir();
    expect(makeFoldersSync(join(root, 'a', 'b'), 0o700)).toBe(join(root, 'a'));
    expect(statSync(join(root, 'a', 'b')).isDirectory()).toBe(true);
    expect(statSync(join(root, 'a')).mode & 0o777).toBe(0o700);
    expect(await makeFolders(join(root, 'c', 'd', 'e'), 0o755)).toBe(join(root, 'c'));
    expect(statSync(join(root, 'c', 'd', 'e')).isDirectory()).toBe(true);
    expect(makeFoldersSync(join(root, 'a', 'b'), 0o700)).toBeUndefined();
    expect(await makeFolders(root, 0o755)).toBeUndefined();
  });

  procfs('a folder that takes no new one (/proc): the mkdir\'s ENOENT, once, sync and async', async () => {
    expect(() => makeFoldersSync('/proc/newsstats-test/x', 0o700)).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/newsstats-test' }));
    await expect(makeFolders('/proc/newsstats-test/x', 0o755)).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/newsstats-test' });
  }, 10_000);
});
