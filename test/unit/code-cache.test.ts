/**
 * bin/code-cache.cjs: dist/ run through vm.Script with V8 code caches written after the run. Each case
 * runs a small dist/ of three files in a child process, as bin/newsstats.cjs would, and reads the
 * caches it left.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const CODE_CACHE = resolve(import.meta.dirname, '../../bin/code-cache.cjs');

let base: string;
let dist: string;
let directory: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'newsstats-code-cache-'));
  dist = join(base, 'dist');
  directory = join(base, 'cache');
  mkdirSync(join(dist, 'cli'), { recursive: true });
  mkdirSync(join(dist, 'chunks'));
  mkdirSync(directory, { mode: 0o700 });
  writeFileSync(join(dist, 'cli', 'main.js'), "'use strict';\nconst { value } = require('../chunks/value.js');\nexports.answer = () => value() + require('./two.js').two;\nexports.strict = (function () { return this === undefined; })();\n");
  writeFileSync(join(dist, 'cli', 'two.js'), 'exports.two = 2;\n');
  writeFileSync(join(dist, 'chunks', 'value.js'), 'exports.value = () => 40;\n');
  // The first run of an install writes no cache, only its folder (the next test says so): every
  // other case starts from there.
  run([]);
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** Runs dist/cli/main.js through loadDist for `words`, then `after` (code run before exit); prints what it answered. */
function run(words: string[], after = ''): string {
  const script = `
    const loaded = require(${JSON.stringify(CODE_CACHE)}).loadDist(${JSON.stringify(join(dist, 'cli', 'main.js'))}, { dist: ${JSON.stringify(dist)}, directory: ${JSON.stringify(directory)}, words: ${JSON.stringify(words)} });
    const answer = loaded.answer();
    const listed = Object.keys(require.cache).filter((file) => file.startsWith(${JSON.stringify(dist)})).length;
    console.log(answer, loaded.strict, listed);
    ${after}`;
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

/** The caches written, by file name: the header line and the file's inode and modification time. */
function caches(): Record<string, { header: string; written: string }> {
  const folders = readdirSync(directory);
  if (folders.length === 0) return {};
  expect(folders).toHaveLength(1);
  expect(folders[0]).toMatch(/^code-\d+-[0-9a-z]+$/);
  const folder = join(directory, folders[0]!);
  expect(statSync(folder).mode & 0o777).toBe(0o700);
  return Object.fromEntries(readdirSync(folder).filter((name) => name.endsWith('.js')).map((name) => {
    const file = join(folder, name);
    const stats = statSync(file);
    expect(stats.mode & 0o777).toBe(0o600);
    const header = readFileSync(file, 'latin1').split('\n')[0]!;
    return [name, { header, written: `${stats.ino}:${stats.mtimeMs}` }];
  }));
}

describe('dist/ with code caches written after the run', () => {
  it('writes no cache on the first run of an install, only the folder the next run writes into', () => {
    rmSync(directory, { recursive: true });
    mkdirSync(directory, { mode: 0o700 });
    expect(run(['people', 'top'])).toBe('42 true 3');
    expect(readdirSync(directory)).toHaveLength(1);
    expect(caches()).toEqual({});
    run(['people', 'top']);
    expect(Object.keys(caches())).toHaveLength(3);
  });

  it('reads no cache through a link, nor from a folder that is a link', () => {
    run(['people', 'top']);
    const folder = join(directory, readdirSync(directory)[0]!);
    const written = caches();
    // A cache file replaced by a link to a copy of itself is not read: the file is compiled from
    // source and its cache written again, a regular file.
    renameSync(join(folder, 'cli+two.js'), join(base, 'two-copy'));
    symlinkSync(join(base, 'two-copy'), join(folder, 'cli+two.js'));
    run(['people', 'top']);
    expect(lstatSync(join(folder, 'cli+two.js')).isSymbolicLink()).toBe(false);
    expect(caches()['cli+two.js']!.written).not.toBe(written['cli+two.js']!.written);
    // The folder itself a link: nothing in it is read, nothing written through it.
    renameSync(folder, join(base, 'elsewhere'));
    symlinkSync(join(base, 'elsewhere'), folder);
    const before = readdirSync(join(base, 'elsewhere')).map((name) => statSync(join(base, 'elsewhere', name)).mtimeMs);
    expect(run(['config', 'path'])).toBe('42 true 3');
    expect(readdirSync(join(base, 'elsewhere')).map((name) => statSync(join(base, 'elsewhere', name)).mtimeMs)).toEqual(before);
  });

  it('runs each file as Node runs a CommonJS module, lists it in require.cache, and caches it once', () => {
    expect(run(['people', 'top', '--weeks', 'last4'])).toBe('42 true 3');
    const first = caches();
    expect(Object.keys(first).sort()).toEqual(['chunks+value.js', 'cli+main.js', 'cli+two.js']);
    expect(first['cli+main.js']!.header).toMatch(/^newsstats-code-cache-2 \d+:\d+:[\d.]+ people\.top [0-9a-f]{8} \d+$/);

    expect(run(['people', 'top'])).toBe('42 true 3');
    expect(caches()).toEqual(first); // accepted by V8, and nothing new to keep: not written again
  });

  it('writes a cache again for a command it has not seen, keeping the commands it had', () => {
    run(['people', 'top']);
    run(['config', 'path']);
    const both = caches();
    expect(both['chunks+value.js']!.header).toMatch(/ people\.top,config\.path [0-9a-f]{8} \d+$/);
    run(['config', 'path']);
    run(['people', 'top']);
    expect(caches()).toEqual(both);
  });

  it('compiles a file again once it changed, even to text of the same length (V8 checks the length only)', () => {
    expect(run(['people', 'top'])).toBe('42 true 3');
    writeFileSync(join(dist, 'chunks', 'value.js'), 'exports.value = () => 50;\n');
    expect(run(['people', 'top'])).toBe('52 true 3');
    expect(caches()['chunks+value.js']!.header).toMatch(/ people\.top [0-9a-f]{8} \d+$/);
  });

  it('writes no cache for a file loaded under other V8 flags than those at exit (V8 would reject it)', () => {
    expect(run(['people', 'top'], "require('node:v8').setFlagsFromString('--wasm-tiering-budget=12345');")).toBe('42 true 3');
    expect(caches()).toEqual({});
  });

  it('removes the caches of files dist/ no longer has when it writes one, and leaves files being written alone', () => {
    run(['people', 'top']);
    const folder = join(directory, readdirSync(directory)[0]!);
    writeFileSync(join(folder, 'chunks+gone-ABCD1234.js'), 'stale');
    writeFileSync(join(folder, 'chunks+value.js.4242'), 'being written by process 4242');
    run(['people', 'top']); // writes nothing: nothing is removed either
    expect(readdirSync(folder)).toContain('chunks+gone-ABCD1234.js');
    run(['config', 'path']);
    expect(readdirSync(folder).sort()).toEqual(['chunks+value.js', 'chunks+value.js.4242', 'cli+main.js', 'cli+two.js']);
  });

  it('writes nothing, and still runs, when the cache folder is gone', () => {
    rmSync(directory, { recursive: true });
    expect(run(['people', 'top'])).toBe('42 true 3');
    expect(() => readdirSync(directory)).toThrow();
  });
});
