/**
 * Local files and signals under attack or failure (issue #8, items 1, 3, 10, 11, 12): special files
 * as --output, planted cache links, folders and config files others can touch, full disks, SIGHUP,
 * empty values, and a short API key.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cacheScope } from '../../src/cli/run/cache.js';
import { expectFailure, expectSuccess, isolatedEnv, spawnAndCollect, tempDir } from '../e2e/harness.js';
import { COUNTRIES, HOSTILE_BIN, KEY, WEEK_INFO, hang, hostileServer, hugeCountries, json, ranked, run, runProcess, type HostileServer } from './servers.js';

let server: HostileServer;
const routes = {
  '/api/data/weeks/current': json(WEEK_INFO),
  '/api/data/countries': json(COUNTRIES),
  '/api/data/people/top': json(ranked(3)),
  '/api/data/people/p1/links': json([]),
  '/api/data/people/p2/links': hang,
};
beforeAll(async () => {
  server = await hostileServer(routes);
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({ NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY, ...extra });
const isRoot = process.getuid?.() === 0;

/**
 * The device itself, or as root a private node of the same device: code that renames over its target
 * (the bug this suite guards against) would otherwise replace the machine's own /dev/null or /dev/full.
 */
function deviceUnderTest(name: 'null' | 'full', minor: number): string {
  if (!isRoot) return `/dev/${name}`;
  const device = join(tempDir('newsstats-dev-'), name);
  expect(spawnSync('mknod', [device, 'c', '1', String(minor)]).status).toBe(0);
  return device;
}

