/**
 * Apache Parquet, the bytes written by parquet-file.ts (flat columns only, which is all newsstats writes;
 * loaded only when the format is parquet or a sync runs). Columns are typed from the one schema (src/schema/), so a warehouse
 * reads the types from the file instead of guessing them, the same in every file (docs/types.md):
 *
 *   integer (ids, counts, ranks...)   DECIMAL(38,0), 16-byte fixed: every integer up to 38 digits,
 *                                     exact (more is ValueOutOfRangeError, exit 5)
 *   integer of the form week          INT32 (YYYYWW); `week`, the partition of a sync, too
 *   number                            DOUBLE
 *   timestamp                         TIMESTAMP(isAdjustedToUTC=true, MILLIS): DuckDB reads
 *                                     TIMESTAMP WITH TIME ZONE, polars Datetime(ms, 'UTC')
 *   string                            STRING (UTF8)
 *   boolean                           BOOLEAN
 *   array, object                     JSON: compact JSON text, digits kept
 *
 * A field the schema does not type (a command's own column, a field the service added) takes its type
 * from the values in the first row group: DECIMAL(38,0) when every number there is an integer, else
 * DOUBLE; text, booleans as such; JSON for the rest. Columns are OPTIONAL (null and absent are nulls)
 * but for those the caller names required (a sync's keys), which are REQUIRED.
 *
 * Rows are buffered a row group at a time (ROW_GROUP_ROWS) and each group is written out before
 * the next is gathered, so memory stays flat however many rows stream through. Files are
 * deterministic: the same rows give the same bytes (no time of writing, writer named without a
 * version), which `sync` relies on for its byte-identical resumes. Snappy compression; text and JSON
 * columns dictionary-encoded.
 */
import { LosslessNumber } from 'lossless-json';
import { fieldSpec } from '../schema/knowledge.js';
import { integerDigits } from '../shared/exact-json/identifier.js';
import { ValueOutOfRangeError } from './errors.js';
import { compactJson, isNumericValue } from './flatten.js';
import { fieldValue, fieldsWithRowKeys, rowsOf, type Renderer, type Row, type RowSink } from './view.js';
import { timestampMillis } from '../shared/timestamp.js';
import { DECIMAL_DIGITS, ParquetFileWriter, type EncodedValue, type ParquetColumn, type ParquetKind } from './parquet-file.js';

export { DECIMAL_DIGITS, type ParquetColumn, type ParquetKind };

/** Rows per row group: large enough to compress well, small enough to keep memory flat. */
export const ROW_GROUP_ROWS = 10_000;

/** `week`, the partition column of a sync: a week, INT32. */
export function isWeekField(field: string): boolean {
  return field === 'week' || fieldSpec(field)?.format === 'week';
}

/** The Parquet type of a field the schema types; undefined for one it does not. */
export function schemaKind(field: string): ParquetKind | undefined {
  if (field === 'week') return 'INT32';
  const spec = fieldSpec(field);
  switch (spec?.type) {
    case undefined:
      return undefined;
    case 'integer':
      return spec.format === 'week' ? 'INT32' : 'DECIMAL';
    case 'number':
      return 'DOUBLE';
    case 'timestamp':
      return 'TIMESTAMP';
    case 'string':
      return 'UTF8';
    case 'boolean':
      return 'BOOLEAN';
    case 'array':
    case 'object':
      return 'JSON';
  }
}

const INTEGER_TEXT = /^-?\d+$/;

/** A column's type from the values a sample of rows holds, for fields the schema does not type. */
function inferKind(field: string, rows: readonly Row[]): ParquetKind {
  let sawNumber = false;
  let allIntegers = true;
  let sawString = false;
  let sawBoolean = false;
  let sawOther = false;
  for (const row of rows) {
    const value = fieldValue(row, field);
    if (value === null || value === undefined) continue;
    if (isNumericValue(value)) {
      sawNumber = true;
      if (!INTEGER_TEXT.test(value.toString())) allIntegers = false;
    } else if (typeof value === 'string') sawString = true;
    else if (typeof value === 'boolean') sawBoolean = true;
    else sawOther = true;
  }
  const kinds = [sawNumber, sawString, sawBoolean, sawOther].filter(Boolean).length;
  if (kinds !== 1) return kinds === 0 ? 'UTF8' : 'JSON';
  if (sawNumber) return allIntegers ? 'DECIMAL' : 'DOUBLE';
  if (sawString) return 'UTF8';
  if (sawBoolean) return 'BOOLEAN';
  return 'JSON';
}

