/**
 * `.xlsx` workbooks through exceljs's streaming WorkbookWriter: each row is committed as it comes,
 * so a 40,000-row export is compressed and written on the way rather than held. Loaded only for
 * this format, and only its streaming writer (see exceljs-writer.d.ts).
 *
 * Cells keep what the data means without losing a digit:
 * - numbers are numbers when Excel holds them exactly (at most 15 significant digits, what Excel
 *   keeps), else text with the digits sent: integers beyond that and identifiers (articleHash) are
 *   text, so no digit is rounded away;
 * - the contract's timestamps (YYYY-MM-DDTHH:MM:SS, UTC) are dates shown as `yyyy-mm-dd hh:mm:ss`;
 * - nested values are flattened as in CSV (arrays of strings joined with `;`, the rest as JSON);
 * - text is an inline string cell, never a formula, so `=cmd|...` stays text with no `'` needed.
 *   Characters XML cannot hold (C0 controls but tab, LF and CR) are dropped.
 *
 * The header row is bold and frozen, an autofilter spans the data, and column widths are fitted to
 * the header and the first rows (a streamed sheet fixes its widths before the first row is written).
 */
import { Writable } from 'node:stream';
import type { stream as ExcelStream, Worksheet } from 'exceljs';
import { cellText, isNumericValue } from './flatten.js';
import { displayWidth } from './text.js';
import { fieldValue, fieldsWithRowKeys, rowsOf, type Renderer, type RenderOptions, type Row, type RowSinkSpec } from './view.js';
import { loadWorkbookWriter } from './exceljs.js';
import { OutputUsageError } from './errors.js';
import { parseTimestamp } from '../shared/timestamp.js';

/** Identifiers: numeric in the API, but never arithmetic, and beyond what a double holds. */
const TEXT_FIELDS = new Set(['articleHash']);

/** Excel keeps 15 significant digits; longer numbers are written as text so none is lost. */
const EXCEL_DIGITS = 15;
/** Rows read to fit column widths before the first is written. */
const WIDTH_SAMPLE = 100;
const MAX_COLUMN_WIDTH = 60;
/** The most columns a sheet holds (Excel's XFD; exceljs throws "16385 is out of bounds" past it). */
export const XLSX_MAX_COLUMNS = 16_384;
const NUMBER = /^-?(\d+)(?:\.(\d+))?(?:[eE][+-]?\d+)?$/;
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

export type XlsxValue = string | number | boolean | Date | null;

/** True when a number as sent has at most 15 significant digits and survives the trip through a double. */
export function holdsExactly(text: string): boolean {
  const match = NUMBER.exec(text);
  if (!match) return false;
  const significant = (match[1]! + (match[2] ?? '')).replace(/^0+/, '').replace(/0+$/, '');
  const number = Number(text);
  if (!Number.isFinite(number) || (number === 0 && significant !== '')) return false;
  // Trailing zeros of an integer count: 10^18 is exact in a double, but an integer beyond 2^53 is text.
  const digits = match[2] === undefined && !/[eE]/.test(text) ? match[1]!.replace(/^0+/, '') : significant;
  return digits.length <= EXCEL_DIGITS;
}

/**
 * A timestamp of the contract's form as a Date cell; undefined (the text is written) for other text,
 * a day the calendar lacks, a date before 1900 (Excel has none) or a fraction finer than a
 * millisecond, which a cell would lose.
 */
export function timestampDate(text: string): Date | undefined {
  const timestamp = parseTimestamp(text);
  return timestamp !== undefined && timestamp.fractionDigits <= 3 && timestamp.date.getUTCFullYear() >= 1900 ? timestamp.date : undefined;
}

/**
 * Characters XML 1.0 forbids (C0 controls but tab and line breaks, U+FFFE, U+FFFF, lone surrogates):
 * exceljs writes them as they are and the sheet is then not well-formed, so Excel refuses the file.
 */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udfff]/gu;

/** Text a worksheet can hold: each character XML forbids becomes U+FFFD. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, '\ufffd');
}

/** One value as a cell: see the file comment for the rules. */
export function xlsxValue(value: unknown, field: string): XlsxValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (isNumericValue(value)) {
    const text = value.toString();
    return !TEXT_FIELDS.has(field) && holdsExactly(text) ? Number(text) : text;
  }
  if (typeof value === 'string') return timestampDate(value) ?? xmlSafe(value);
  return xmlSafe(cellText(value));
}

/**
 * What exceljs writes into: forwards each chunk to `out` (waiting when it is full) and finishes
 * without ending it, since stdout must stay open and an atomic file is ended by its commit.
 */
function forwardTo(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (out.write(chunk)) return callback();
      const settle = (error?: Error) => {
        out.off('drain', settle).off('error', settle).off('close', onClose);
        callback(error);
      };
      const onClose = () => settle(new Error('output stream closed before all output was written'));
      out.once('drain', settle).once('error', settle).once('close', onClose);
    },
  });
}

