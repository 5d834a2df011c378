import { chmod, mkdtemp, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openAtomicFile, renderView } from '../../../src/output/index.js';
import { baseOptions } from './helpers.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'newsstats-atomic-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}

describe('openAtomicFile', () => {
  test('commit creates the file with everything written', async () => {
    const target = join(directory, 'out.csv');
    const file = await openAtomicFile(target);
    await renderView({ data: [{ a: 1 }, { a: 2 }], fields: ['a'] }, { ...baseOptions, format: 'csv' }, file.stream);
    await file.commit();
    expect(await readFile(target, 'utf8')).toBe('a\n1\n2\n');
    expect(await readdir(directory)).toEqual(['out.csv']);
  });

  test('commit replaces an existing file and keeps its mode', async () => {
    const target = join(directory, 'out.json');
    await writeFile(target, 'old');
    await chmod(target, 0o600);
    const file = await openAtomicFile(target);
    await write(file.stream, 'new');
    await file.commit();
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readdir(directory)).toEqual(['out.json']);
  });

  test('until commit the target is untouched and the output sits in a hidden temporary file', async () => {
    const target = join(directory, 'out.json');
    await writeFile(target, 'old');
    const file = await openAtomicFile(target);
    await write(file.stream, 'partial');
    expect(await readFile(target, 'utf8')).toBe('old');
    const names = await readdir(directory);
    expect(names).toHaveLength(2);
    expect(names.find((name) => name !== 'out.json')).toMatch(new RegExp(`^\\.out\\.json\\.${process.pid}\\.[0-9a-f]{12}\\.tmp$`));
    await file.abort();
  });

  test('abort leaves the old file byte-identical and no temporary file', async () => {
    const target = join(directory, 'out.bin');
    const original = Buffer.from([0, 1, 2, 255, 10, 13]);
    await writeFile(target, original);
    const file = await openAtomicFile(target);
    await write(file.stream, 'half a result');
    await file.abort();
    expect(Buffer.compare(await readFile(target), original)).toBe(0);
    expect(await readdir(directory)).toEqual(['out.bin']);
  });

  test('abort with no old file leaves nothing', async () => {
    const file = await openAtomicFile(join(directory, 'new.csv'));
    await write(file.stream, 'x');
    await file.abort();
    expect(await readdir(directory)).toEqual([]);
  });

  test('a failed render then abort: old file intact', async () => {
    const target = join(directory, 'out.csv');
    await writeFile(target, 'keep me');
    const file = await openAtomicFile(target);
    try {
      // A field its rows lack: the view declares none, so the entry checks it and the render fails.
      await renderView({ data: [{ a: 1 }], fields: [] }, { ...baseOptions, format: 'csv', fields: ['nope'] }, file.stream);
      await file.commit();
    } catch {
      await file.abort();
    }
    expect(await readFile(target, 'utf8')).toBe('keep me');
    expect(await readdir(directory)).toEqual(['out.csv']);
  });

  test('abort after commit is a no-op; commit after abort throws', async () => {
    const target = join(directory, 'out.txt');
    const committed = await openAtomicFile(target);
    await write(committed.stream, 'done');
    await committed.commit();
    await committed.abort();
    expect(await readFile(target, 'utf8')).toBe('done');

    const aborted = await openAtomicFile(target);
    await aborted.abort();
    await expect(aborted.commit()).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('done');
  });

  test('writes through a symlink to the file it points at', async () => {
    const real = join(directory, 'real.csv');
    const link = join(directory, 'link.csv');
    await writeFile(real, 'old');
    await symlink(real, link);
    const file = await openAtomicFile(link);
    await write(file.stream, 'new');
    await file.commit();
    expect(await readFile(real, 'utf8')).toBe('new');
    expect(await readlink(link)).toBe(real);
  });

  test('a missing directory fails at open, leaving nothing', async () => {
    await expect(openAtomicFile(join(directory, 'missing', 'out.csv'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(directory)).toEqual([]);
  });

  test('a directory as target fails at open', async () => {
    await expect(openAtomicFile(directory)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