/**
 * The columns of a file: the schema's type where it has one, else one read from the sample rows;
 * those named in `required` REQUIRED.
 */
export function parquetColumns(fields: readonly string[], sample: readonly Row[], required: readonly string[] = []): ParquetColumn[] {
  return fields.map((name) => ({
    name,
    kind: schemaKind(name) ?? inferKind(name, sample),
    ...(required.includes(name) ? { required: true } : {}),
  }));
}

function shown(value: unknown): string {
  const text = isNumericValue(value) ? value.toString() : typeof value === 'string' ? value : compactJson(value);
  return JSON.stringify(text.length > 48 ? `${text.slice(0, 24)}…${text.slice(-8)} (${text.length} characters)` : text);
}

function outOfRange(column: ParquetColumn, value: unknown, why: string): ValueOutOfRangeError {
  return new ValueOutOfRangeError(column.name, `${shown(value)} cannot be written to Parquet as ${column.kind === 'DECIMAL' ? 'DECIMAL(38,0)' : column.kind}: ${why}`);
}

/**
 * One value as the encoder takes it for its column (EncodedValue): checked, and null for null and
 * absent. A value the column cannot hold is a ValueOutOfRangeError naming the field.
 */
export function parquetValue(column: ParquetColumn, value: unknown): EncodedValue {
  if (value === null || value === undefined) {
    if (column.required) throw new ValueOutOfRangeError(column.name, 'is a key and may not be null');
    return null;
  }
  switch (column.kind) {
    case 'INT32':
    case 'DECIMAL': {
      // A LosslessNumber (every number of an answer the CLI reads) by its digits directly: isNumericValue
      // and toString were two calls a value.
      const text = value instanceof LosslessNumber ? value.value : isNumericValue(value) ? value.toString() : typeof value === 'string' ? value : '';
      // Plain digits (nearly every value) are their own digits: integerDigits only for the rest.
      const digits = PLAIN_INTEGER.test(text) ? text : integerDigits(text);
      if (digits === undefined) throw outOfRange(column, value, 'not an integer');
      if (column.kind === 'INT32') {
        const integer = Number(digits);
        if (!Number.isInteger(integer) || integer < -(2 ** 31) || integer >= 2 ** 31) throw outOfRange(column, value, 'outside the 32-bit range');
        return integer;
      }
      if (digits.length - (digits.charCodeAt(0) === 0x2d ? 1 : 0) > DECIMAL_DIGITS) throw outOfRange(column, value, `more than ${DECIMAL_DIGITS} digits`);
      return digits;
    }
    case 'DOUBLE': {
      const number = value instanceof LosslessNumber ? Number(value.value) : isNumericValue(value) ? Number(value.toString()) : Number.NaN;
      if (Number.isNaN(number)) throw outOfRange(column, value, 'not a number');
      return number;
    }
    case 'TIMESTAMP': {
      const millis = typeof value === 'string' ? timestampMillis(value) : Number.NaN;
      if (Number.isNaN(millis)) throw outOfRange(column, value, 'not a real time of the form YYYY-MM-DDTHH:MM:SS');
      return millis;
    }
    case 'BOOLEAN':
      if (typeof value !== 'boolean') throw outOfRange(column, value, 'not a boolean');
      return value;
    case 'UTF8':
      if (typeof value === 'string') return value;
      return isNumericValue(value) || typeof value === 'boolean' ? String(value) : compactJson(value);
    case 'JSON':
      return jsonText(value);
  }
}

/**
 * compactJson's text. An array of strings (a link's otherPeople) holds no number to keep, so
 * JSON.stringify writes it as lossless-json would, without lossless-json's walk of every value.
 * (A writer of its own for the rest, what a parser makes, took 5% off the Parquet writer's CPU but
 * nothing a whole sync could show: docs/performance.md, "What the tenth session took off".)
 */
function jsonText(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return JSON.stringify(value);
  return compactJson(value);
}

/** An integer written as digits alone, without leading zeros: what integerDigits would return. */
const PLAIN_INTEGER = /^-?(?:0|[1-9]\d*)$/;

type OutputStream = NodeJS.WritableStream & { writableNeedDrain?: boolean };

