/**
 * Apache Parquet through hyparquet-writer (pure JavaScript, ~1 MB installed with its reader; loaded only
 * when the format is parquet). Columns are typed from the contract's field kinds (api/types.ts,
 * ENDPOINT_SHAPES), so a warehouse reads the schema from the file instead of guessing it:
 *
 *   integer             INT64 (a week, `week` or `...Week`, is INT32: YYYYWW fits)
 *   biginteger          INT64 (articleHash: every digit, it fits in a signed 64-bit integer)
 *   number              DOUBLE
 *   timestamp           TIMESTAMP (milliseconds, UTC: the contract's timestamps carry no offset)
 *   string              UTF8
 *   boolean             BOOLEAN
 *   string[], array,    UTF8 holding compact JSON (digits kept), which every reader can parse
 *   object
 *
 * A field the contract does not type (a command's own column, a field the service added) takes its
 * type from the values in the first row group: INT64 when every number there is an integer, else
 * DOUBLE; text, booleans as such; JSON text for the rest. Every column is OPTIONAL: null and absent
 * are nulls.
 *
 * Rows are buffered a row group at a time (ROW_GROUP_ROWS) and each group is written out before
 * the next is gathered, so memory stays flat however many rows stream through. Files are
 * deterministic: the same rows give the same bytes (no time of writing, writer named without a
 * version), which `sync` relies on for its byte-identical resumes. Snappy compression.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { ENDPOINT_SHAPES, type FieldKind, type FieldSchema } from '../api/types.js';
import { OutputUsageError } from './errors.js';
import { compactJson, isNumericValue } from './flatten.js';
import { fieldValue, fieldsWithRowKeys, rowsOf, type RenderOptions, type Row, type RowSink, type RowSinkSpec, type View } from './view.js';
import { parseTimestamp } from './timestamp.js';

/** The physical and logical type of one column. */
export type ParquetKind = 'INT32' | 'INT64' | 'DOUBLE' | 'TIMESTAMP' | 'UTF8' | 'BOOLEAN' | 'JSON';

export interface ParquetColumn {
  name: string;
  kind: ParquetKind;
}

/** Rows per row group: large enough to compress well, small enough to keep memory flat. */
export const ROW_GROUP_ROWS = 10_000;

/** Every field the contract types, by name, across all its resources (their kinds agree: a test checks). */
function contractKinds(): Map<string, FieldKind> {
  const kinds = new Map<string, FieldKind>();
  const add = (schema: FieldSchema | undefined) => {
    for (const [field, kind] of Object.entries(schema ?? {})) if (!kinds.has(field)) kinds.set(field, kind);
  };
  for (const shape of Object.values(ENDPOINT_SHAPES) as Array<{ schema: FieldSchema; optional?: FieldSchema; nested?: Record<string, FieldSchema> }>) {
    add(shape.schema);
    add(shape.optional);
    for (const nested of Object.values(shape.nested ?? {})) add(nested);
  }
  return kinds;
}

let knownKinds: Map<string, FieldKind> | undefined;

/** The contract's kind of a field, without its `!` (identifier) mark; undefined when the contract does not type it. */
export function contractKind(field: string): string | undefined {
  knownKinds ??= contractKinds();
  return knownKinds.get(field)?.replace(/[?!]$/, '');
}

/** `week`, `startWeek`, `currentWeek`...: YYYYWW integers, INT32. */
export function isWeekField(field: string): boolean {
  return field === 'week' || /[a-z]Week$/.test(field);
}

/** The Parquet type of a contract kind. */
export function kindOfContract(field: string, kind: string): ParquetKind {
  switch (kind) {
    case 'integer':
      return isWeekField(field) ? 'INT32' : 'INT64';
    case 'biginteger':
      return 'INT64';
    case 'number':
      return 'DOUBLE';
    case 'timestamp':
      return 'TIMESTAMP';
    case 'string':
      return 'UTF8';
    case 'boolean':
      return 'BOOLEAN';
    default:
      return 'JSON';
  }
}

const INTEGER_TEXT = /^-?\d+$/;

/** A column's type from the values a sample of rows holds, for fields the contract does not type. */
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
  if (sawNumber) return allIntegers ? (isWeekField(field) ? 'INT32' : 'INT64') : 'DOUBLE';
  if (sawString) return 'UTF8';
  if (sawBoolean) return 'BOOLEAN';
  return 'JSON';
}

