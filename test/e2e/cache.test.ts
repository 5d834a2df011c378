/**
 * The countries and sources cache under $XDG_CACHE_HOME/newsstats/, and week info fetched at most
 * once per run. Request counts come from the sandbox's log; cache state persists across runs by
 * sharing one home between them (runCliWithHome).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  countPath, type LogEntry, logFilePath, logOf, runCli, runCliWithHome, sandbox, sandboxEnv, tempDir,
} from './harness.js';

/** A key that is easy to find if it ever leaked into a cache file. */
const KEY = 'sk-cache-e2e-KEY-5d1e';

let server: RunningSandbox;
let log: string;
let env: Record<string, string>;

beforeAll(async () => {
  log = logFilePath();
  server = await sandbox({ key: KEY, logFile: log });
  env = sandboxEnv(server);
});
afterAll(async () => {
  await server?.close();
});

const COUNTRIES = '/api/data/countries';
const TOP_DE = ['people', 'top', '--weeks', '202644..202647', '--country', 'DE', '--limit', '3', '-f', 'csv'];

function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function countriesFile(home: string): string {
  const files = filesUnder(join(home, 'cache', 'newsstats')).filter((file) => file.endsWith('countries.json'));
  expect(files).toHaveLength(1);
  return files[0]!;
}

/** Sets an entry's savedAt to `hoursAgo` hours before now (its digest covers the value, not the time). */
function age(file: string, hoursAgo: number): void {
  const entry = JSON.parse(readFileSync(file, 'utf8')) as { savedAt: number };
  entry.savedAt = Date.now() - hoursAgo * 3_600_000;
  writeFileSync(file, JSON.stringify(entry));
}

async function run(home: string, args: string[], extraEnv: Record<string, string | undefined> = {}) {
  const { result, entries } = await logOf(log, () => runCliWithHome(home, args, { env: { ...env, ...extraEnv } }));
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { stdout: result.stdout, entries };
}

const countriesRequests = (entries: LogEntry[]) => countPath(entries, COUNTRIES);