describe('item 1: special files are written into, never replaced', () => {
  test('a FIFO: the reader gets the output and the FIFO stays a FIFO', async () => {
    const dir = tempDir('newsstats-fifo-');
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo]);
    let read = '';
    reader.stdout.setEncoding('utf8').on('data', (chunk: string) => (read += chunk));
    const readerDone = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const result = await run(['countries', 'list', '-f', 'json', '--no-cache', '-q', '-o', fifo], { env: env() });
    // Bounded: a build that replaced the FIFO leaves the reader waiting for a writer that never comes.
    const stopReader = setTimeout(() => reader.kill(), result.code === 0 ? 5_000 : 0);
    await readerDone;
    clearTimeout(stopReader);
    expect(expectSuccess(result)).toBe('');
    expect(JSON.parse(read)).toEqual(COUNTRIES);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  test('a character device (a private /dev/null, or /dev/null itself when not root): written into, still a device', async () => {
    const device = deviceUnderTest('null', 3);
    const result = await run(['countries', 'list', '-f', 'csv', '--no-cache', '-q', '-o', device], { env: env() });
    expect(expectSuccess(result)).toBe('');
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  test('-o /dev/stdout (as root /proc/self/fd/1, which no bug can replace) goes to stdout, like a shell redirect', async () => {
    const stdout = isRoot ? '/proc/self/fd/1' : '/dev/stdout';
    // A process: the real process's stdout (src/output/atomic.ts writes these names to process.stdout, not main()'s io).
    const result = await runProcess(['countries', 'list', '-f', 'json', '--no-cache', '-q', '-o', stdout], { env: env() });
    expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
  });
});

describe('item 3: cache and config are the user\'s alone', () => {
  function scopeDir(home: string): string {
    return join(home, 'cache', 'newsstats', cacheScope(server.url, 'default'));
  }

  test('a symlink planted at a cache entry is replaced, never written through', async () => {
    const home = tempDir('newsstats-home-');
    const victim = join(home, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    mkdirSync(scopeDir(home), { recursive: true, mode: 0o700 });
    chmodSync(join(home, 'cache', 'newsstats'), 0o700);
    symlinkSync(victim, join(scopeDir(home), 'countries.json'));
    const result = await run(['countries', 'list', '-f', 'json', '-q'], { home, env: env() });
    expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(scopeDir(home), 'countries.json')).isSymbolicLink()).toBe(false);
  });

  test('a cache folder writable by others is not used: one note, then uncached; the folder is created 0700', async () => {
    const home = tempDir('newsstats-home-');
    const fresh = await run(['countries', 'list', '-f', 'json'], { home, env: env() });
    expectSuccess(fresh);
    expect(lstatSync(join(home, 'cache', 'newsstats')).mode & 0o777).toBe(0o700);
    expect(lstatSync(scopeDir(home)).mode & 0o777).toBe(0o700);

    chmodSync(join(home, 'cache', 'newsstats'), 0o777);
    // A planted entry with made-up countries must not be believed.
    writeFileSync(join(scopeDir(home), 'countries.json'), JSON.stringify({ savedAt: Date.now(), baseUrl: server.url, value: [{ countryId: 1, countryName: 'Planted', countryIso: 'PL' }] }));
    const before = server.requests.length;
    const result = await run(['countries', 'list', '-f', 'json'], { home, env: env() });
    expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
    expect(result.stderr).toMatch(/^newsstats: not using the cache: .*newsstats is writable by group or others \(mode 777\); running uncached$/m);
    expect(server.requests.slice(before)).toEqual(['/api/data/countries']);
  });

  test('a cache folder that is a symlink, or (as root) belongs to another user, is not used', async () => {
    const linked = tempDir('newsstats-home-');
    const elsewhere = tempDir('newsstats-elsewhere-');
    mkdirSync(join(linked, 'cache'), { recursive: true });
    symlinkSync(elsewhere, join(linked, 'cache', 'newsstats'));
    const homes: Array<[string, RegExp]> = [[linked, /newsstats is a symbolic link; running uncached$/m]];
    if (isRoot) {
      const foreign = tempDir('newsstats-home-');
      mkdirSync(join(foreign, 'cache', 'newsstats'), { recursive: true, mode: 0o700 });
      spawnSync('chown', ['65534', join(foreign, 'cache', 'newsstats')]);
      homes.push([foreign, /newsstats belongs to another user \(uid 65534\); running uncached$/m]);
    }
    for (const [home, note] of homes) {
      const result = await run(['countries', 'list', '-f', 'json'], { home, env: env() });
      expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
      expect(result.stderr).toMatch(note);
    }
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  test('a cache entry of the wrong shape is ignored and rewritten', async () => {
    const home = tempDir('newsstats-home-');
    expectSuccess(await run(['countries', 'list', '-f', 'json', '-q'], { home, env: env() }));
    const entry = join(scopeDir(home), 'countries.json');
    writeFileSync(entry, JSON.stringify({ savedAt: Date.now(), baseUrl: server.url, value: { not: 'a list' } }));
    const result = await run(['countries', 'list', '-f', 'json', '-q'], { home, env: env() });
    expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
    expect(JSON.parse(readFileSync(entry, 'utf8')).value).toEqual(COUNTRIES);
  });

  function writeConfig(home: string, profile: Record<string, unknown>, mode = 0o600): string {
    const dir = join(home, 'config', 'newsstats');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ profiles: { default: profile } }), { mode });
    chmodSync(file, mode);
    return file;
  }

  for (const [key, value, message] of [
    ['timeout', '0', 'timeout takes a number of seconds greater than 0'],
    ['retries', '1e9', 'retries takes an integer from 0 to 20'],
    ['base-url', 5, 'the value must be a string (got 5)'],
  ] as const) {
    test(`config value ${key} = ${JSON.stringify(value)} is refused by the config-set parser: exit 2 naming the key and the file`, async () => {
      const home = tempDir('newsstats-home-');
      const file = writeConfig(home, { [key]: value });
      const before = server.requests.length;
      const result = await run(['weeks', '-q'], { home, env: env() });
      expectFailure(result, 2, `the config file ${file}, profile "default", key ${key}: ${message}`);
      expect(server.requests.slice(before)).toEqual([]);
    });
  }

  test('a config file readable by others gets a warning, as ssh and the AWS CLI give', async () => {
    const home = tempDir('newsstats-home-');
    const file = writeConfig(home, { 'api-key': KEY }, 0o644);
    const result = await run(['weeks', '-f', 'json'], { home, env: { NEWSSTATS_BASE_URL: server.url } });
    expect(JSON.parse(expectSuccess(result))).toEqual(WEEK_INFO);
    expect(result.stderr).toContain(`warning: the config file ${file} is open to other users (mode 644); run: chmod 600 ${file}`);
  });
});

describe('item 10: signals and local I/O', () => {
  test('SIGHUP removes the temporary file and exits 129', async () => {
    const dir = tempDir('newsstats-hup-');
    const target = join(dir, 'links.csv');
    writeFileSync(target, 'old\n');
    let sent = false;
    // A process: a signal to the real process.
    const result = await runProcess(['export', 'links', '--top', '2', '--concurrency', '1', '--timeout', '10', '-q', '-o', target], {
      env: env(),
      onSpawn: (child) => {
        const deadline = Date.now() + 10_000;
        const timer = setInterval(() => {
          const waiting = server.requests.some((url) => url.startsWith('/api/data/people/p2/links'));
          if (waiting || Date.now() > deadline) {
            clearInterval(timer);
            sent = child.kill('SIGHUP');
          }
        }, 20);
      },
    });
    expect(sent).toBe(true);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 129, signal: null });
    expect(readdirSync(dir)).toEqual(['links.csv']);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
  });

  // A process: the real process's stdout descriptor, as a shell redirect sets it.
  test.skipIf(!existsSync('/dev/full'))('a full stdout (/dev/full) is one line naming stdout and the OS error, exit 6', async () => {
    const result = await spawnAndCollect('sh', ['-c', `"${process.execPath}" "$0" countries list -f csv --no-cache -q > /dev/full`, HOSTILE_BIN],
      isolatedEnv(tempDir(), env()));
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 6,
      stderr: 'error: cannot write to stdout: no space left on the device (ENOSPC)\n',
    });
  });

  test.skipIf(!existsSync('/dev/full'))('--output /dev/full is one line naming the target, exit 6', async () => {
    const device = deviceUnderTest('full', 7);
    const result = await run(['countries', 'list', '-f', 'csv', '--no-cache', '-q', '-o', device], { env: env() });
    expectFailure(result, 6, `error: cannot write to ${device}: no space left on the device (ENOSPC)`);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });
});

