/**
 * How a local lake publishes a file (#33 item 6: a folder's fsync shared by the files renamed into it
 * meanwhile): every file lands whole, however it was handed over (one piece, many pieces, nothing, a
 * producer), many at once into one folder; the state waits for all of them; a file that cannot be put
 * in place fails the state naming it and leaves no temporary file behind.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalLake } from '../../../src/sync/destinations/local.js';
import { OutputWriteError } from '../../../src/output/write-error.js';
import { tempDir } from '../../e2e/harness.js';

const STORE = '_newsstats/links';

function temporaryFiles(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith('.tmp'));
}

describe('a local lake publishing files', () => {
  it('lands many files handed over at once into one folder, each whole, before the state', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    const expected = new Map<string, Buffer>();
    try {
      for (let index = 0; index < 60; index++) {
        const path = `${STORE}/week=2026${String(index).padStart(2, '0')}.ndjson`;
        // Pieces of every kind: many (written at once), one, none, and a producer's writes.
        const lines = Array.from({ length: index % 7 }, (_, line) => Buffer.from(`{"week":${index},"line":${line},"text":"${'é'.repeat(line * 300)}"}\n`));
        expected.set(path, Buffer.concat(lines));
        if (index % 3 === 0) {
          await lake.write(path, async (out) => {
            for (const line of lines) out.write(line);
          });
        } else {
          await lake.write(path, index % 3 === 1 ? lines : [Buffer.concat(lines)]);
        }
      }
      await lake.writeState('{"state":1}\n');
    } finally {
      await lake.close();
    }
    for (const [path, bytes] of expected) expect(readFileSync(join(dir, path)).equals(bytes), path).toBe(true);
    expect(readdirSync(join(dir, STORE)).filter((name) => name.endsWith('.ndjson'))).toHaveLength(60);
    expect(temporaryFiles(join(dir, STORE))).toEqual([]);
    expect(temporaryFiles(dir)).toEqual([]);
    expect(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')).toBe('{"state":1}\n');
  });

  it('replaces a file published before, in place', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    try {
      await lake.write('rankings/week=202647/part-0.parquet', [Buffer.from('old, longer than the new')]);
      await lake.writeState('{}\n');
      await lake.write('rankings/week=202647/part-0.parquet', [Buffer.from('new')]);
      await lake.writeState('{}\n');
    } finally {
      await lake.close();
    }
    expect(readFileSync(join(dir, 'rankings/week=202647/part-0.parquet'), 'utf8')).toBe('new');
    expect(temporaryFiles(join(dir, 'rankings/week=202647'))).toEqual([]);
  });

  it('fails the state naming a file that cannot be put in place, and removes its temporary file', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    // A folder that is not empty where the file goes: the rename over it fails.
    mkdirSync(join(dir, STORE, 'week=202647.ndjson'), { recursive: true });
    writeFileSync(join(dir, STORE, 'week=202647.ndjson', 'keep'), 'x');
    try {
      await lake.write(`${STORE}/week=202646.ndjson`, [Buffer.from('{"a":1}\n')]);
      await lake.write(`${STORE}/week=202647.ndjson`, [Buffer.from('{"a":1}\n'), Buffer.from('{"b":2}\n')]);
      const failure = await lake.writeState('{}\n').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(OutputWriteError);
      expect(String((failure as Error).message)).toContain(join(dir, STORE, 'week=202647.ndjson'));
    } finally {
      await lake.close();
    }
    expect(readFileSync(join(dir, STORE, 'week=202646.ndjson'), 'utf8')).toBe('{"a":1}\n');
    expect(temporaryFiles(join(dir, STORE))).toEqual([]);
    expect(readdirSync(dir)).not.toContain('_newsstats_sync.json');
  });

  it('writes nothing once closed (a signal\'s clean-up released the lock while the run went on for a moment), until opened again', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    await lake.write(`${STORE}/week=202646.ndjson`, [Buffer.from('{"a":1}\n')]);
    await lake.close();
    expect(readdirSync(dir)).not.toContain('_newsstats_sync.lock');
    // Another sync may hold the lake now: a partition or a state handed over late is refused, not published.
    await expect(lake.write(`${STORE}/week=202647.ndjson`, [Buffer.from('{"b":2}\n')])).rejects.toThrow(/lock released: nothing more is written/);
    await expect(lake.writeState('{}\n')).rejects.toBeInstanceOf(OutputWriteError);
    expect(readdirSync(join(dir, STORE))).toEqual(['week=202646.ndjson']);
    expect(readdirSync(dir)).not.toContain('_newsstats_sync.json');
    await lake.open();
    try {
      await lake.write(`${STORE}/week=202647.ndjson`, [Buffer.from('{"b":2}\n')]);
      await lake.writeState('{}\n');
    } finally {
      await lake.close();
    }
    expect(readFileSync(join(dir, STORE, 'week=202647.ndjson'), 'utf8')).toBe('{"b":2}\n');
  });

  it('takes no lock once closed while it was being opened (a signal\'s clean-up as the run began), as an object store\'s lake', async () => {
    const dir = join(tempDir(), 'lake');
    mkdirSync(dir);
    const lake = new LocalLake(dir);
    // The clean-up's close() comes while open() waits on the file system: a lock taken after it
    // stayed when the process exited before the lock's exit handler was in place.
    const opening = lake.open();
    await lake.close();
    await expect(opening).rejects.toThrow(/the run was stopped while it took the lake's lock/);
    expect(readdirSync(dir)).not.toContain('_newsstats_sync.lock');
    await expect(lake.open()).rejects.toBeInstanceOf(OutputWriteError);
    expect(readdirSync(dir)).toEqual([]);
  });
});