/** The columns of a file: the contract's type where it has one, else one read from the sample rows. */
export function parquetColumns(fields: readonly string[], sample: readonly Row[]): ParquetColumn[] {
  return fields.map((name) => {
    const kind = contractKind(name);
    return { name, kind: kind === undefined ? inferKind(name, sample) : kindOfContract(name, kind) };
  });
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function columnError(column: ParquetColumn, value: unknown, why: string): OutputUsageError {
  const shown = isNumericValue(value) ? value.toString() : JSON.stringify(value);
  return new OutputUsageError(`parquet: column ${column.name} (${column.kind}) cannot hold ${shown}: ${why}`);
}

/** One value as the writer takes it for its column; null for null and absent. */
export function parquetValue(column: ParquetColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (column.kind) {
    case 'INT32':
    case 'INT64': {
      const text = isNumericValue(value) ? value.toString() : typeof value === 'string' ? value : '';
      if (!INTEGER_TEXT.test(text)) throw columnError(column, value, 'not an integer');
      const integer = BigInt(text);
      if (column.kind === 'INT32') {
        if (integer < -(2n ** 31n) || integer >= 2n ** 31n) throw columnError(column, value, 'out of the 32-bit range');
        return Number(integer);
      }
      if (integer < INT64_MIN || integer > INT64_MAX) throw columnError(column, value, 'out of the 64-bit range');
      return integer;
    }
    case 'DOUBLE': {
      const number = isNumericValue(value) ? Number(value.toString()) : Number.NaN;
      if (Number.isNaN(number)) throw columnError(column, value, 'not a number');
      return number;
    }
    case 'TIMESTAMP': {
      const date = typeof value === 'string' ? parseTimestamp(value)?.date : undefined;
      if (!date) throw columnError(column, value, 'not a timestamp of the form YYYY-MM-DDTHH:MM:SS');
      return date;
    }
    case 'BOOLEAN':
      if (typeof value !== 'boolean') throw columnError(column, value, 'not a boolean');
      return value;
    case 'UTF8':
      if (typeof value === 'string') return value;
      return isNumericValue(value) || typeof value === 'boolean' ? String(value) : compactJson(value);
    case 'JSON':
      return typeof value === 'string' ? value : compactJson(value);
  }
}

/** The schema element of a column; every column OPTIONAL (nulls as nulls). */
function schemaElement(column: ParquetColumn) {
  const optional = { name: column.name, repetition_type: 'OPTIONAL' } as const;
  switch (column.kind) {
    case 'INT32':
      return { ...optional, type: 'INT32' } as const;
    case 'INT64':
      return { ...optional, type: 'INT64' } as const;
    case 'DOUBLE':
      return { ...optional, type: 'DOUBLE' } as const;
    case 'BOOLEAN':
      return { ...optional, type: 'BOOLEAN' } as const;
    case 'TIMESTAMP':
      return { ...optional, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' } as const;
    case 'UTF8':
    case 'JSON':
      return { ...optional, type: 'BYTE_ARRAY', converted_type: 'UTF8' } as const;
  }
}

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

/**
 * hyparquet-writer's byte buffer, emptied into `out` after each row group (the writer calls flush)
 * and once the footer is in it (ParquetFile.finish), waiting while `out` is full.
 */
class StreamByteWriter extends ByteWriter {
  constructor(private readonly out: OutputStream) {
    super(64 * 1024);
  }

  flush(): Promise<void> {
    const chunk = Buffer.from(this.buffer.slice(0, this.index));
    this.index = 0;
    if (chunk.length === 0 || this.out.write(chunk)) return Promise.resolve();
    return drained(this.out);
  }

}

/** What writes the file: created once the columns are known. */
class ParquetFile {
  readonly #writer: ParquetWriter;
  readonly #bytes: StreamByteWriter;

  constructor(out: NodeJS.WritableStream, readonly columns: readonly ParquetColumn[]) {
    this.#bytes = new StreamByteWriter(out);
    this.#writer = new ParquetWriter({
      writer: this.#bytes,
      schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
      codec: 'SNAPPY',
      createdBy: 'newsstats',
    });
  }

  async writeGroup(rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    const columnData = this.columns.map((column) => ({
      name: column.name,
      data: rows.map((row) => parquetValue(column, fieldValue(row, column.name))),
    }));
    await this.#writer.write({ columnData, rowGroupSize: rows.length });
  }

  async finish(): Promise<void> {
    // Puts the indexes, metadata and footer in the buffer (ByteWriter's own finish does nothing).
    await this.#writer.finish();
    await this.#bytes.flush();
  }
}

/**
 * A sink that writes rows to `out` as Parquet: columns fixed by `columns`, or by the spec's fields
 * (and the first group's extra keys) typed as the file comment says. Resolves write() once a full
 * row group has been handed to `out`; end() writes the rest and the footer, and does not end `out`.
 */
export function openParquetWriter(out: NodeJS.WritableStream, fields: readonly string[] | ((sample: readonly Row[]) => readonly ParquetColumn[])): RowSink {
  let file: ParquetFile | undefined;
  let pending: Row[] = [];
  const columnsFor = typeof fields === 'function' ? fields : (sample: readonly Row[]) => parquetColumns(fields, sample);
  const flush = async () => {
    const rows = pending;
    pending = [];
    file ??= new ParquetFile(out, columnsFor(rows));
    await file.writeGroup(rows);
  };
  return {
    async write(row) {
      pending.push(row);
      if (pending.length >= ROW_GROUP_ROWS) await flush();
    },
    async end() {
      await flush();
      await file!.finish();
    },
  };
}

export async function renderParquet(view: View, options: RenderOptions, out: NodeJS.WritableStream): Promise<void> {
  const rows = rowsOf(view);
  const sink = openParquetSink({ ...view, fields: options.fields ?? fieldsWithRowKeys(view.fields, rows) }, options, out);
  for (const row of rows) await sink.write(row);
  await sink.end();
}

export function openParquetSink(spec: RowSinkSpec, options: RenderOptions, out: NodeJS.WritableStream): RowSink {
  // Without --fields, keys the service sent beyond the contract's fields become columns too, as in CSV.
  return openParquetWriter(out, (sample) => parquetColumns(options.fields ?? fieldsWithRowKeys(spec.fields, sample.slice(0, 1)), sample));
}
