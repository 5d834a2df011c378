/**
 * --output FILE is atomic: a successful run leaves the complete file (parsed back here), a failed or
 * interrupted run leaves an existing target byte-identical, and neither leaves a temporary file.
 */
import { addWeeks } from '../../src/shared/weeks.js';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  type CliResult, expectFailure, expectSuccess, fakeApi, HANG, listDir, rawJson, readLog, runCli, sandbox, sandboxEnv, spawnCli, tempDir,
} from './harness.js';

let server: RunningSandbox;
let failing: RunningSandbox;
beforeAll(async () => {
  [server, failing] = await Promise.all([sandbox(), sandbox({ failRate: 1 })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), failing?.close()]);
});

const run = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { env: sandboxEnv(server, extra) });

const ORIGINAL = Buffer.from('personHash,fullName\nkeep-me,"Do not, touch"\n\u00e9\u0000\n', 'utf8');

/** A directory holding only a pre-existing target with known bytes. */
function existingTarget(name: string): { dir: string; path: string } {
  const dir = tempDir('newsstats-e2e-output-');
  const path = join(dir, name);
  writeFileSync(path, ORIGINAL);
  return { dir, path };
}

function expectUntouched(dir: string, path: string, name: string): void {
  expect(readFileSync(path).equals(ORIGINAL)).toBe(true);
  expect(listDir(dir)).toEqual([name]);
}

describe.concurrent('a successful run writes the complete file', () => {
  test('json by extension, equal to the API value, nothing on stdout', async () => {
    const dir = tempDir('newsstats-e2e-output-');
    const path = join(dir, 'people.json');
    const result = await run(['people', 'list', '--output', path]);
    expect(expectSuccess(result)).toBe('');
    expect(result.stderr).toBe('');
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(await rawJson(server, 'people'));
    expect(listDir(dir)).toEqual(['people.json']);
  });

  test('-o x.csv picks csv', async () => {
    const dir = tempDir('newsstats-e2e-output-');
    const path = join(dir, 'x.csv');
    expectSuccess(await run(['people', 'top', '--limit', '25', '-o', path]));
    // A file gets the four complete weeks before the current one by default (#31).
    const { currentWeek } = await rawJson<{ currentWeek: number }>(server, 'weeks/current');
    const [startWeek, endWeek] = [addWeeks(Number(currentWeek), -4), addWeeks(Number(currentWeek), -1)];
    const raw = await rawJson<any[]>(server, `people/top?limit=25&startWeek=${startWeek}&endWeek=${endWeek}`);
    const records = parse(readFileSync(path, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => record.personHash)).toEqual(raw.map((row) => row.personHash));
    expect(records.map((record) => record.mentionCount)).toEqual(raw.map((row) => String(row.mentionCount)));
    expect(listDir(dir)).toEqual(['x.csv']);
  });

  test('an existing target is replaced whole, keeping its mode', async () => {
    const { dir, path } = existingTarget('countries.csv');
    chmodSync(path, 0o640);
    expectSuccess(await run(['countries', 'list', '-o', path]));
    const rows = parse(readFileSync(path, 'utf8')) as string[][];
    expect(rows[0]).toEqual(['countryId', 'countryName', 'countryIso']);
    expect(rows).toHaveLength(53);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(listDir(dir)).toEqual(['countries.csv']);
  });

  test('a streamed export is complete in the file', async () => {
    const dir = tempDir('newsstats-e2e-output-');
    const path = join(dir, 'stats.ndjson');
    expectSuccess(await run(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '-q', '-o', path]));
    const rows = readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    const top = await rawJson<any[]>(server, 'people/top?startWeek=202644&endWeek=202647&limit=3');
    const expected = await Promise.all(
      top.map((person) => rawJson<any>(server, `people/${person.personHash}/country-stats?startWeek=202644&endWeek=202647`)),
    );
    expect(rows).toHaveLength(expected.reduce((total, stats) => total + stats.countries.length, 0));
    expect(rows.map((row) => `${row.rank} ${row.personHash} ${row.countryIso}`)).toEqual(
      top.flatMap((person, index) => expected[index].countries.map((country: any) => `${person.rank} ${person.personHash} ${country.countryIso}`)),
    );
    expect(listDir(dir)).toEqual(['stats.ndjson']);
  });
});

