/**
 * Every output format parsed back and compared with the sandbox's raw answer: JSON, NDJSON, CSV and
 * TSV (read with csv-parse, a real CSV parser), --no-header, --fields, tables on a pipe, and large
 * integers (articleHash > 2^53) kept to the last digit in every format.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  articleHashes, expectSuccess, fakeApi, rawGet, rawJson, runCli, sandbox, sandboxEnv, tempDir,
} from './harness.js';
import { readTsv } from './tsv-read.js';

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox();
});
afterAll(async () => {
  await server?.close();
});

const run = (args: string[]) => runCli(args, { env: sandboxEnv(server) });
const stdoutOf = async (args: string[]) => expectSuccess(await run(args));

const PERSON_FIELDS = ['personHash', 'fullName', 'description', 'gender', 'category', 'countryId', 'countryName', 'birthDate', 'createdAt', 'updatedAt'];
const TWO_TO_53 = 2n ** 53n;

/** A cell as the design says CSV writes it: null and absent empty, numbers and text as they are. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(';');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** CSV through a real parser; TSV by its @tsv escapes (it does not quote). */
function table(text: string, delimiter = ','): string[][] {
  if (delimiter === '\t') return readTsv(text);
  return parse(text, { delimiter, relax_column_count: false }) as string[][];
}

describe.concurrent('json and ndjson', () => {
  test('json is the API value, pretty-printed with two spaces', async () => {
    const [stdout, raw] = await Promise.all([stdoutOf(['people', 'top', '--limit', '5', '-f', 'json']), rawGet(server, 'people/top?limit=5')]);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(raw.text));
    expect(stdout).toBe(`${JSON.stringify(JSON.parse(raw.text), null, 2)}\n`);
  });

  test('ndjson: one compact object per line, one line per row', async () => {
    const [stdout, raw] = await Promise.all([stdoutOf(['people', 'list', '-f', 'ndjson']), rawJson<any[]>(server, 'people')]);
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(raw.length);
    expect(lines.map((line) => JSON.parse(line))).toEqual(raw);
    expect(lines[0]).toBe(JSON.stringify(raw[0]));
  });

  test('ndjson of a single object is one line', async () => {
    expect(await stdoutOf(['weeks', '-f', 'ndjson'])).toBe('{"currentWeek":202647,"last4StartWeek":202644}\n');
  });
});