/** Grows a column's width with one cell's text; a date is as wide as its format. */
function fitWidth(width: number, value: XlsxValue): number {
  const text = value instanceof Date ? DATE_FORMAT : value === null ? '' : String(value);
  const longestLine = Math.max(...text.split('\n').map(displayWidth));
  return Math.min(MAX_COLUMN_WIDTH, Math.max(width, longestLine + 2));
}

class XlsxSheet {
  readonly #workbook: ExcelStream.xlsx.WorkbookWriter;
  readonly #sheet: Worksheet;
  readonly #sink: Writable;
  readonly #header: boolean;
  #columns: readonly string[] | undefined;
  #pending: Row[] = [];
  #rowCount = 0;

  constructor(workbook: ExcelStream.xlsx.WorkbookWriter, sink: Writable, private readonly spec: RowSinkSpec, private readonly options: RenderOptions) {
    this.#workbook = workbook;
    this.#sink = sink;
    this.#header = options.header;
    this.#sheet = workbook.addWorksheet('newsstats', { views: options.header ? [{ state: 'frozen', ySplit: 1 }] : [] });
  }

  async write(row: Row): Promise<void> {
    if (this.#columns) return this.#commit(row);
    this.#pending.push(row);
    if (this.#pending.length >= WIDTH_SAMPLE) await this.#start();
  }

  async end(): Promise<void> {
    if (!this.#columns) await this.#start();
    const columns = this.#columns!;
    if (this.#header && columns.length > 0) {
      this.#sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: Math.max(1, this.#rowCount + 1), column: columns.length } };
    }
    this.#sheet.commit();
    await this.#workbook.commit();
  }

  /** Columns and widths from the rows seen so far, then the header and those rows. */
  async #start(): Promise<void> {
    const sample = this.#pending;
    this.#pending = [];
    const columns = this.options.fields ?? fieldsWithRowKeys(this.spec.fields, sample.slice(0, 1));
    // Every field is kept or the file is not written: a sheet that silently dropped the service's
    // extra fields would differ from csv and json without a word.
    if (columns.length > XLSX_MAX_COLUMNS) {
      throw new OutputUsageError(`xlsx: ${columns.length.toLocaleString('en-US')} columns, more than a sheet holds (${XLSX_MAX_COLUMNS.toLocaleString('en-US')}); choose some with --fields, or write csv or json`);
    }
    this.#columns = columns;
    this.#sheet.columns = columns.map((field) => ({
      key: field,
      width: sample.reduce((width, row) => fitWidth(width, xlsxValue(fieldValue(row, field), field)), this.#header ? fitWidth(0, field) : 8),
    }));
    if (this.#header) {
      const header = this.#sheet.addRow(columns.map((field) => ({ richText: [{ text: xmlSafe(field) }] })));
      header.font = { bold: true };
      header.commit();
    }
    for (const row of sample) await this.#commit(row);
  }

  async #commit(row: Row): Promise<void> {
    const columns = this.#columns!;
    const values = columns.map((field) => xlsxValue(fieldValue(row, field), field));
    // Text as an inline rich-text run: written as <is><t>, a string cell that is never a formula.
    const excelRow = this.#sheet.addRow(values.map((value) => (typeof value === 'string' ? { richText: [{ text: value }] } : value)));
    values.forEach((value, index) => {
      if (value instanceof Date) excelRow.getCell(index + 1).numFmt = DATE_FORMAT;
    });
    excelRow.commit();
    this.#rowCount += 1;
    // Let the zip stream catch up now and then, and wait while the output is full, so rows do not
    // pile up in exceljs's buffers faster than they are compressed and written.
    if (this.#rowCount % 200 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.#sink.writableNeedDrain) await new Promise((resolve) => this.#sink.once('drain', resolve));
    }
  }
}

async function openSheet(spec: RowSinkSpec, options: RenderOptions, out: NodeJS.WritableStream): Promise<XlsxSheet> {
  const WorkbookWriter = await loadWorkbookWriter();
  const sink = forwardTo(out);
  const workbook = new WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  workbook.creator = 'newsstats';
  return new XlsxSheet(workbook, sink, spec, options);
}

export const xlsxRenderer: Renderer = {
  async render(view, options, out) {
    const rows = rowsOf(view);
    // Whole views know every row up front, so extra keys from any row become columns, as in CSV.
    const fields = options.fields ?? fieldsWithRowKeys(view.fields, rows);
    const sheet = await openSheet({ ...view, fields }, { ...options, fields }, out);
    for (const row of rows) await sheet.write(row);
    await sheet.end();
  },

  async openSink(spec, options, out) {
    const sheet = await openSheet(spec, options, out);
    return { write: (row) => sheet.write(row), end: () => sheet.end() };
  },
};