describe('countries cache', () => {
  it('resolves --country DE without a request on later runs, with the same output', async () => {
    const home = tempDir();
    const first = await run(home, TOP_DE);
    expect(countriesRequests(first.entries)).toBe(1);
    const second = await run(home, TOP_DE);
    expect(countriesRequests(second.entries)).toBe(0);
    expect(second.entries.map((entry) => entry.path)).toEqual(['/api/data/people/top']);
    expect(second.stdout).toBe(first.stdout);
    expect(first.stdout.split('\n').length).toBeGreaterThan(2);

    // The cache is where `cache path` says, under $XDG_CACHE_HOME/newsstats, and never holds the key.
    const path = await runCliWithHome(home, ['cache', 'path']);
    expect(path.code).toBe(0);
    expect(path.stdout).toBe(`${join(home, 'cache', 'newsstats')}\n`);
    const files = filesUnder(join(home, 'cache', 'newsstats'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
      expect(relative(home, file)).not.toContain(KEY);
    }
    // Other countries' codes and names resolve from the same entry.
    const other = await run(home, ['people', 'top', '--weeks', 'last4', '--from-country', 'france', '--limit', '2', '-f', 'csv']);
    expect(countriesRequests(other.entries)).toBe(0);
  });

  it('is keyed by base URL and profile', async () => {
    const home = tempDir();
    await run(home, TOP_DE);
    // Another profile (named profiles must exist): its own entry.
    expect((await runCliWithHome(home, ['--profile', 'staging', 'config', 'set', 'retries', '3'])).code).toBe(0);
    const otherProfile = await run(home, TOP_DE, { NEWSSTATS_PROFILE: 'staging' });
    expect(countriesRequests(otherProfile.entries)).toBe(1);
    expect(countriesRequests((await run(home, TOP_DE, { NEWSSTATS_PROFILE: 'staging' })).entries)).toBe(0);

    // Another service (same data, another port): its own entry too.
    const otherLog = logFilePath();
    const other = await sandbox({ key: KEY, logFile: otherLog });
    try {
      const { result, entries } = await logOf(otherLog, () => runCliWithHome(home, TOP_DE, { env: sandboxEnv(other) }));
      expect(result.code).toBe(0);
      expect(countriesRequests(entries)).toBe(1);
    } finally {
      await other.close();
    }
    expect(filesUnder(join(home, 'cache', 'newsstats')).filter((file) => file.endsWith('countries.json'))).toHaveLength(3);
  });

  it('--no-cache bypasses it: always a request, nothing read or written', async () => {
    const home = tempDir();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const { entries } = await run(home, [...TOP_DE, '--no-cache']);
      expect(countriesRequests(entries)).toBe(1);
    }
    expect(filesUnder(join(home, 'cache'))).toEqual([]);
    // With a fresh entry present, --no-cache still asks.
    await run(home, TOP_DE);
    expect(countriesRequests((await run(home, [...TOP_DE, '--no-cache'])).entries)).toBe(1);
  });

  it('`cache clear` empties it, and the next run asks again', async () => {
    const home = tempDir();
    await run(home, TOP_DE);
    const clear = await runCliWithHome(home, ['cache', 'clear']);
    expect(clear.code).toBe(0);
    expect(clear.stdout).toBe('');
    expect(clear.stderr).toContain(join(home, 'cache', 'newsstats'));
    expect(filesUnder(join(home, 'cache'))).toEqual([]);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(1);
    // Clearing an absent cache is fine too.
    expect((await runCliWithHome(tempDir(), ['cache', 'clear'])).code).toBe(0);
  });

  it('ignores a corrupt entry and rewrites it', async () => {
    const home = tempDir();
    const first = await run(home, TOP_DE);
    const file = countriesFile(home);
    for (const garbage of ['{"savedAt": 17', '{"savedAt":"soon","value":[]}']) {
      writeFileSync(file, garbage);
      const repaired = await run(home, TOP_DE);
      expect(repaired.stdout).toBe(first.stdout);
      expect(countriesRequests(repaired.entries)).toBe(1);
      const rewritten = JSON.parse(readFileSync(file, 'utf8')) as { value: unknown[] };
      expect(rewritten.value.length).toBeGreaterThan(10);
      expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(0);
    }
  });

  it('drops an entry whose value no longer matches its digest (a bit flipped on disk) and fetches again', async () => {
    const home = tempDir();
    const first = await run(home, TOP_DE);
    const file = countriesFile(home);
    const text = readFileSync(file, 'utf8');
    // One letter of a country's name changed: still JSON, still the list's shape, no longer what was fetched.
    const flipped = text.replace(/"countryName":"(.)/, (_match, letter: string) => `"countryName":"${letter === 'X' ? 'Y' : 'X'}`);
    expect(flipped).not.toBe(text);
    writeFileSync(file, flipped);
    const again = await run(home, TOP_DE);
    expect(countriesRequests(again.entries)).toBe(1);
    expect(again.stdout).toBe(first.stdout);
    expect(readFileSync(file, 'utf8')).toBe(text.replace(/"savedAt":\d+/, (readFileSync(file, 'utf8').match(/"savedAt":\d+/) ?? [''])[0]));
  });

  it('keeps entries 24 hours by default, as long as the profile\'s cache-ttl says otherwise', async () => {
    const home = tempDir();
    await run(home, TOP_DE);
    const file = countriesFile(home);

    age(file, 23);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(0);
    age(file, 25);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(1);

    // cache-ttl 48: a 25-hour-old entry is still fresh.
    expect((await runCliWithHome(home, ['config', 'set', 'cache-ttl', '48'])).code).toBe(0);
    age(file, 25);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(0);
    age(file, 49);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(1);

    // The setting is per profile: another profile keeps the 24-hour default.
    expect((await runCliWithHome(home, ['--profile', 'other', 'config', 'set', 'retries', '3'])).code).toBe(0);
    expect(countriesRequests((await run(home, TOP_DE, { NEWSSTATS_PROFILE: 'other' })).entries)).toBe(1);
    age(countriesFile2(home, file), 25);
    expect(countriesRequests((await run(home, TOP_DE, { NEWSSTATS_PROFILE: 'other' })).entries)).toBe(1);

    // cache-ttl 0 turns it off: every run asks.
    expect((await runCliWithHome(home, ['config', 'set', 'cache-ttl', '0'])).code).toBe(0);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(1);
    expect(countriesRequests((await run(home, TOP_DE)).entries)).toBe(1);
  });
});

/** The countries entry of a home other than `known` (a second profile's). */
function countriesFile2(home: string, known: string): string {
  const files = filesUnder(join(home, 'cache', 'newsstats')).filter((file) => file.endsWith('countries.json') && file !== known);
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe('sources cache', () => {
  it('caches sources lists per country filter, sharing the countries entry', async () => {
    const home = tempDir();
    const first = await run(home, ['sources', 'list', '--country', 'DE', '-f', 'csv']);
    expect(countPath(first.entries, '/api/data/sources')).toBe(1);
    const second = await run(home, ['sources', 'list', '--country', 'DE', '-f', 'csv']);
    expect(second.entries).toEqual([]);
    expect(second.stdout).toBe(first.stdout);

    // The unfiltered list is its own entry; json output is the same from the cache as from the API.
    const all = await run(home, ['sources', 'list', '-f', 'json']);
    expect(countPath(all.entries, '/api/data/sources')).toBe(1);
    const cached = await run(home, ['sources', 'list', '-f', 'json']);
    expect(cached.entries).toEqual([]);
    expect(cached.stdout).toBe(all.stdout);
    expect(cached.stdout).toBe((await runCli(['sources', 'list', '-f', 'json'], { env })).stdout);

    // countries list reads the same countries entry that --country filled.
    const countries = await run(home, ['countries', 'list', '-f', 'csv']);
    expect(countries.entries).toEqual([]);
    expect(countries.stdout.split('\n').length).toBeGreaterThan(10);
  });
});

describe('week info', () => {
  it('is fetched at most once per run', async () => {
    // (people trend, export without --weeks and panels over last4 are checked in their own files.)
    const runs: Array<[string[], number]> = [
      [['people', 'top', '--weeks', 'last12', '--per-week', '--limit', '2', '--country', 'DE'], 1],
      [['export', 'links', '--top', '3', '--weeks', 'last4', '--limit', '2', '--from-country', 'DE'], 1],
      [['people', 'top', '--weeks', '202640..202647', '--per-week', '--limit', '2'], 0],
    ];
    for (const [args, expected] of runs) {
      const { result, entries } = await logOf(log, () => runCli([...args, '-f', 'csv'], { env }));
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(countPath(entries, '/api/data/weeks/current'), args.join(' ')).toBe(expected);
    }
  });
});
