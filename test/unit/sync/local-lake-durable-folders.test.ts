/**
 * The state records only what a crash cannot lose: a partition in a folder the run made (`week=…`, the
 * lake itself) is reachable only once that folder's entry in the one above it is durable, so each
 * folder that got such an entry is fsynced before the state is written, once, not once a file. So is
 * each folder a file was renamed into: the rename is durable only then. Watched through the folders opened for an fsync (O_DIRECTORY), in order.
 */
import { constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const opened: string[] = [];

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    open: (path: string, flags?: number, mode?: number) => {
      opened.push(`${typeof flags === 'number' && (flags & constants.O_DIRECTORY) !== 0 ? 'folder' : 'file'} ${path}`);
      return actual.open(path, flags, mode);
    },
  };
});

// The suite shares modules between files (vitest.config.ts, isolate: false): local.js may be loaded
// already, with the real fs/promises; loaded afresh, it gets the mock.
vi.resetModules();
const { LocalLake } = await import('../../../src/sync/destinations/local.js');
const { tempDir } = await import('../../e2e/harness.js');

// The files after this one in the same process get the real module again.
afterAll(() => {
  vi.doUnmock('node:fs/promises');
  vi.resetModules();
});

/** The position of the first open of `entry` after `from`; -1 when there is none. */
function openedAt(entry: string, from = 0): number {
  const at = opened.slice(from).indexOf(entry);
  return at === -1 ? -1 : from + at;
}

describe('folders a sync makes, made durable before the state records them', () => {
  it('fsyncs each folder given a new folder (and the one above a lake it made) before the state, once', async () => {
    const dir = join(tempDir(), 'new', 'lake');
    const lake = new LocalLake(dir);
    opened.length = 0;
    await lake.open();
    try {
      await lake.write('rankings/week=202646/part-0.parquet', [Buffer.from('a')]);
      await lake.write('rankings/week=202647/part-0.parquet', [Buffer.from('b')]);
      await lake.writeState('{"one":1}\n');
      const state = opened.findIndex((entry) => entry.startsWith(`file ${join(dir, '.')}`) && entry.includes('_newsstats_sync.json'));
      expect(state).toBeGreaterThan(-1);
      // The week folders' entries are in rankings/, rankings/'s in the lake, the lake's in new/, new/'s in its parent.
      for (const folder of [join(dir, 'rankings'), dir, dirname(dir), dirname(dirname(dir))]) {
        const at = openedAt(`folder ${folder}`);
        expect(at, folder).toBeGreaterThan(-1);
        expect(at, folder).toBeLessThan(state);
      }
      // Once a state: rankings/ was fsynced once for its two new folders.
      expect(opened.slice(0, state).filter((entry) => entry === `folder ${join(dir, 'rankings')}`)).toHaveLength(1);

      // Nothing new made: the next state fsyncs no folder above the file's own.
      const before = opened.length;
      await lake.write('rankings/week=202647/part-0.parquet', [Buffer.from('c')]);
      await lake.writeState('{"two":2}\n');
      expect(opened.slice(before).filter((entry) => entry === `folder ${join(dir, 'rankings')}`)).toEqual([]);
    } finally {
      await lake.close();
    }
  });

  it('fsyncs each folder a file was renamed into before the state, once however many files, and the state\'s own folder after it', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    try {
      await lake.writeState('{"zero":0}\n');
      opened.length = 0;
      const store = join(dir, '_newsstats', 'links');
      for (const week of [202601, 202602, 202603]) await lake.write(`_newsstats/links/week=${week}.ndjson`, [Buffer.from(`${week}\n`)]);
      await lake.write('links/week=202601/part-0.parquet', [Buffer.from('a')]);
      await lake.writeState('{"one":1}\n');
      const state = opened.findIndex((entry) => entry.includes('_newsstats_sync.json'));
      expect(state).toBeGreaterThan(-1);
      const beforeState = opened.slice(0, state);
      // Three stores renamed into one folder: one fsync of it, before the state.
      expect(beforeState.filter((entry) => entry === `folder ${store}`)).toHaveLength(1);
      expect(beforeState.filter((entry) => entry === `folder ${join(dir, 'links', 'week=202601')}`)).toHaveLength(1);
      // The state's rename is made durable at once, by its own folder's fsync after it.
      expect(opened.slice(state + 1)).toContain(`folder ${dir}`);

      // Nothing renamed since: the next state fsyncs neither folder again.
      const before = opened.length;
      await lake.writeState('{"two":2}\n');
      expect(opened.slice(before).filter((entry) => entry === `folder ${store}` || entry.includes('week=202601'))).toEqual([]);
    } finally {
      await lake.close();
    }
  });
});
