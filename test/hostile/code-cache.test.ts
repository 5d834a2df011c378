/**
 * #35 item 5: a code cache can never break a run. V8 checks no checksum of a code cache in release
 * builds, so a cache file with flipped bits or a zeroed block crashed every command (SIGSEGV, a V8
 * fatal error), `newsstats cache clear` included; one linked to /dev/zero was read without bound.
 * bin/code-cache.cjs now drops an entry whose CRC-32 or length does not match, reads a regular file
 * of bounded size only, opens none through a link, and `cache clear` never loads through the caches.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, sandbox, spawnAndCollect, tempDir } from '../e2e/harness.js';

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox();
});
afterAll(() => server.close());

const QUERY = ['people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'json'];

/** A home whose code caches hold a query's files (two runs: the first of an install writes none). */
async function homeWithCaches() {
  const home = tempDir('newsstats-hostile-cache-');
  const env = isolatedEnv(home, { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key });
  const run = (args: string[]) => spawnAndCollect(process.execPath, [BIN, ...args], env);
  const first = await run(QUERY);
  expect(first.code, first.stderr).toBe(0);
  await run(QUERY);
  const root = join(home, 'cache', 'newsstats', 'compile-cache');
  const files = readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  expect(files.length).toBeGreaterThan(20);
  return { home, root, files, run, expected: first.stdout };
}

/** The offset where V8's data starts: after the header line. */
const dataStart = (bytes: Buffer) => bytes.indexOf(10) + 1;

const corruptions: Array<[string, (file: string) => void]> = [
  ['three flipped bits', (file) => {
    const bytes = readFileSync(file);
    const start = dataStart(bytes);
    for (const at of [0.25, 0.5, 0.75]) {
      const offset = start + Math.floor((bytes.length - start) * at);
      bytes[offset] = bytes[offset]! ^ 0x10;
    }
    writeFileSync(file, bytes);
  }],
  ['a zeroed 4 KiB block', (file) => {
    const bytes = readFileSync(file);
    const start = dataStart(bytes);
    bytes.fill(0, start + 64, Math.min(bytes.length, start + 64 + 4096));
    writeFileSync(file, bytes);
  }],
  ['a link to /dev/zero', (file) => {
    rmSync(file);
    symlinkSync('/dev/zero', file);
  }],
  ['a FIFO nobody writes to', (file) => {
    rmSync(file);
    execFileSync('mkfifo', [file]);
  }],
];

describe.concurrent('a damaged code cache never breaks a run', () => {
  it.each(corruptions)('every cache file %s: the query answers as before and writes the caches again intact; `cache clear` works and removes them', async (_name, corrupt) => {
    const { root, files, run, expected } = await homeWithCaches();
    for (const file of files) corrupt(file);
    const damaged = await run(QUERY);
    expect(damaged.stderr).toBe('');
    // The signal too: a crash (SIGSEGV, SIGABRT) is what this test is for; SIGKILL is its bound.
    expect({ code: damaged.code, signal: damaged.signal }).toEqual({ code: 0, signal: null });
    expect(damaged.stdout).toBe(expected);
    // Written anew at exit: regular files again, which the next run accepts and leaves as they are.
    for (const file of files) expect(statSync(file).isFile(), file).toBe(true);
    const rewritten = Object.fromEntries(files.map((file) => [file, statSync(file).mtimeMs]));
    const next = await run(QUERY);
    expect(next.stdout).toBe(expected);
    expect(Object.fromEntries(files.map((file) => [file, statSync(file).mtimeMs]))).toEqual(rewritten);

    for (const file of files) corrupt(file);
    const cleared = await run(['cache', 'clear']);
    expect(cleared.stderr).not.toMatch(/error/i);
    expect(cleared.code).toBe(0);
    expect(existsSync(root)).toBe(false);
  });
});
