/**
 * Where a sync holds the links it has fetched and not yet merged (#33 item 6, the peak): a scratch file
 * of the lake's, named as its temporary files are, so it leaves the process's memory, reads back
 * byte for byte, and never outlives the run (removed at the end, or by the next run after a kill). And
 * the local lake's bound on bytes waiting for their temporary files: a file larger than the bound is
 * still written, whole.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryScratch, type Scratch } from '../../../src/sync/destinations/destination.js';
import { LocalLake } from '../../../src/sync/destinations/local.js';
import { tempDir } from '../../e2e/harness.js';

const LINKS = '_newsstats/links';

function scratchFiles(lake: string): string[] {
  return readdirSync(join(lake, LINKS)).filter((name) => name.startsWith('.held.ndjson.newsstats-sync-'));
}

/** Appends pieces of every size around a read's edges and reads each back, and ranges across them. */
function checkReadsBack(scratch: Scratch): void {
  const pieces = [[Buffer.from('{"a":1}\n'), Buffer.from('{"b":"ß"}\n')], [Buffer.alloc(70_000, 0x61)], [Buffer.from('z')]];
  const starts = pieces.map((chunks) => scratch.append(chunks));
  const whole = Buffer.concat(pieces.flat());
  expect(starts).toEqual([0, 19, 70_019]);
  expect(scratch.read(8, 11).toString()).toBe('{"b":"ß"}\n');
  expect(scratch.read(0, whole.length).equals(whole)).toBe(true);
  expect(scratch.read(15, 70_005).equals(whole.subarray(15, 70_020))).toBe(true);
}

describe('the links a sync holds until its merge', () => {
  it('in a local lake: a file of ours beside the merge store, read back byte for byte, removed by dispose', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    try {
      const scratch = await lake.scratch(`${LINKS}/held.ndjson`);
      expect(scratchFiles(dir)).toHaveLength(1);
      expect(scratchFiles(dir)[0]).toMatch(/^\.held\.ndjson\.newsstats-sync-\d+-[0-9a-f]{12}\.tmp$/);
      checkReadsBack(scratch);
      scratch.dispose();
      scratch.dispose();
      expect(scratchFiles(dir)).toEqual([]);
    } finally {
      await lake.close();
    }
  });

  it('left by a killed run, is removed by the next run\'s open', async () => {
    const dir = join(tempDir(), 'lake');
    const killed = new LocalLake(dir);
    await killed.open();
    (await killed.scratch(`${LINKS}/held.ndjson`)).append([Buffer.from('{"a":1}\n')]);
    await killed.close();
    expect(scratchFiles(dir)).toHaveLength(1);
    const next = new LocalLake(dir);
    await next.open();
    await next.close();
    expect(scratchFiles(dir)).toEqual([]);
  });

  it('where no private folder can be made (an object store\'s run in a read-only container), held in memory: read back byte for byte across appends', () => {
    checkReadsBack(new MemoryScratch());
  });
});

describe('a local lake\'s writes', () => {
  it('write a file larger than the bytes allowed to wait for their files, whole, among smaller ones', async () => {
    const dir = join(tempDir(), 'lake');
    const lake = new LocalLake(dir);
    await lake.open();
    const large = Buffer.alloc(3 * 1024 * 1024, 0x62);
    try {
      const small = Array.from({ length: 40 }, (_, index) => Buffer.alloc(64 * 1024, index));
      for (const [index, bytes] of small.entries()) await lake.write(`rankings/week=2026${String(index + 10).padStart(2, '0')}/part-0.parquet`, [bytes]);
      await lake.write('links/week=202650/part-0.parquet', [large]);
      await lake.write('links/week=202651/part-0.parquet', [large]);
      await lake.writeState('{}');
      for (const [index, bytes] of small.entries()) expect(readFileSync(join(dir, `rankings/week=2026${String(index + 10).padStart(2, '0')}/part-0.parquet`)).equals(bytes)).toBe(true);
      expect(readFileSync(join(dir, 'links/week=202651/part-0.parquet')).equals(large)).toBe(true);
      expect(existsSync(join(dir, '_newsstats_sync.json'))).toBe(true);
    } finally {
      await lake.close();
    }
  });
});

describe('a full disk under the links held until the merge', () => {
  it('is named by the folder and what the file is for, not by its temporary name (ENOSPC from /dev/full)', async () => {
    const { openSync } = await import('node:fs');
    const { ScratchFile } = await import('../../../src/sync/destinations/scratch-file.js');
    const dir = join(tempDir(), 'lake', LINKS);
    // /dev/full takes no byte: every write fails as a full disk's does.
    const scratch = new ScratchFile(join(dir, '.held.ndjson.newsstats-sync-1-000000000000.tmp'), openSync('/dev/full', 'w'));
    try {
      expect(() => scratch.append([Buffer.from('{"a":1}\n')])).toThrow(`cannot write to ${dir} (the links held until the merge): no space left on the device (ENOSPC)`);
    } finally {
      scratch.dispose();
    }
  });
});
