/**
 * Bulk exports: `export country-stats` and `export links` over the top N people. Expected rows come
 * from the sandbox directly (the ranking, then each person's request, in rank order); the sandbox's
 * request log shows the concurrency bound and the pinned window; fault injection shows retries give
 * byte-identical output and that a failure names its request, exits 5 and leaves no partial file.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  apiGet, countPath, csvHeader, csvRecords, type Json, logFilePath, logOf, maxInFlight, MemoryOutput, readLog, runCli, runCliOnTerminal, sandbox, sandboxEnv, tcpPassThrough, tempDir, text, useLoggedSandbox,
} from './harness.js';

const logged = useLoggedSandbox();


type Window = { startWeek: number; endWeek: number };

async function expectedCountryStats(target: RunningSandbox, top: number, window: Window, params: Record<string, string | number | undefined> = {}) {
  const ranking = (await apiGet(target, '/people/top', { ...params, ...window, limit: top })) as Json[];
  const rows: Record<string, string>[] = [];
  for (const person of ranking) {
    const stats = (await apiGet(target, `/people/${encodeURIComponent(text(person.personHash))}/country-stats`, window)) as Json;
    for (const country of stats.countries as Json[]) {
      rows.push({
        rank: text(person.rank),
        fullName: text(person.fullName),
        personHash: text(person.personHash),
        startWeek: text(stats.startWeek),
        endWeek: text(stats.endWeek),
        countryIso: text(country.countryIso),
        mentions: text(country.mentions),
        localDominance: text(country.localDominance),
        sentiment: text(country.sentiment),
        gdp: text(country.gdp),
      });
    }
  }
  return { ranking, rows };
}

function pick(records: Array<Record<string, string>>, fields: readonly string[]) {
  return records.map((record) => Object.fromEntries(fields.map((field) => [field, record[field]])));
}

const STATS_COMPARED = ['rank', 'fullName', 'personHash', 'startWeek', 'endWeek', 'countryIso', 'mentions', 'localDominance', 'sentiment', 'gdp'];

describe('export country-stats', () => {
  it('writes one row a person and country, in rank order, rank, person and window columns first', async () => {
    const { result, entries } = await logOf(logged.log, () =>
      runCli(['export', 'country-stats', '--top', '6', '--weeks', '202644..202647', '-f', 'csv'], { env: logged.env }),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(csvHeader(result.stdout).slice(0, 5)).toEqual(['rank', 'fullName', 'personHash', 'startWeek', 'endWeek']);
    const { ranking, rows } = await expectedCountryStats(logged.server, 6, { startWeek: 202644, endWeek: 202647 });
    expect(ranking).toHaveLength(6);
    const records = csvRecords(result.stdout);
    expect(records).toHaveLength(rows.length);
    expect(pick(records, STATS_COMPARED)).toEqual(rows);

    // One ranking, then exactly one country-stats request per ranked person, all over the window.
    expect(countPath(entries, '/api/data/people/top')).toBe(1);
    const stats = entries.filter((entry) => entry.path.endsWith('/country-stats'));
    expect(stats.map((entry) => entry.path).sort()).toEqual(
      ranking.map((person) => `/api/data/people/${text(person.personHash)}/country-stats`).sort(),
    );
    for (const entry of stats) expect(entry.query).toEqual({ startWeek: '202644', endWeek: '202647' });
  });

  it('ranks with the people-top filters and pins the four complete weeks before the current one when no --weeks is given (#31)', async () => {
    const countries = (await apiGet(logged.server, '/countries')) as Json[];
    const germany = text(countries.find((country) => country.countryIso === 'DE')!.countryId);
    const { result, entries } = await logOf(logged.log, () =>
      runCli(['export', 'country-stats', '--top', '4', '--country', 'DE', '--sort', 'dominance', '-f', 'csv'], { env: logged.env }),
    );
    expect(result.code).toBe(0);
    const { rows } = await expectedCountryStats(logged.server, 4, { startWeek: 202643, endWeek: 202646 }, { countryId: germany, sortBy: 'dominance' });
    expect(rows.length).toBeGreaterThan(0);
    expect(pick(csvRecords(result.stdout), STATS_COMPARED)).toEqual(rows);

    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
    const [top] = entries.filter((entry) => entry.path === '/api/data/people/top');
    expect(top!.query).toEqual({ startWeek: '202643', endWeek: '202646', limit: '4', countryId: germany, sortBy: 'dominance' });
    for (const entry of entries.filter((e) => e.path.endsWith('/country-stats'))) {
      expect(entry.query).toEqual({ startWeek: '202643', endWeek: '202646' });
    }
  });

  it('streams the same rows as json and ndjson', async () => {
    const args = ['export', 'country-stats', '--top', '3', '--weeks', '202644..202647'];
    const [csv, json, ndjson] = await Promise.all([
      runCli([...args, '-f', 'csv'], { env: logged.env }),
      runCli([...args, '-f', 'json'], { env: logged.env }),
      runCli([...args, '-f', 'ndjson'], { env: logged.env }),
    ]);
    const key = (row: Record<string, unknown>) => `${row.rank}/${row.personHash}/${row.countryIso}/${row.mentions}`;
    const expected = csvRecords(csv.stdout).map(key);
    expect(expected.length).toBeGreaterThan(3);
    const jsonRows = JSON.parse(json.stdout) as Json[];
    expect(Object.keys(jsonRows[0]!).slice(0, 5)).toEqual(['rank', 'fullName', 'personHash', 'startWeek', 'endWeek']);
    expect(jsonRows.map(key)).toEqual(expected);
    expect(ndjson.stdout.trimEnd().split('\n').map((line) => key(JSON.parse(line) as Json))).toEqual(expected);
  });

  it('writes the same bytes to --output as to stdout', async () => {
    const dir = tempDir();
    const file = join(dir, 'stats.csv');
    const [piped, toFile] = await Promise.all([
      runCli(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '-f', 'csv'], { env: logged.env }),
      runCli(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '--output', file], { env: logged.env }),
    ]);
    expect(toFile.code).toBe(0);
    expect(toFile.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);
    expect(readdirSync(dir)).toEqual(['stats.csv']);
  });
});

describe('export links', () => {
  it('writes each ranked person\'s links in rank order, article hashes exact', async () => {
    const { result, entries } = await logOf(logged.log, () =>
      runCli(['export', 'links', '--top', '3', '--limit', '4', '--weeks', '202644..202647', '-f', 'csv'], { env: logged.env }),
    );
    expect(result.code).toBe(0);
    expect(csvHeader(result.stdout).slice(0, 3)).toEqual(['rank', 'fullName', 'personHash']);
    const ranking = (await apiGet(logged.server, '/people/top', { startWeek: 202644, endWeek: 202647, limit: 3 })) as Json[];
    const expected: Array<Record<string, string>> = [];
    for (const person of ranking) {
      const links = (await apiGet(logged.server, `/people/${text(person.personHash)}/links`, { limit: 4 })) as Json[];
      for (const link of links) {
        expected.push({ rank: text(person.rank), personHash: text(link.personHash), articleHash: text(link.articleHash), mentionDate: text(link.mentionDate), sourceName: text(link.sourceName) });
      }
    }
    expect(expected.length).toBe(12);
    // articleHash exceeds 2^53: the digits must survive untouched.
    expect(expected.some((row) => BigInt(row.articleHash!) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(pick(csvRecords(result.stdout), ['rank', 'personHash', 'articleHash', 'mentionDate', 'sourceName'])).toEqual(expected);
    const links = entries.filter((entry) => entry.path.endsWith('/links'));
    expect(links).toHaveLength(3);
    for (const entry of links) expect(entry.query).toMatchObject({ limit: '4' });
  });

  it('--no-context exports the base link fields only', async () => {
    const result = await runCli(['export', 'links', '--top', '2', '--limit', '2', '--no-context', '-f', 'csv'], { env: logged.env });
    expect(result.code).toBe(0);
    const header = csvHeader(result.stdout);
    expect(header.slice(0, 3)).toEqual(['rank', 'fullName', 'personHash']);
    expect(header).not.toContain('sourceName');
    expect(csvRecords(result.stdout)).toHaveLength(4);
  });
});

describe('export concurrency and streaming', () => {
  let slow: RunningSandbox;
  let slowLog: string;
  beforeAll(async () => {
    slowLog = logFilePath();
    slow = await sandbox({ latencyMs: 100, logFile: slowLog });
  });
  afterAll(async () => {
    await slow?.close();
  });

  it('keeps at most --concurrency requests in flight (default 4) and still writes rows in rank order', async () => {
    const window = { startWeek: 202644, endWeek: 202647 };
    const { rows } = await expectedCountryStats(logged.server, 20, window);
    for (const [flags, bound] of [[[], 4], [['--concurrency', '2'], 2]] as const) {
      const { result, entries } = await logOf(slowLog, () =>
        runCli(['export', 'country-stats', '--top', '20', '--weeks', '202644..202647', '-f', 'csv', ...flags], { env: sandboxEnv(slow) }),
      );
      expect(result.code).toBe(0);
      // Answers arrive in random order (latency 50-150 ms each); rows do not.
      expect(pick(csvRecords(result.stdout), STATS_COMPARED)).toEqual(rows);
      const stats = entries.filter((entry) => entry.path.endsWith('/country-stats'));
      expect(stats).toHaveLength(20);
      expect(maxInFlight(stats)).toBe(bound);
    }
  });

  it('shares one keep-alive pool: at most --concurrency connections, reused across requests', async () => {
    for (const [flags, bound] of [[[], 4], [['--concurrency', '2'], 2]] as const) {
      const proxy = await tcpPassThrough(slow.url);
      try {
        const { result, entries } = await logOf(slowLog, () =>
          runCli(['export', 'country-stats', '--top', '20', '--weeks', '202644..202647', '-f', 'csv', ...flags], {
            env: sandboxEnv({ url: proxy.url, key: slow.key }),
          }),
        );
        expect(result.code).toBe(0);
        expect(entries).toHaveLength(21);
        // 21 requests over exactly as many connections as requests in flight: none opened per request.
        expect(proxy.connections()).toBe(bound);
      } finally {
        await proxy.close();
      }
    }
  });

  it('streams rows: the first row is out long before the last request is answered', async () => {
    let firstChunkAt: number | undefined;
    const stdout = new (class extends MemoryOutput {
      override _write(chunk: string | Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
        firstChunkAt ??= Date.now();
        super._write(chunk, encoding, done);
      }
    })();
    const { result, entries } = await logOf(slowLog, () =>
      runCli(['export', 'country-stats', '--top', '10', '--weeks', '202644..202647', '--concurrency', '1', '-f', 'csv'], { env: sandboxEnv(slow), stdout }),
    );
    expect(result.code).toBe(0);
    const stats = entries.filter((entry) => entry.path.endsWith('/country-stats'));
    expect(stats).toHaveLength(10);
    expect(maxInFlight(stats)).toBe(1);
    const last = stats.at(-1)!;
    const lastAnsweredAt = Date.parse(last.time) + last.ms;
    // Nine more requests of 50-150 ms each follow the first person's rows.
    expect(firstChunkAt).toBeDefined();
    expect(firstChunkAt!).toBeLessThan(lastAnsweredAt - 200);
  });
});

describe('export under faults', () => {
  it('gives byte-identical output with a 20% fail rate as without faults', async () => {
    const faultyLog = logFilePath();
    const [clean, faulty] = await Promise.all([sandbox({ seed: 7 }), sandbox({ seed: 7, failRate: 0.2, logFile: faultyLog })]);
    try {
      const args = ['export', 'country-stats', '--top', '30', '--weeks', 'complete4', '--retries', '10', '-f', 'csv'];
      const [reference, retried] = await Promise.all([
        runCli(args, { env: sandboxEnv(clean) }),
        runCli(args, { env: sandboxEnv(faulty), timeoutMs: 60_000 }),
      ]);
      expect(reference.code).toBe(0);
      expect(retried.stderr).toBe('');
      expect(retried.code).toBe(0);
      expect(csvRecords(reference.stdout).length).toBeGreaterThan(30);
      expect(retried.stdout).toBe(reference.stdout);
      // The faults really happened, and were retried.
      const entries = await readLog(faultyLog);
      expect(entries.filter((entry) => entry.fault !== undefined).length).toBeGreaterThan(0);
    } finally {
      await Promise.all([clean.close(), faulty.close()]);
    }
  }, 60_000);

  it('a ranking that keeps failing exits 5 and names the request', async () => {
    const broken = await sandbox({ failRate: 1 });
    try {
      const dir = tempDir();
      const file = join(dir, 'out.csv');
      const result = await runCli(['export', 'country-stats', '--top', '3', '--weeks', '202644..202647', '--retries', '1', '--output', file], { env: sandboxEnv(broken) });
      expect(result.code).toBe(5);
      expect(result.stderr).toContain('/api/data/people/top');
      expect(existsSync(file)).toBe(false);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it('a person request failing mid-export exits 5, names that request, and leaves no partial --output file', async () => {
    // Seed 24, fail rate 0.5, requests one at a time: the ranking succeeds, rank 1's country stats
    // succeed (rows already written), rank 2's fail (503). The same seed without faults gives the ranking.
    const reference = await sandbox({ seed: 24 });
    const ranking = (await apiGet(reference, '/people/top', { startWeek: 202644, endWeek: 202647, limit: 6 })) as Json[];
    await reference.close();
    const failing = await sandbox({ seed: 24, failRate: 0.5 });
    try {
      const dir = tempDir();
      const file = join(dir, 'out.csv');
      writeFileSync(file, 'previous export\n');
      const result = await runCli(
        ['export', 'country-stats', '--top', '6', '--weeks', '202644..202647', '--retries', '0', '--concurrency', '1', '--output', file],
        { env: sandboxEnv(failing) },
      );
      expect(result.code).toBe(5);
      const named = /\/api\/data\/people\/([^/\s?]+)\/country-stats/.exec(result.stderr);
      expect(named, result.stderr).not.toBeNull();
      const rank = ranking.findIndex((person) => text(person.personHash) === named![1]) + 1;
      expect(rank).toBeGreaterThan(1);
      // The previous file is untouched and no temporary file is left beside it.
      expect(readFileSync(file, 'utf8')).toBe('previous export\n');
      expect(readdirSync(dir)).toEqual(['out.csv']);
    } finally {
      await failing.close();
    }
  });
});

describe('export progress', () => {
  it('draws a progress bar on stderr when it is a terminal, and nothing otherwise', async () => {
    const dir = tempDir();
    const file = join(dir, 'stats.csv');
    const args = ['export', 'country-stats', '--top', '5', '--weeks', '202644..202647'];
    const [terminal, quiet, piped] = await Promise.all([
      runCliOnTerminal([...args, '--output', file], { env: logged.env }),
      runCliOnTerminal([...args, '--quiet', '--output', join(dir, 'quiet.csv')], { env: logged.env }),
      runCli([...args, '-f', 'csv'], { env: logged.env }),
    ]);
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toContain('\r');
    expect(terminal.stdout).toMatch(/country-stats .*5\/5/);
    expect(readFileSync(file, 'utf8')).toBe(piped.stdout);

    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
  });

  it('draws no bar while rows stream onto the same terminal, and draws it before a terminal table', async () => {
    const args = ['export', 'country-stats', '--top', '5', '--weeks', '202644..202647'];
    const [csvOnTerminal, tableOnTerminal, piped] = await Promise.all([
      runCliOnTerminal([...args, '-f', 'csv'], { env: logged.env }),
      runCliOnTerminal(args, { env: { ...logged.env, NO_COLOR: '1' }, columns: 200 }),
      runCli([...args, '-f', 'csv'], { env: logged.env }),
    ]);
    // Rows and bar on one terminal would interleave: the CSV arrives clean instead.
    expect(csvOnTerminal.code).toBe(0);
    expect(csvOnTerminal.stdout).toBe(piped.stdout);
    // A table is printed at the end: the bar runs first and is erased before it.
    expect(tableOnTerminal.code).toBe(0);
    expect(tableOnTerminal.stdout).toMatch(/^\r\x1b\[Kcountry-stats /);
    const erased = tableOnTerminal.stdout.lastIndexOf('\r\x1b[K');
    expect(tableOnTerminal.stdout.slice(erased + 4)).toMatch(/^ *# {2}NAME /);
    expect(tableOnTerminal.stdout.slice(0, erased)).toContain('5/5');
  });
});