describe.concurrent('csv and tsv', () => {
  test.each([
    ['csv', ','],
    ['tsv', '\t'],
  ])('people list as %s: header is the fields, every cell equals the API value', async (format, delimiter) => {
    const [stdout, raw] = await Promise.all([stdoutOf(['people', 'list', '-f', format]), rawJson<any[]>(server, 'people')]);
    const [header, ...rows] = table(stdout, delimiter);
    expect(header).toEqual(PERSON_FIELDS);
    expect(rows).toHaveLength(raw.length);
    expect(rows).toEqual(raw.map((person) => PERSON_FIELDS.map((field) => cell(person[field]))));
    // Non-ASCII names survive byte for byte.
    const names = rows.map((row) => row[1]);
    expect(names).toContain('आदित्य शर्मा');
    expect(names).toContain('أحمد الخطيب');
    expect(names).toContain('Álvaro Solís');
    expect(stdout.includes('\r')).toBe(false);
  });

  test('people top csv: snippets (quotes and commas) joined with ";", countryRows as JSON', async () => {
    const [stdout, raw] = await Promise.all([stdoutOf(['people', 'top', '--limit', '100', '-f', 'csv']), rawJson<any[]>(server, 'people/top?limit=100')]);
    const records = parse(stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(100);
    expect(records.map((record) => record.snippets)).toEqual(raw.map((row) => row.snippets.join(';')));
    expect(records.some((record) => record.snippets!.includes('"') && record.snippets!.includes(','))).toBe(true);
    expect(records.map((record) => JSON.parse(record.countryRows!))).toEqual(raw.map((row) => row.countryRows));
    expect(records.map((record) => record.reason)).toEqual(raw.map((row) => row.reason));
    // Numbers are written as sent, negative ones included (no formula-guard quote on numbers).
    expect(records.map((record) => record.sentiment)).toEqual(raw.map((row) => String(row.sentiment)));
    expect(records.map((record) => record.rank)).toEqual(raw.map((_, index) => String(index + 1)));
    expect(records.some((record) => record.sentiment!.startsWith('-'))).toBe(true);
  });

  test('people links csv: otherPeople joined with ";", articlePeople (with commas) in one cell', async () => {
    const [stdout, raw] = await Promise.all([
      stdoutOf(['people', 'links', 'hira-abbasi-d893', '--limit', '30', '-f', 'csv']),
      rawJson<any[]>(server, 'people/hira-abbasi-d893/links?limit=30'),
    ]);
    const records = parse(stdout, { columns: true }) as Array<Record<string, string>>;
    expect(records.map((record) => record.otherPeople)).toEqual(raw.map((link) => link.otherPeople.join(';')));
    expect(records.map((record) => record.articlePeople)).toEqual(raw.map((link) => link.articlePeople));
    expect(records.some((record) => record.otherPeople!.includes(';'))).toBe(true);
    expect(records.map((record) => record.snippet)).toEqual(raw.map((link) => link.snippet));
  });

  test('--no-header leaves the header row out', async () => {
    const [withHeader, without] = await Promise.all([
      stdoutOf(['countries', 'list', '-f', 'csv']),
      stdoutOf(['countries', 'list', '-f', 'csv', '--no-header']),
    ]);
    const rows = table(without);
    expect(rows).toHaveLength(52);
    expect(rows[0]).toEqual(['1', 'Argentina', 'AR']);
    expect(table(withHeader)).toEqual([['countryId', 'countryName', 'countryIso'], ...rows]);
  });

  test('--fields selects and orders csv columns', async () => {
    const [stdout, raw] = await Promise.all([
      stdoutOf(['people', 'list', '--fields', 'fullName,personHash', '-f', 'csv']),
      rawJson<any[]>(server, 'people'),
    ]);
    expect(table(stdout)).toEqual([['fullName', 'personHash'], ...raw.map((person) => [person.fullName, person.personHash])]);
  });

  test('--fields selects and orders json keys', async () => {
    const [stdout, raw] = await Promise.all([
      stdoutOf(['people', 'top', '--limit', '3', '--fields', 'mentionCount,rank,personHash', '-f', 'json']),
      rawJson<any[]>(server, 'people/top?limit=3'),
    ]);
    const rows = JSON.parse(stdout) as Array<Record<string, unknown>>;
    expect(rows.map((row) => Object.keys(row))).toEqual([0, 1, 2].map(() => ['mentionCount', 'rank', 'personHash']));
    expect(rows).toEqual(raw.map((row) => ({ mentionCount: row.mentionCount, rank: row.rank, personHash: row.personHash })));
  });
});

describe.concurrent('table on a pipe', () => {
  test('-f table to a non-terminal: tab-separated, default columns, no borders', async () => {
    const [stdout, raw] = await Promise.all([stdoutOf(['people', 'top', '--limit', '3', '-f', 'table']), rawJson<any[]>(server, 'people/top?limit=3')]);
    expect(stdout).not.toMatch(/[│─┌┐└┘├┤┬┴┼|+]|\x1b\[/);
    const lines = stdout.split('\n');
    expect(lines.pop()).toBe('');
    const columns = ['rank', 'fullName', 'personHash', 'mentionCount', 'dominance', 'sentiment', 'reach', 'power', 'persistence', 'fromCountryName'];
    expect(lines.map((line) => line.split('\t'))).toEqual([columns, ...raw.map((row) => columns.map((column) => String(row[column] ?? '')))]);
  });

  test('a single object prints as field/value pairs', async () => {
    expect(await stdoutOf(['weeks', '-f', 'table'])).toBe('currentWeek\t202647\nlast4StartWeek\t202644\n');
  });
});

describe.concurrent('format from the --output extension', () => {
  test.each([
    ['x.csv', (text: string) => table(text)[0]],
    ['x.tsv', (text: string) => table(text, '\t')[0]],
    ['x.ndjson', (text: string) => Object.keys(JSON.parse(text.split('\n')[0]!))],
    ['x.jsonl', (text: string) => Object.keys(JSON.parse(text.split('\n')[0]!))],
    ['x.json', (text: string) => Object.keys((JSON.parse(text) as object[])[0]!)],
  ])('%s', async (name, header) => {
    const dir = tempDir('newsstats-e2e-ext-');
    const path = join(dir, name);
    expect(await stdoutOf(['countries', 'list', '--output', path])).toBe('');
    const text = readFileSync(path, 'utf8');
    expect(header(text)).toEqual(['countryId', 'countryName', 'countryIso']);
    if (name.endsWith('.ndjson') || name.endsWith('.jsonl')) expect(text.trimEnd().split('\n')).toHaveLength(52);
    if (name.endsWith('.json')) expect(text.startsWith('[\n  {')).toBe(true);
  });

  test('an explicit --format wins over the extension', async () => {
    const path = join(tempDir('newsstats-e2e-ext-'), 'x.csv');
    await stdoutOf(['countries', 'list', '-f', 'json', '--output', path]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveLength(52);
  });
});

describe.concurrent('large integers are exact', () => {
  test('people links -f json keeps every articleHash digit', async () => {
    const [stdout, raw] = await Promise.all([
      stdoutOf(['people', 'links', 'hira-abbasi-d893', '--limit', '50', '-f', 'json']),
      rawGet(server, 'people/hira-abbasi-d893/links?limit=50'),
    ]);
    const expected = articleHashes(raw.text);
    expect(expected).toHaveLength(50);
    expect(expected.every((hash) => BigInt(hash) > TWO_TO_53)).toBe(true);
    // A float round trip would change these: the test is only meaningful if some do.
    expect(expected.filter((hash) => BigInt(Number(hash)) !== BigInt(hash)).length).toBeGreaterThan(0);
    expect(articleHashes(stdout)).toEqual(expected);
  });

  test('articles recent -f csv keeps every articleHash digit', async () => {
    const [stdout, raw] = await Promise.all([
      stdoutOf(['articles', 'recent', '--limit', '200', '-f', 'csv']),
      rawGet(server, 'articles/recent?limit=200'),
    ]);
    const expected = articleHashes(raw.text);
    expect(expected).toHaveLength(200);
    expect(expected.every((hash) => BigInt(hash) > TWO_TO_53)).toBe(true);
    const hashes = (parse(stdout, { columns: true }) as Array<Record<string, string>>).map((record) => record.articleHash);
    expect(hashes).toEqual(expected);
  });

  test('ndjson, tsv and table keep them too', async () => {
    const [ndjson, tsv, tableText, raw] = await Promise.all([
      stdoutOf(['articles', 'recent', '--limit', '20', '-f', 'ndjson']),
      stdoutOf(['articles', 'recent', '--limit', '20', '-f', 'tsv', '--fields', 'articleHash']),
      stdoutOf(['articles', 'recent', '--limit', '20', '-f', 'table']),
      rawGet(server, 'articles/recent?limit=20'),
    ]);
    const expected = articleHashes(raw.text);
    expect(articleHashes(ndjson)).toEqual(expected);
    expect(table(tsv, '\t')).toEqual([['articleHash'], ...expected.map((hash) => [hash])]);
    expect(tableText.split('\n').slice(1, -1).map((line) => line.split('\t')[0])).toEqual(expected);
  });
});

describe('cells the synthetic data never has (a stand-in service)', () => {
  const person = {
    personHash: 'tricky-0001',
    fullName: 'Smith, "Jo"\nJunior',
    description: '=HYPERLINK("http://evil.example","x")',
    gender: 0,
    category: '@sport',
    countryId: -1,
    countryName: '東京 🌏',
    birthDate: null,
    createdAt: '2020-01-01T00:00:00',
    updatedAt: '2020-01-01T00:00:00',
  };
  const tabbed = { ...person, personHash: 'tricky-0002', fullName: 'Tab\there', description: '\tleading tab', category: 'sport', countryId: 7 };
  // An identifier beyond 2^64: every digit as sent, in every text format.
  const body = `[${JSON.stringify(person).replace('"countryId":-1', '"countryId":-123456789012345678901234567890')},${JSON.stringify(tabbed)}]`;

  test.concurrent.each([
    ['csv', ','],
    ['tsv', '\t'],
  ])('%s: comma, quote, tab and newline survive; formulas are defused; numbers stay as sent', async (format, delimiter) => {
    const fake = await fakeApi({ '/api/data/people': body });
    try {
      const result = await runCli(['people', 'list', '-f', format], { env: sandboxEnv(fake) });
      const rows = table(expectSuccess(result), delimiter);
      expect(rows).toEqual([
        PERSON_FIELDS,
        [
          'tricky-0001',
          'Smith, "Jo"\nJunior',
          '\'=HYPERLINK("http://evil.example","x")',
          '0',
          '\'@sport',
          '-123456789012345678901234567890',
          '東京 🌏',
          '',
          '2020-01-01T00:00:00',
          '2020-01-01T00:00:00',
        ],
        ['tricky-0002', 'Tab\there', "'\tleading tab", '0', 'sport', '7', '東京 🌏', '', '2020-01-01T00:00:00', '2020-01-01T00:00:00'],
      ]);
    } finally {
      await fake.close();
    }
  });

  test.concurrent('tsv and the piped table: cut -f2 gets one line a record, the text escaped as jq @tsv', async () => {
    const fake = await fakeApi({ '/api/data/people': body });
    try {
      for (const format of ['tsv', 'table']) {
        // The CLI in-process; its output through the real cut.
        const stdout = expectSuccess(await runCli(['people', 'list', '-f', format, '--fields', 'personHash,fullName'], { env: sandboxEnv(fake) }));
        const result = spawnSync('cut', ['-f2'], { input: stdout, encoding: 'utf8' });
        expect(result.status).toBe(0);
        expect(result.stdout).toBe('fullName\nSmith, "Jo"\\nJunior\nTab\\there\n');
      }
    } finally {
      await fake.close();
    }
  });

  test.concurrent('json keeps the number text as sent (an identifier beyond 2^64, every digit)', async () => {
    const fake = await fakeApi({ '/api/data/people': body });
    try {
      const stdout = expectSuccess(await runCli(['people', 'list', '-f', 'json'], { env: sandboxEnv(fake) }));
      expect(stdout).toContain('"countryId": -123456789012345678901234567890');
      expect(stdout).toContain('"fullName": "Smith, \\"Jo\\"\\nJunior"');
    } finally {
      await fake.close();
    }
  });
});