/** Waits until `out` can take more, or fails if it errors or closes first. */
function drained(out: OutputStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      out.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: unknown) => settle(error ?? new Error('output stream failed'));
    const onClose = () => settle(new Error('output stream closed before all output was written'));
    out.once('drain', onDrain).once('error', onError).once('close', onClose);
  });
}

/** Hands bytes to `out`, waiting while it is full. */
function send(out: OutputStream, bytes: Buffer): Promise<void> {
  if (bytes.length === 0 || out.write(bytes)) return Promise.resolve();
  return drained(out);
}

/** What writes the file: created once the columns are known. */
class ParquetFile {
  readonly #writer: ParquetFileWriter;
  /** Rows written so far, to name the row of a value that cannot be written. */
  #rows = 0;

  constructor(private readonly out: OutputStream, readonly columns: readonly ParquetColumn[], private readonly constants: Readonly<Row>) {
    this.#writer = new ParquetFileWriter(columns, 'newsstats');
  }

  async writeGroup(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    const first = this.#rows;
    const columnValues: EncodedValue[][] = [];
    for (let index = 0; index < this.columns.length; index += 1) columnValues.push(this.#columnValues(this.columns[index]!, rows, first));
    this.#rows += rows.length;
    await send(this.out, this.#writer.group(columnValues, rows.length));
  }

  /** One column's values of a row group, checked; a value its column cannot hold names its row. */
  #columnValues(column: ParquetColumn, rows: readonly Row[], first: number): EncodedValue[] {
    const values = new Array<EncodedValue>(rows.length);
    const constant = Object.hasOwn(this.constants, column.name);
    let index = 0;
    // One try around the loop, the row it stopped at named after.
    try {
      if (constant) return values.fill(parquetValue(column, this.constants[column.name]));
      for (; index < rows.length; index += 1) values[index] = parquetValue(column, fieldValue(rows[index]!, column.name));
    } catch (error) {
      throw error instanceof ValueOutOfRangeError ? error.atRow(first + index + 1) : error;
    }
    return values;
  }

  async finish(): Promise<void> {
    await send(this.out, this.#writer.footer());
  }
}

/** What write() returns for a row that only joined the row group being gathered. */
const WRITTEN: Promise<void> = Promise.resolve();

/**
 * A sink that writes rows to `out` as Parquet: columns fixed by `columns`, or by the spec's fields
 * (and the first group's extra keys) typed as the file comment says. Resolves write() once a full
 * row group has been handed to `out`; end() writes the rest and the footer, and does not end `out`.
 * `constants`: columns whose value is the same in every row (a sync's partition week), whatever the
 * rows hold, so the rows need not be copied to carry it.
 */
export function openParquetWriter(out: NodeJS.WritableStream, fields: readonly string[] | ((sample: readonly Row[]) => readonly ParquetColumn[]), constants: Readonly<Row> = {}): RowSink {
  let file: ParquetFile | undefined;
  let pending: Row[] = [];
  const columnsFor = typeof fields === 'function' ? fields : (sample: readonly Row[]) => parquetColumns(fields, sample);
  const flush = async () => {
    const rows = pending;
    pending = [];
    file ??= new ParquetFile(out, columnsFor(rows), constants);
    await file.writeGroup(rows);
  };
  return {
    // Not async: a promise made for each row (an async function's) was a per-row garbage of its own;
    // all but one row in ROW_GROUP_ROWS only join the group.
    write(row) {
      pending.push(row);
      return pending.length >= ROW_GROUP_ROWS ? flush() : WRITTEN;
    },
    async end() {
      await flush();
      await file!.finish();
    },
  };
}

/**
 * Without --fields, keys the service sent beyond the contract's fields become columns too, as in CSV:
 * from every row of a whole view, from the first row group of a stream.
 */
export const parquetRenderer: Renderer = {
  async render(view, options, out) {
    const rows = rowsOf(view);
    const sink = await parquetRenderer.openSink({ ...view, fields: options.fields ?? fieldsWithRowKeys(view.fields, rows) }, options, out);
    for (const row of rows) await sink.write(row);
    await sink.end();
  },

  async openSink(spec, options, out) {
    return openParquetWriter(out, (sample) => parquetColumns(options.fields ?? fieldsWithRowKeys(spec.fields, sample.slice(0, 1)), sample));
  },
};
