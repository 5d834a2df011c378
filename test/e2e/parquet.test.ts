/**
 * -f parquet / -o FILE.parquet as the user meets them: real runs against the sandbox, files read back
 * with DuckDB and compared row for row with the CSV of the same data.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { duckTypes, readParquet, sqlText } from '../duckdb.js';
import { csvRecords, fakeApi, runCli, runCliOnTerminal, sandboxEnv, tempDir, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();

/** A DuckDB value as CSV would write it: timestamps in the contract's form, null as empty. */
function asCsvText(value: unknown, type: string): string {
  if (value === null) return '';
  // UTC-adjusted: DuckDB writes the zone, +00, which the contract's form leaves out.
  if (type === 'TIMESTAMP WITH TIME ZONE') return String(value).replace(' ', 'T').replace(/\+00$/, '');
  return String(value);
}

describe('parquet output', () => {
  it('export links -o links.parquet: every value matches the csv export, articleHash exact', async () => {
    const dir = tempDir();
    const args = ['export', 'links', '--top', '4', '--weeks', 'complete4', '--limit', '20'];
    const [parquet, csv] = await Promise.all([
      runCli([...args, '--output', join(dir, 'links.parquet')], { env: logged.env }),
      runCli([...args, '--format', 'csv'], { env: logged.env }),
    ]);
    expect([parquet.code, csv.code, parquet.stderr, parquet.stdout]).toEqual([0, 0, '', '']);
    const records = csvRecords(csv.stdout);
    const path = join(dir, 'links.parquet');
    const types = await duckTypes(`SELECT * FROM read_parquet(${sqlText(path)})`);
    expect(Object.keys(types)).toEqual(Object.keys(records[0]!));
    expect(types).toMatchObject({
      rank: 'DECIMAL(38,0)', articleHash: 'DECIMAL(38,0)', mentionDate: 'TIMESTAMP WITH TIME ZONE', sentiment: 'DOUBLE', sourceId: 'DECIMAL(38,0)', snippet: 'VARCHAR',
    });
    const rows = await readParquet(path);
    expect(rows.length).toBe(records.length);
    expect(records.some((record) => BigInt(record.articleHash!) > 2n ** 53n)).toBe(true);
    rows.forEach((row, index) => {
      const record = records[index]!;
      for (const [field, type] of Object.entries(types)) {
        if (type === 'DOUBLE') expect(row[field], `${field} row ${index}`).toBe(Number(record[field]));
        else if (field === 'otherPeople') expect((JSON.parse(String(row[field])) as string[]).join(';'), `row ${index}`).toBe(record[field]);
        else expect(asCsvText(row[field], type), `${field} row ${index}`).toBe(record[field]!.replace(/^'/, ''));
      }
    });
  });

  it('people top -f parquet -o FILE: the same ranking as json', async () => {
    const dir = tempDir();
    const path = join(dir, 'top.parquet');
    const [parquet, json] = await Promise.all([
      runCli(['people', 'top', '--weeks', '202640', '--limit', '25', '-f', 'parquet', '-o', path], { env: logged.env }),
      runCli(['people', 'top', '--weeks', '202640', '--limit', '25', '-f', 'json'], { env: logged.env }),
    ]);
    expect([parquet.code, json.code]).toEqual([0, 0]);
    const expected = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    const rows = await readParquet(path);
    expect(rows.map((row) => [row.rank, row.personHash, row.mentionCount, row.dominance])).toEqual(
      expected.map((row) => [String(row.rank), row.personHash, String(row.mentionCount), row.dominance]),
    );
  });

  it('refuses to write parquet to a terminal', async () => {
    const result = await runCliOnTerminal(['people', 'top', '--limit', '3', '-f', 'parquet'], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/parquet is a binary file format and stdout is a terminal/);
  });

  /** One country whose countryId the contract allows (an integer) but DECIMAL(38,0) can't hold: 39 digits. */
  const country = (countryId: string) => `[{"countryId":${countryId},"countryName":"Wide","countryIso":"WD"}]`;

  it('an allowed integer Parquet cannot hold (39 digits) is exit 5 naming the row and field, no file left; csv keeps it', async () => {
    const wide = '1'.repeat(39);
    const fake = await fakeApi({ '/api/data/countries': country(wide) });
    try {
      const dir = tempDir();
      const parquet = await runCli(['countries', 'list', '--no-cache', '--output', join(dir, 'c.parquet')], { env: sandboxEnv(fake) });
      expect(parquet.code, parquet.stderr).toBe(5);
      expect(parquet.stderr).toMatch(/countryId/);
      expect(parquet.stderr).toMatch(/row 1|first row/);
      expect(existsSync(join(dir, 'c.parquet'))).toBe(false);
      const csv = await runCli(['countries', 'list', '--no-cache', '-f', 'csv'], { env: sandboxEnv(fake) });
      expect(csv.code, csv.stderr).toBe(0);
      expect(csv.stdout).toContain(wide);
    } finally {
      await fake.close();
    }
  });

  it('a value the contract rules out (a fraction in an identifier) is exit 5 naming the field in every format, never exit 2', async () => {
    const fake = await fakeApi({ '/api/data/countries': country('3.5') });
    try {
      for (const format of ['json', 'csv', 'parquet']) {
        const dir = tempDir();
        const result = await runCli(['countries', 'list', '--no-cache', '--output', join(dir, `c.${format}`)], { env: sandboxEnv(fake) });
        expect(result.code, `${format}: ${result.stderr}`).toBe(5);
        expect(result.stderr, format).toMatch(/countryId/);
      }
    } finally {
      await fake.close();
    }
  });
});
