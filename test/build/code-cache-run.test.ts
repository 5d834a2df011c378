/**
 * The built CLI's code caches (bin/code-cache.cjs) over real runs of a query: the first run of an
 * install writes none (a run in a fresh container pays nothing for caches), after the second every
 * file of dist/ the query loads has a cache, and a third run writes none (V8 accepted every one).
 * A V8 flag the CLI changes at run time and leaves changed (src/cli/run/lifecycle.ts) would fail this:
 * the files loaded before it would never get a cache, or get one rejected on each run. A sync sets
 * flags for the whole run: the same over syncs.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, REPO, sandbox, spawnAndCollect, tempDir } from '../e2e/harness.js';

const PRELOAD = join(REPO, 'test', 'build', 'record-modules.cjs');

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox();
});
afterAll(() => server.close());

describe('code caches over runs of the built CLI', () => {
  it('writes no cache on the first run, caches each file a query loads on the second, and writes none on the third', async () => {
    const home = tempDir('newsstats-code-cache-run-');
    const record = join(home, 'loaded.json');
    const env = isolatedEnv(home, { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key, NEWSSTATS_RECORD_MODULES: record });
    const query = ['-r', PRELOAD, BIN, 'people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'json'];
    const written = () => {
      const root = join(home, 'cache', 'newsstats', 'compile-cache');
      const folders = readdirSync(root).filter((name) => name.startsWith('code-'));
      return Object.fromEntries(folders.flatMap((folder) => readdirSync(join(root, folder)).map((name) => [name, statSync(join(root, folder, name)).mtimeMs])));
    };

    const first = await spawnAndCollect(process.execPath, query, env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(written()).toEqual({});
    await spawnAndCollect(process.execPath, query, env);
    const { files } = JSON.parse(readFileSync(record, 'utf8')) as { files: string[] };
    const dist = join(REPO, 'dist');
    const loaded = files.filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length + 1).replaceAll('/', '+'));
    expect(loaded.length).toBeGreaterThan(20);
    const caches = written();
    expect(Object.keys(caches).sort()).toEqual([...loaded].sort());

    const third = await spawnAndCollect(process.execPath, query, env);
    expect(third.code).toBe(0);
    expect(third.stdout).toBe(first.stdout);
    expect(written()).toEqual(caches);
  });

  it('caches each file a sync loads, its start and undici too: the flags of a bulk run are set once they are loaded and set back as it ends', async () => {
    const home = tempDir('newsstats-code-cache-sync-');
    const record = join(home, 'loaded.json');
    const env = isolatedEnv(home, { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key, NEWSSTATS_RECORD_MODULES: record });
    // No links: their week's lines are made by the JSON renderer's chunk, loaded under the bulk flags.
    const sync = (run: number) => spawnAndCollect(process.execPath, ['-r', PRELOAD, BIN, 'sync', join(home, `lake-${run}`), '--streams', 'rankings,country_stats', '--top', '3', '-q'], env);
    const written = () => {
      const root = join(home, 'cache', 'newsstats', 'compile-cache');
      return Object.fromEntries(readdirSync(root).filter((name) => name.startsWith('code-')).flatMap((folder) => readdirSync(join(root, folder)).map((name) => [name, statSync(join(root, folder, name)).mtimeMs])));
    };

    const first = await sync(1);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    await sync(2);
    const { files } = JSON.parse(readFileSync(record, 'utf8')) as { files: string[] };
    const dist = join(REPO, 'dist');
    const loaded = files.filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length + 1).replaceAll('/', '+'));
    expect(loaded).toContain('cli+main.js');
    expect(loaded.some((file) => file.startsWith('chunks+client-'))).toBe(true);
    const caches = written();
    expect(Object.keys(caches).sort()).toEqual([...loaded].sort());

    expect((await sync(3)).code).toBe(0);
    expect(written()).toEqual(caches);
  });

  it('keeps compiled code only: the API key of the run is in no cache, in either of the encodings V8 keeps strings in', async () => {
    const home = tempDir('newsstats-code-cache-key-');
    const key = 'cache-probe-Zq7xW4vB9kLm2';
    const keyed = await sandbox({ key });
    try {
      const env = isolatedEnv(home, { NEWSSTATS_BASE_URL: keyed.url, NEWSSTATS_API_KEY: key });
      for (const _run of [1, 2]) {
        const result = await spawnAndCollect(process.execPath, [BIN, 'people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'json'], env);
        expect(result.code).toBe(0);
      }
      const root = join(home, 'cache', 'newsstats', 'compile-cache');
      const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
      expect(files.length).toBeGreaterThan(20);
      for (const file of files) {
        const bytes = readFileSync(file);
        expect(bytes.includes(Buffer.from(key, 'latin1'))).toBe(false);
        expect(bytes.includes(Buffer.from(key, 'utf16le'))).toBe(false);
      }
    } finally {
      await keyed.close();
    }
  });
});