describe.concurrent('a failed run leaves an existing target byte-identical and no temporary file', () => {
  const failures: Array<[string, (path: string) => Promise<CliResult>, number]> = [
    ['unknown person (4)', (path) => run(['people', 'get', 'nobody-0000', '-o', path]), 4],
    ['every request failing, --retries 0 (5)', (path) => runCli(['people', 'list', '--retries', '0', '-o', path], { env: sandboxEnv(failing) }), 5],
    ['a rejected key (3)', (path) => run(['people', 'list', '-o', path], { NEWSSTATS_API_KEY: 'wrong-key-0000' }), 3],
    ['an out-of-range bound (2)', (path) => run(['posts', 'recent', '--count', '51', '-o', path]), 2],
    ['an unknown field (2)', (path) => run(['people', 'list', '--fields', 'nope', '-o', path]), 2],
  ];

  test.each(failures)('%s', async (_name, attempt, exitCode) => {
    const { dir, path } = existingTarget('target.csv');
    expectFailure(await attempt(path), exitCode);
    expectUntouched(dir, path, 'target.csv');
  });
});

describe('an --output path that cannot be written is refused before any request', () => {
  const logDir = tempDir('newsstats-e2e-output-log-');
  const log = join(logDir, 'requests.log');
  let logged: RunningSandbox;
  beforeAll(async () => {
    logged = await sandbox({ logFile: log });
  });
  afterAll(async () => {
    await logged?.close();
  });

  // A place the system cannot write is exit 6, the documented "output could not be written" (#18);
  // a folder given where a file belongs is the user's slip, exit 2.
  test.concurrent.each([
    ['a missing directory', 6, (dir: string) => join(dir, 'missing', 'x.csv')],
    ['a file as directory', 6, (dir: string) => (writeFileSync(join(dir, 'plain'), ''), join(dir, 'plain', 'x.csv'))],
    ['a directory', 2, (dir: string) => dir],
  ])('%s: exit %i, one line naming the path, no temporary file name, no request', async (_name, exitCode, target) => {
    const dir = tempDir('newsstats-e2e-output-');
    const path = target(dir);
    const line = expectFailure(await runCli(['countries', 'list', '-o', path], { env: sandboxEnv(logged) }), exitCode, path);
    expect(line).not.toContain('.tmp');
    expect(listDir(dir)).toEqual(path.includes('plain') ? ['plain'] : []);
  });

  test('-o /nonexistent/dir/x.csv: exit 6 and one line saying which directory is missing', async () => {
    const result = await runCli(['countries', 'list', '-o', '/nonexistent/dir/x.csv'], { env: sandboxEnv(logged) });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: cannot write to /nonexistent/dir/x.csv: the directory /nonexistent/dir does not exist (ENOENT)\n');
  });

  test('-o /proc/top.csv: exit 6 naming the true reason (the folder exists, but takes no file), not "no such directory"', async () => {
    const result = await runCli(['countries', 'list', '-o', '/proc/top.csv'], { env: sandboxEnv(logged) });
    expect(result.code).toBe(6);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/no such directory|does not exist/);
    // As root: proc takes no new file; as anyone else: /proc is not writable. Either is the truth.
    expect(result.stderr).toMatch(/^error: cannot write to \/proc\/top\.csv: the directory \/proc (exists but cannot hold a file: it is the kernel's process file system \(proc\), not a regular file system|is not writable)/);
  });

  test('-o s3://bucket/x.csv: exit 2, one line saying -o writes a local file, a hint to pipe it; no folder s3: made', async () => {
    const cwd = tempDir('newsstats-e2e-output-');
    for (const [address, hint] of [
      ['s3://bucket/top.csv', /^hint: to put it in object storage, write to stdout and pipe it: leave out -o, add -f csv, then \| aws s3 cp - s3:\/\/bucket\/top\.csv/m],
      ['s3://bucket/top', /add -f FORMAT/],
      ['gs://bucket/top.json', /^hint: give a local file, e.g. --output top\.csv$/m],
    ] as const) {
      const result = await runCli(['countries', 'list', '-o', address], { env: sandboxEnv(logged), cwd });
      expectFailure(result, 2, `cannot write --output ${address}: --output writes a local file, and ${address.slice(0, address.indexOf(':'))}:// names none`);
      expect(result.stderr, address).toMatch(hint);
    }
    expect(listDir(cwd)).toEqual([]);
  });

  test('the service was not asked', async () => {
    // The sandbox runs in this process: readLog has every line it logged, with no wait.
    expect(await readLog(log)).toEqual([]);
  });
});

describe('failures after the file was half written', () => {
  const people = [1, 2, 3].map((rank) => ({ rank, personHash: `p${rank}`, fullName: `Person ${rank}`, mentionCount: 10 - rank }));
  /** Two links a person, with articleHash beyond 2^53 written as digits. */
  const links = (personHash: string) =>
    `[${[1, 2]
      .map((n) => `{"personHash":"${personHash}","articleHash":1234567890123456789${n},"mentionDate":"2026-11-20T10:00:00","snippet":"snippet ${n}","sentiment":0.5}`)
      .join(',')}]`;
  const routes = {
    '/api/data/people/top': JSON.stringify(people),
    '/api/data/people/p1/links': links('p1'),
    '/api/data/people/p2/links': links('p2'),
  };
  const args = ['export', 'links', '--top', '3', '--weeks', '202644..202647', '--no-context', '--concurrency', '1', '-q'];

  test('a 404 on the third person: rows of the first two were streamed, yet the target is untouched', async () => {
    const fake = await fakeApi(routes);
    try {
      // To stdout, the first two people's rows come out before the error: the export streams.
      const streamed = await runCli([...args, '-f', 'ndjson'], { env: sandboxEnv(fake) });
      expect(streamed.code).toBe(4);
      expect(streamed.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).personHash)).toEqual(['p1', 'p1', 'p2', 'p2']);

      const { dir, path } = existingTarget('links.ndjson');
      const result = await runCli([...args, '-o', path], { env: sandboxEnv(fake) });
      expectFailure(result, 4, 'p3');
      expectUntouched(dir, path, 'links.ndjson');
    } finally {
      await fake.close();
    }
  });

  test('Ctrl-C while the third person hangs: target untouched, no temporary file', async () => {
    const fake = await fakeApi({ ...routes, '/api/data/people/p3/links': HANG });
    const { dir, path } = existingTarget('links.csv');
    let temporaryFiles: string[] | undefined;
    try {
      // A process of its own: a real SIGINT, and what it leaves on disk, are the point.
      const result = await spawnCli([...args, '--timeout', '3', '-o', path], {
        env: sandboxEnv(fake),
        onSpawn: (child) => {
          const timer = setInterval(() => {
            if (fake.requests.some((url) => url.startsWith('/api/data/people/p3/links'))) {
              clearInterval(timer);
              // The first two people's rows are in the temporary file by now.
              temporaryFiles = listDir(dir).filter((name) => name.endsWith('.tmp'));
              child.kill('SIGINT');
            }
          }, 20);
          child.on('close', () => clearInterval(timer));
        },
      });
      expect(temporaryFiles).toEqual([expect.stringMatching(/^\.links\.csv\.\d+\.[0-9a-f]+\.tmp$/)]);
      expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 130, signal: null, stdout: '' });
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expectUntouched(dir, path, 'links.csv');
    } finally {
      await fake.close();
    }
  });
});