/** A 64 KiB file system of our own (root only): a real full disk, without filling the machine's. */
function smallDisk(): string | undefined {
  if (!isRoot) return undefined;
  const dir = tempDir('newsstats-disk-');
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status === 0 ? dir : undefined;
}

test('item 10: a full disk under --output is one line, exit 6, and the old file stays as it was', async (context) => {
  const disk = smallDisk();
  if (!disk) return context.skip();
  const big = await hostileServer({ '/api/data/countries': hugeCountries(256 * 1024) });
  try {
    const target = join(disk, 'countries.json');
    writeFileSync(target, 'old\n');
    const result = await run(['countries', 'list', '-f', 'json', '--no-cache', '-q', '-o', target], { env: { NEWSSTATS_BASE_URL: big.url, NEWSSTATS_API_KEY: KEY } });
    expectFailure(result, 6, `error: cannot write to ${target}: no space left on the device (ENOSPC)`);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(disk)).toEqual(['countries.json']);
  } finally {
    await big.close();
    spawnSync('umount', [disk]);
  }
});

describe('empty values are refused before any request', () => {
  // One line naming what is empty, exit 2, and nothing asked of the service.
  test.each([
    [['people', 'top', '--category', ''], '--category must not be empty'],
    [['people', 'top', '--country', ''], '--country must not be empty'],
    [['people', 'trend', ''], 'a personHash is empty'],
    [['people', 'trend', 'p1', ' '], 'a personHash is empty'],
    [['countries', 'list', '--profile', ''], '--profile must not be empty'],
    [['countries', 'list', '-o', ''], '--output must not be empty'],
    [['countries', 'list', '--base-url', ''], '--base-url must not be empty'],
    [['api', ''], 'path "" names no endpoint'],
    [['api', '/api/data'], 'path "/api/data" names no endpoint'],
  ])('%j: exit 2 naming it, no request', async (args, message) => {
    const before = server.requests.length;
    expectFailure(await run([...args, '--no-cache', '-q'], { env: env() }), 2, message);
    expect(server.requests.slice(before)).toEqual([]);
  });

  test('a reversed window of countries focus is refused before the country is looked up', async () => {
    const before = server.requests.length;
    expectFailure(await run(['countries', 'focus', 'DE', '--start', '202610', '--end', '202601', '--no-cache', '-q'], { env: env() }), 2, '--start 202610 comes after --end 202601');
    expect(server.requests.slice(before)).toEqual([]);
  });
});

describe('item 12: the key stays out of what we store and print', () => {
  test('a short key ("e") neither mangles messages nor shows through them', async () => {
    const keyE = await hostileServer({ '/api/data/people/nobody-0e0e': json({ title: 'not here', status: 404 }, 404) });
    try {
      const result = await run(['people', 'get', 'nobody-0e0e', '-q'], { env: { NEWSSTATS_BASE_URL: keyE.url, NEWSSTATS_API_KEY: 'e' } });
      expectFailure(result, 4, 'error: person "nobody-0e0e" not found');
    } finally {
      await keyE.close();
    }
  });

  test('a response that contains the key is never written to the cache', async () => {
    const echoing = await hostileServer({
      '/api/data/countries': json([{ countryId: 1, countryName: `Echo ${KEY}`, countryIso: 'EC' }]),
    });
    const home = tempDir('newsstats-home-');
    try {
      const result = await run(['countries', 'list', '-f', 'csv', '-q'], { home, env: { NEWSSTATS_BASE_URL: echoing.url, NEWSSTATS_API_KEY: KEY } });
      expect(result.code).toBe(0);
      const scope = join(home, 'cache', 'newsstats', cacheScope(echoing.url, 'default'));
      expect(existsSync(join(scope, 'countries.json'))).toBe(false);
    } finally {
      await echoing.close();
    }
  });
});
