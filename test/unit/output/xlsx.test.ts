import ExcelJS from 'exceljs';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { openRowSink, renderView, type View } from '../../../src/output/index.js';
import { holdsExactly, timestampDate, xlsxValue } from '../../../src/output/xlsx.js';
import { BytesStream, baseOptions } from './helpers.js';

async function workbookOf(view: View, options: Partial<typeof baseOptions> & { fields?: string[] } = {}) {
  const out = new BytesStream();
  await renderView(view, { ...baseOptions, format: 'xlsx', ...options }, out);
  expect(out.ended).toBe(false);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.concat(out.chunks) as unknown as ArrayBuffer);
  return workbook.worksheets[0]!;
}

describe('xlsx cells', () => {
  it('numbers with up to 15 significant digits are exact in Excel', () => {
    expect(['177', '-0.25', '1.50', '0.000123', '123456789012345', '1e3'].map(holdsExactly)).toEqual([true, true, true, true, true, true]);
  });
  it('longer numbers are not', () => {
    expect(['1234567890123456', '9007199254740993', '1304092900461350409', '0.12345678901234567', '1e400', '1e-400'].map(holdsExactly)).toEqual([false, false, false, false, false, false]);
  });
  it('an integer beyond 2^53 is text even when a double happens to hold it', () => expect(holdsExactly('1000000000000000000')).toBe(false));
  it('articleHash is always text', () => expect(xlsxValue(new LosslessNumber('42'), 'articleHash')).toBe('42'));
  it('numbers keep their value', () => expect(xlsxValue(new LosslessNumber('1.50'), 'dominance')).toBe(1.5));
  it('big integers keep their digits as text', () => expect(xlsxValue(10n ** 20n + 1n, 'count')).toBe('100000000000000000001'));
  it('timestamps become UTC dates', () => expect(xlsxValue('2026-11-23T13:31:04', 'mentionDate')).toEqual(new Date(Date.UTC(2026, 10, 23, 13, 31, 4))));
  it('a date the calendar lacks stays text', () => expect([timestampDate('2026-02-30T00:00:00'), timestampDate('1850-01-01T00:00:00')]).toEqual([undefined, undefined]));
  it('a fraction finer than a millisecond stays text: a cell would lose it', () => {
    expect(timestampDate('2026-11-23T13:31:04.123')).toEqual(new Date(Date.UTC(2026, 10, 23, 13, 31, 4, 123)));
    expect(timestampDate('2026-11-23T13:31:04.1234')).toBeUndefined();
  });
  it('nested values flatten as in csv', () => expect([xlsxValue(['a', 'b'], 'x'), xlsxValue({ a: 1 }, 'x'), xlsxValue(null, 'x')]).toEqual(['a;b', '{"a":1}', null]));
});

describe('xlsx workbooks', () => {
  const view: View = {
    data: null,
    fields: ['name', 'articleHash', 'score', 'at'],
    rows: [
      { name: '=HYPERLINK("http://x","click")', articleHash: new LosslessNumber('1304092900461350409'), score: new LosslessNumber('-0.25'), at: '2026-11-23T13:31:04' },
      { name: '  spaced  ', articleHash: new LosslessNumber('7'), score: null, at: 'soon' },
    ],
  };

  it('writes text as text, never a formula, and every digit of articleHash', async () => {
    const sheet = await workbookOf(view);
    const cell = sheet.getCell('A2');
    expect(cell.formula).toBeUndefined();
    expect(cell.text).toBe('=HYPERLINK("http://x","click")');
    expect(sheet.getCell('B2').text).toBe('1304092900461350409');
    expect(sheet.getCell('B3').text).toBe('7');
    expect(sheet.getCell('C2').value).toBe(-0.25);
    expect(sheet.getCell('C3').value).toBeNull();
    expect(sheet.getCell('D2').value).toEqual(new Date(Date.UTC(2026, 10, 23, 13, 31, 4)));
    expect(sheet.getCell('D2').numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(sheet.getCell('A3').text).toBe('  spaced  ');
  });

  it('a bold, frozen header, an autofilter over the data and widths fitted to the content', async () => {
    const sheet = await workbookOf(view);
    expect(sheet.getRow(1).values).toEqual([undefined, ...view.fields.map((field) => ({ richText: [{ text: field }] }))]);
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:D3');
    expect(sheet.getColumn(1).width).toBe(32);
    expect(sheet.getColumn(2).width).toBe(21);
  });

  it('--fields and --no-header', async () => {
    const sheet = await workbookOf(view, { fields: ['score', 'name'], header: false });
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getCell('A1').value).toBe(-0.25);
    expect(sheet.getCell('B2').text).toBe('  spaced  ');
  });

  it('a streamed sheet of many rows holds them all, in order', async () => {
    const out = new BytesStream();
    const sink = await openRowSink(out, { ...baseOptions, format: 'xlsx' }, { fields: ['i', 'text'] });
    for (let i = 0; i < 1000; i += 1) await sink.write({ i, text: `row ${i}` });
    await sink.end();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(out.chunks) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(1001);
    expect(sheet.getCell('A1001').value).toBe(999);
    expect(sheet.getCell('B501').text).toBe('row 499');
  });
});
