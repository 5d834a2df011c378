/**
 * xlsx and --bom as the user meets them: real runs against the sandbox, the workbook read back with
 * exceljs's reader and compared cell by cell with the CSV export of the same data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { csvRecords, runCli, runCliOnTerminal, tempDir, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();

async function readSheet(path: string) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  return workbook.worksheets[0]!;
}

/** A cell read back, as CSV would write the same value (dates in the contract's form, text with CSV's formula guard). */
function asCsvText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().replace(/\.000Z$/, '').replace(/Z$/, '');
  if (typeof value === 'number') return String(value);
  const text = cell.text;
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

describe('xlsx', () => {
  it('export links: every cell matches the csv export, articleHash digit for digit as text', async () => {
    const dir = tempDir();
    const args = ['export', 'links', '--top', '8', '--weeks', 'complete4', '--limit', '40'];
    const [xlsx, csv] = await Promise.all([
      runCli([...args, '--output', join(dir, 'links.xlsx')], { env: logged.env }),
      runCli([...args, '--output', join(dir, 'links.csv')], { env: logged.env }),
    ]);
    expect([xlsx.code, csv.code, xlsx.stderr]).toEqual([0, 0, '']);
    const records = csvRecords(readFileSync(join(dir, 'links.csv'), 'utf8'));
    const header = Object.keys(records[0]!);
    const sheet = await readSheet(join(dir, 'links.xlsx'));

    expect(sheet.rowCount).toBe(records.length + 1);
    expect(header.map((_, index) => sheet.getRow(1).getCell(index + 1).text)).toEqual(header);
    let numbers = 0;
    records.forEach((record, rowIndex) => {
      const row = sheet.getRow(rowIndex + 2);
      header.forEach((field, columnIndex) => {
        const cell = row.getCell(columnIndex + 1);
        const expected = record[field]!;
        if (typeof cell.value === 'number') {
          // Same value as the digits sent (CSV may write 0.50 where the workbook holds 0.5).
          numbers += 1;
          expect(cell.value, `${field} row ${rowIndex}`).toBe(Number(expected));
        } else {
          expect(asCsvText(cell), `${field} row ${rowIndex}`).toBe(expected);
        }
      });
      const hash = row.getCell(header.indexOf('articleHash') + 1);
      expect(typeof hash.value === 'number').toBe(false);
      expect(hash.text).toBe(record.articleHash);
    });
    expect(numbers).toBeGreaterThan(records.length);
    expect(records.some((record) => BigInt(record.articleHash!) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(sheet.getRow(2).getCell(header.indexOf('mentionDate') + 1).value).toBeInstanceOf(Date);

    // The workbook a user opens: bold frozen header, filter over all rows.
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toMatch(new RegExp(`^A1:[A-Z]+${records.length + 1}$`));
  });

  it('-f xlsx to a pipe writes a workbook; on a terminal it is refused with a hint', async () => {
    const piped = await runCli(['people', 'top', '--weeks', 'last4', '--limit', '5', '-f', 'xlsx'], { env: logged.env });
    expect(piped.code).toBe(0);
    expect(piped.stdout.startsWith('PK')).toBe(true);

    const terminal = await runCliOnTerminal(['people', 'top', '--weeks', 'last4', '-f', 'xlsx'], { env: logged.env });
    expect(terminal.code).toBe(2);
    expect(terminal.stdout).toMatch(/xlsx.*terminal/);
    expect(terminal.stdout).toMatch(/hint: .*--output/);
  });
});

describe('--bom', () => {
  it('starts csv with a UTF-8 byte-order mark, on stdout, in a file and in a streamed export, and nothing else changes', async () => {
    const dir = tempDir();
    const args = ['people', 'top', '--weeks', 'last4', '--limit', '5', '-f', 'csv'];
    const [plain, bom, file, stream] = await Promise.all([
      runCli(args, { env: logged.env }),
      runCli([...args, '--bom'], { env: logged.env }),
      runCli([...args, '--bom', '-o', join(dir, 'top.csv')], { env: logged.env }),
      runCli(['export', 'country-stats', '--top', '2', '--bom', '-o', join(dir, 'cs.csv')], { env: logged.env }),
    ]);
    expect([plain.code, bom.code, file.code, stream.code]).toEqual([0, 0, 0, 0]);
    expect(bom.stdout).toBe(`\ufeff${plain.stdout}`);
    expect(readFileSync(join(dir, 'top.csv')).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(readFileSync(join(dir, 'top.csv'), 'utf8')).toBe(bom.stdout);
    expect(readFileSync(join(dir, 'cs.csv'), 'utf8').startsWith('\ufeffrank,fullName,')).toBe(true);
    expect(plain.stdout.startsWith('\ufeff')).toBe(false);
  });

  it('is refused with other formats, before any request', async () => {
    for (const format of ['json', 'tsv', 'xlsx']) {
      const result = await runCli(['people', 'top', '--bom', '-f', format], { env: { NEWSSTATS_BASE_URL: 'http://127.0.0.1:9', NEWSSTATS_API_KEY: 'k' } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--bom is for csv output, not ${format}`);
    }
  });
});
