/**
 * newsstats' own Parquet writer (src/output/parquet-file.ts: Thrift footer, PLAIN and RLE_DICTIONARY
 * pages, RLE definition levels, statistics, its own Snappy) proven against an independent reader,
 * DuckDB (test/duckdb.ts).
 *
 * - Random tables of every column kind the writer has (INT32, DECIMAL(38,0), DOUBLE, TIMESTAMP, UTF8,
 *   BOOLEAN, JSON), REQUIRED and OPTIONAL, from zero rows to several row groups, read back exactly:
 *   DECIMAL digit for digit, doubles bit for bit, timestamps to the microsecond DuckDB keeps.
 * - The column types DuckDB reports; each row group's null count and min/max as DuckDB reads them
 *   from the footer; and filters DuckDB answers with the statistics (`col < X`, `= X`, `> X`, `IS
 *   NULL`, row groups skipped by min/max) agree with the same filter in JS over the values.
 * - Snappy alone: random and adversarial inputs compressed by snappyCompress, decoded by DuckDB's
 *   Snappy (no Snappy decoder is installed; the input is made the body of a page, see snappyViaDuckDB).
 *
 * Bounded in `npm test` (fixed seed, about 3 s). NEWSSTATS_PROPERTY_RUNS=500 runs that many cases of
 * each property; NEWSSTATS_PROPERTY_SEED picks another seed. A failure prints the seed (which
 * regenerates the case), a summary of the case and what differs; cases are not shrunk (endOnFailure).
 * Each check was seen to fail against a broken writer: statistics swapped, too narrow or kept past
 * 64 bytes, the -0 rule dropped, the DECIMAL fast path widened, 17-bit indexes cut to 16, a long
 * Snappy literal's length in one byte, INT64's high word wrong for negatives, a null count off by one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bytes, ParquetFileWriter, snappyCompress, type EncodedValue, type ParquetColumn, type ParquetKind } from '../../src/output/parquet-file.js';
import { duckRows, duckTypes, sqlText } from '../duckdb.js';

const RUNS = Number(process.env.NEWSSTATS_PROPERTY_RUNS ?? 0) || undefined;
const SEED = Number(process.env.NEWSSTATS_PROPERTY_SEED ?? 20261128);
const TIMEOUT_MS = 120_000 + (RUNS ?? 0) * 1_000;

let directory: string;
let files = 0;
beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'newsstats-parquet-property-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A fresh path each time: DuckDB may keep what it read of a file by its name. */
function nextPath(): string {
  files += 1;
  return join(directory, `${files}.parquet`);
}

// ---- Tables ----

interface TableColumn extends ParquetColumn {
  values: EncodedValue[];
  /** Picks the value the filters compare against (an index into the non-null values, modulo). */
  probe: number;
}

interface Table {
  columns: TableColumn[];
  /** Rows of each row group, in order; they add up to the table's rows. */
  groups: number[];
}

const DUCKDB_TYPE: Record<ParquetKind, string> = {
  INT32: 'INTEGER', DECIMAL: 'DECIMAL(38,0)', DOUBLE: 'DOUBLE', TIMESTAMP: 'TIMESTAMP WITH TIME ZONE', UTF8: 'VARCHAR', BOOLEAN: 'BOOLEAN',
  // The JSON logical type with the UTF8 annotation: DuckDB reads the text (docs/types.md).
  JSON: 'VARCHAR',
};
const KINDS = Object.keys(DUCKDB_TYPE) as ParquetKind[];

/** The largest DECIMAL(38,0): 38 nines. 2^127 has 39 digits, so 2^126 is the highest power of two in range. */
const DECIMAL_MAX = 10n ** 38n - 1n;
/** Where the encoding changes hands: 32-bit words, the double fast path (15 digits), 2^53, int64, uint64, 2^126. */
const DECIMAL_EDGES = [0n, 1n, 2n ** 31n, 2n ** 32n, 10n ** 15n, 2n ** 53n, 2n ** 63n, 2n ** 64n, 2n ** 126n, DECIMAL_MAX]
  .flatMap((edge) => [edge - 1n, edge, edge + 1n])
  .filter((value) => value >= 0n && value <= DECIMAL_MAX)
  .flatMap((value) => [value, -value]);

/** Epoch milliseconds: ECMAScript's whole range of dates (±8.64e15, years -271821 to 275760), and where INT64's words meet. */
const TIME_LIMIT = 8.64e15;
const TIME_EDGES = [0, 1, -1, 999, -1000, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, -(2 ** 32), -(2 ** 32) - 1, -62_167_219_200_000, 253_402_300_799_999, TIME_LIMIT, -TIME_LIMIT];

/** Text pieces that trouble encoders: NUL, combining marks, emoji sequences, the last code points, a quote. */
const AWKWARD_TEXT = ['', '\u0000', 'a\u0000b', 'e\u0301', '\u0301', 'Zoë', '😀', '👩‍👩‍👧', '🇳🇬', '\uFFFF', '\u{10FFFF}', "'", '\\', '\n', ' '];
/** Text of 64 bytes, the longest statistics bound kept, and of 65, one too long (bytes, not characters). */
const BOUND_TEXT = ['~'.repeat(64), '~'.repeat(65), 'é'.repeat(32), `${'é'.repeat(32)}!`, '\u0000'.repeat(64)];

function valuesOf(kind: ParquetKind): fc.Arbitrary<EncodedValue> {
  switch (kind) {
    case 'INT32':
      return fc.oneof(fc.integer(), fc.constantFrom(-(2 ** 31), 2 ** 31 - 1, 0, -1, 1));
    case 'DECIMAL':
      return fc.oneof(fc.constantFrom(...DECIMAL_EDGES), fc.bigInt({ min: -DECIMAL_MAX, max: DECIMAL_MAX }), fc.bigInt({ min: -(10n ** 17n), max: 10n ** 17n })).map(String);
    case 'DOUBLE':
      // The writer refuses NaN (parquet.ts), keeps ±Infinity (a JSON number beyond the double range).
      return fc.oneof(
        fc.double({ noNaN: true }),
        fc.constantFrom(-0, 0, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE, -Number.MAX_VALUE, Infinity, -Infinity, 2 ** 53 + 2, 0.1, 1e-300, -1e300),
      );
    case 'TIMESTAMP':
      return fc.oneof(fc.integer({ min: -TIME_LIMIT, max: TIME_LIMIT }), fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), fc.constantFrom(...TIME_EDGES));
    case 'UTF8':
      return fc.oneof(
        { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
        // Few distinct values: dictionary entries used many times.
        { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...AWKWARD_TEXT.filter(Boolean), 'a', 'b'), maxLength: 4 }) },
        // Around the longest statistics bound kept (64 bytes).
        { weight: 1, arbitrary: fc.oneof(fc.string({ minLength: 58, maxLength: 70 }), fc.constantFrom(...BOUND_TEXT)) },
        { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_TEXT) },
      );
    case 'BOOLEAN':
      return fc.boolean();
    case 'JSON':
      return fc.json({ maxDepth: 2, stringUnit: 'grapheme' });
  }
}

type Nulls = 'none' | 'some' | 'most' | 'all';

function columnValues(kind: ParquetKind, nulls: Nulls, rows: number): fc.Arbitrary<EncodedValue[]> {
  const value = valuesOf(kind);
  const cell = nulls === 'all' ? fc.constant(null)
    : nulls === 'none' ? value
      : fc.oneof({ weight: nulls === 'some' ? 1 : 4, arbitrary: fc.constant(null) }, { weight: nulls === 'some' ? 4 : 1, arbitrary: value });
  return fc.array(cell, { minLength: rows, maxLength: rows });
}

const tables: fc.Arbitrary<Table> = fc.record({
  rows: fc.oneof(fc.constant(0), fc.constant(1), fc.integer({ min: 2, max: 40 }), fc.integer({ min: 200, max: 1500 })),
  groupRows: fc.integer({ min: 1, max: 2000 }),
  shapes: fc.array(fc.record({ kind: fc.constantFrom(...KINDS), required: fc.boolean(), nulls: fc.constantFrom<Nulls>('none', 'some', 'most', 'all'), probe: fc.nat() }), { minLength: 1, maxLength: 5 }),
}).chain(({ rows, groupRows, shapes }) => fc.tuple(...shapes.map((shape) => columnValues(shape.kind, shape.required ? 'none' : shape.nulls, rows))).map((values) => {
  // At most 40 row groups: enough to skip some by their statistics, few enough to stay quick.
  const size = Math.max(groupRows, Math.ceil(rows / 40));
  const groups: number[] = [];
  for (let start = 0; start < rows; start += size) groups.push(Math.min(size, rows - start));
  const columns = shapes.map((shape, index): TableColumn => ({
    name: `c${index}_${shape.kind.toLowerCase()}`, kind: shape.kind, ...(shape.required && { required: true }), values: values[index]!, probe: shape.probe,
  }));
  return { columns, groups, [fc.toStringMethod]: () => describeTable(columns, groups) };
}));

/** A table as a failure names it (its values are too many to print; the assertion names the row or row group). */
function describeTable(columns: readonly TableColumn[], groups: readonly number[]): string {
  const shown = columns.map((column) => `${column.name} ${column.required ? 'REQUIRED' : 'OPTIONAL'} (${column.values.filter((value) => value === null).length} nulls)`);
  return `${groups.reduce((total, rows) => total + rows, 0)} rows in row groups of [${groups.join(', ')}]: ${shown.join(', ')}`;
}

/** The file's bytes: each row group through ParquetFileWriter.group, then the footer, as parquet.ts writes them. */
function writeTable(table: Table): string {
  const writer = new ParquetFileWriter(table.columns, 'newsstats property test');
  const parts: Buffer[] = [];
  let start = 0;
  for (const rows of table.groups) {
    parts.push(writer.group(table.columns.map((column) => column.values.slice(start, start + rows)), rows));
    start += rows;
  }
  parts.push(writer.footer());
  const path = nextPath();
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

// ---- Comparing ----

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The bits of a double as hex: equal only when bit-identical (-0 is not 0). */
function doubleBits(value: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeDoubleBE(value);
  return bytes.toString('hex');
}

/** What DuckDB is asked for a column, so that its answer compares exactly (DECIMAL as digits, time as epoch microseconds). */
function readExpression(column: ParquetColumn): string {
  const name = quoted(column.name);
  if (column.kind === 'DECIMAL') return `${name}::VARCHAR`;
  if (column.kind === 'TIMESTAMP') return `epoch_us(${name})::VARCHAR`;
  return name;
}

/** A value as read back (after readExpression and DuckDB's JSON form), or as written, in one comparable form. */
function comparable(kind: ParquetKind, value: unknown): unknown {
  if (value === null) return null;
  switch (kind) {
    // DuckDB's JSON form gives ±Infinity as text.
    case 'DOUBLE':
      return doubleBits(Number(value));
    case 'TIMESTAMP':
      return typeof value === 'number' ? String(BigInt(value) * 1000n) : value;
    default:
      return value;
  }
}

type OrderKey = number | bigint | Buffer;

/** A value as it orders for a reader (DuckDB: numbers by value, -0 = 0; DECIMAL exactly; text by its UTF-8 bytes). */
function orderKey(kind: ParquetKind, value: EncodedValue): OrderKey {
  switch (kind) {
    case 'DECIMAL':
      return BigInt(value as string);
    case 'UTF8':
    case 'JSON':
      return Buffer.from(value as string);
    default:
      return Number(value);
  }
}

function compare(a: OrderKey, b: OrderKey): number {
  if (Buffer.isBuffer(a)) return Buffer.compare(a, b as Buffer);
  const [x, y] = [a, b as number | bigint];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A value as a SQL constant of the column's type (text through hex, so NUL and quotes need no escaping). */
function sqlConstant(kind: ParquetKind, value: EncodedValue): string {
  switch (kind) {
    case 'INT32':
      return `(${value as number})::INTEGER`;
    case 'DECIMAL':
      return `'${value as string}'::DECIMAL(38,0)`;
    case 'DOUBLE':
      return `'${Object.is(value, -0) ? '-0.0' : String(value)}'::DOUBLE`;
    case 'TIMESTAMP':
      return `make_timestamptz(${BigInt(value as number) * 1000n}::BIGINT)`;
    case 'BOOLEAN':
      return String(value);
    case 'UTF8':
    case 'JSON':
      return `decode(from_hex('${Buffer.from(value as string).toString('hex')}'))`;
  }
}

/**
 * The statistics the writer promises for one column chunk, in the form DuckDB's parquet_metadata
 * gives them after the casts in checkStatistics: null count, and min/max (none for JSON, none for
 * text with a bound over 64 bytes, none for a chunk of nulls only). Undefined: not compared (DuckDB
 * reports no infinite bound of a DOUBLE).
 */
function expectedStatistics(column: ParquetColumn, values: readonly EncodedValue[]): { nulls: number; min: unknown; max: unknown } {
  const present = values.filter((value) => value !== null);
  const nulls = values.length - present.length;
  if (present.length === 0 || column.kind === 'JSON') return { nulls, min: null, max: null };
  const keys = present.map((value) => orderKey(column.kind, value));
  let [minAt, maxAt] = [0, 0];
  keys.forEach((key, at) => {
    if (compare(key, keys[minAt]!) < 0) minAt = at;
    if (compare(key, keys[maxAt]!) > 0) maxAt = at;
  });
  const [min, max] = [present[minAt]!, present[maxAt]!];
  switch (column.kind) {
    case 'UTF8': {
      const fits = Buffer.byteLength(min as string) <= 64 && Buffer.byteLength(max as string) <= 64;
      return { nulls, min: fits ? min : null, max: fits ? max : null };
    }
    case 'DOUBLE': {
      // Parquet's rule for zero: a minimum of zero is written -0, a maximum +0.
      const bound = (value: number, zero: number) => (Number.isFinite(value) ? doubleBits(value === 0 ? zero : value) : undefined);
      return { nulls, min: bound(min as number, -0), max: bound(max as number, 0) };
    }
    case 'TIMESTAMP':
      return { nulls, min: comparable('TIMESTAMP', min), max: comparable('TIMESTAMP', max) };
    case 'INT32':
    case 'BOOLEAN':
      return { nulls, min: String(min), max: String(max) };
    default:
      return { nulls, min, max };
  }
}

async function checkStatistics(path: string, table: Table): Promise<void> {
  const chunks = await duckRows(`SELECT row_group_id::INT AS rowGroup, column_id::INT AS column, stats_null_count::INT AS nulls, stats_min_value AS min, stats_max_value AS max,
    TRY_CAST(stats_min_value AS DOUBLE) AS minDouble, TRY_CAST(stats_max_value AS DOUBLE) AS maxDouble,
    epoch_us(TRY_CAST(stats_min_value AS TIMESTAMPTZ))::VARCHAR AS minTime, epoch_us(TRY_CAST(stats_max_value AS TIMESTAMPTZ))::VARCHAR AS maxTime
    FROM parquet_metadata(${sqlText(path)}) ORDER BY row_group_id, column_id`);
  expect(chunks.length, 'column chunks').toBe(table.groups.length * table.columns.length);
  let start = 0;
  table.groups.forEach((rows, group) => {
    table.columns.forEach((column, index) => {
      const chunk = chunks[group * table.columns.length + index]!;
      const expected = expectedStatistics(column, column.values.slice(start, start + rows));
      const read = column.kind === 'DOUBLE' ? [chunk.minDouble, chunk.maxDouble].map((bound) => (bound === null ? null : doubleBits(Number(bound))))
        : column.kind === 'TIMESTAMP' ? [chunk.minTime, chunk.maxTime] : [chunk.min, chunk.max];
      const where = `row group ${group}, ${column.name}`;
      expect(chunk.nulls, `${where}: null count`).toBe(expected.nulls);
      if (expected.min !== undefined) expect(read[0], `${where}: min`).toEqual(expected.min);
      if (expected.max !== undefined) expect(read[1], `${where}: max`).toEqual(expected.max);
    });
    start += rows;
  });
}

/** Filters DuckDB may answer by skipping row groups on their statistics give what a full look at the values gives. */
async function checkFilters(path: string, table: Table): Promise<void> {
  const source = `read_parquet(${sqlText(path)})`;
  for (const column of table.columns) {
    const name = quoted(column.name);
    const count = async (where: string) => Number((await duckRows(`SELECT count(*)::INT AS n FROM ${source} WHERE ${where}`))[0]!.n);
    expect(await count(`${name} IS NULL`), `${column.name} IS NULL`).toBe(column.values.filter((value) => value === null).length);
    const present = column.values.filter((value) => value !== null);
    if (present.length === 0) continue;
    const keys = present.map((value) => orderKey(column.kind, value));
    const probe = column.probe % present.length;
    const constant = sqlConstant(column.kind, present[probe]!);
    for (const [operator, holds] of [['<', (order: number) => order < 0], ['=', (order: number) => order === 0], ['>', (order: number) => order > 0]] as const) {
      const expected = keys.filter((key) => holds(compare(key, keys[probe]!))).length;
      expect(await count(`${name} ${operator} ${constant}`), `${column.name} ${operator} ${constant.slice(0, 80)}`).toBe(expected);
    }
  }
}

/** The whole check of one table: types, every value, statistics, filters. */
async function checkTable(table: Table): Promise<void> {
  const path = writeTable(table);
  const source = `read_parquet(${sqlText(path)}, file_row_number = true)`;
  expect(await duckTypes(`SELECT * EXCLUDE (file_row_number) FROM ${source}`)).toEqual(Object.fromEntries(table.columns.map((column) => [column.name, DUCKDB_TYPE[column.kind]])));
  const rows = await duckRows(`SELECT ${table.columns.map((column, index) => `${readExpression(column)} AS v${index}`).join(', ')} FROM ${source} ORDER BY file_row_number`);
  expect(rows.length, 'rows').toBe(table.groups.reduce((total, rows) => total + rows, 0));
  table.columns.forEach((column, index) => {
    const read = rows.map((row) => comparable(column.kind, row[`v${index}`]));
    const written = column.values.map((value) => comparable(column.kind, value));
    const differs = read.findIndex((value, row) => value !== written[row]);
    expect(differs, `${column.name}: first row that differs (${JSON.stringify(read[differs])?.slice(0, 200)} read, ${JSON.stringify(written[differs])?.slice(0, 200)} written)`).toBe(-1);
  });
  await checkStatistics(path, table);
  await checkFilters(path, table);
}

describe('Parquet writer against DuckDB', () => {
  it('random tables of every column kind read back exactly, typed, with statistics that filter right', async () => {
    // No shrinking (endOnFailure): a case is thousands of values and a DuckDB read each, so shrinking
    // one could take minutes. The failure names the seed, the table, and the row group, column and row.
    await fc.assert(fc.asyncProperty(tables, checkTable), { seed: SEED, numRuns: RUNS ?? 60, endOnFailure: true });
  }, TIMEOUT_MS);

  it('every awkward text alone in a row group: its own statistics bound, kept to 64 bytes', async () => {
    const values = [...AWKWARD_TEXT, ...BOUND_TEXT];
    await checkTable({ columns: [{ name: 'text', kind: 'UTF8', probe: 0, values }, { name: 'json', kind: 'JSON', probe: 1, values: values.map((value) => JSON.stringify(value)) }], groups: values.map(() => 1) });
  });

  it('a table wider than 14 columns (the footer\'s lists take their long form), every kind three ways', async () => {
    const rows = 30;
    const samples = fc.sample(fc.tuple(...KINDS.map(valuesOf)), { seed: SEED, numRuns: rows });
    const columns = KINDS.flatMap((kind, index): TableColumn[] => {
      const values = samples.map((sample) => sample[index]!);
      return [
        { name: `${kind.toLowerCase()}_required`, kind, required: true, probe: 3, values },
        { name: `${kind.toLowerCase()}_some_null`, kind, probe: 5, values: values.map((value, row) => (row % 4 === 1 ? null : value)) },
        { name: `${kind.toLowerCase()}_null`, kind, probe: 0, values: values.map(() => null) },
      ];
    });
    await checkTable({ columns, groups: [7, 7, 7, 7, 2] });
  });

  it('a table of several full row groups, Snappy blocks, text over 64 KiB and dictionaries over 65,536 entries', async () => {
    // 10,000 rows a group, as parquet.ts writes them (ROW_GROUP_ROWS): a group's DECIMAL page is
    // 160 KB and its dictionary of distinct names over 200 KB, three and more Snappy blocks each.
    const rows = 25_000;
    const index = Array.from({ length: rows }, (_, row) => row);
    const repetitive = (row: number) => `${'news of the week, '.repeat(4000 + row % 7)}${row}`; // ~72 KB, highly repetitive
    const columns: TableColumn[] = [
      { name: 'articleHash', kind: 'DECIMAL', required: true, probe: 12_345, values: index.map((row) => String((row % 2 === 0 ? 1n : -1n) * ((BigInt(row) * 7919n ** 9n) % (DECIMAL_MAX + 1n)))) },
      { name: 'week', kind: 'INT32', probe: 3, values: index.map((row) => 202601 + (row % 53)) },
      { name: 'share', kind: 'DOUBLE', probe: 77, values: index.map((row) => (row % 11 === 0 ? null : Math.sin(row) * 10 ** ((row % 600) - 300))) },
      { name: 'mentionDate', kind: 'TIMESTAMP', probe: 9_999, values: index.map((row) => -TIME_LIMIT + row * 691_200_000_000) },
      { name: 'personName', kind: 'UTF8', probe: 20_001, values: index.map((row) => `name-${row}-ü😀e\u0301`) },
      { name: 'snippet', kind: 'UTF8', probe: 1, values: index.map((row) => (row % 1000 === 0 ? repetitive(row) : row % 3 === 0 ? null : `snippet ${row % 50}`)) },
      { name: 'matched', kind: 'BOOLEAN', probe: 0, values: index.map((row) => (row % 3 === 0 ? null : row % 2 === 0)) },
      { name: 'otherPeople', kind: 'JSON', probe: 5, values: index.map((row) => JSON.stringify({ row, people: [`p-${row % 97}`, 'Zoë'] })) },
    ];
    await checkTable({ columns, groups: [10_000, 10_000, 5_000] });

    // Over 65,536 distinct values in one group: dictionary indexes 17 bits wide (three bytes a run value).
    const many = 70_000;
    await checkTable({
      columns: [{ name: 'personHash', kind: 'UTF8', required: true, probe: 69_999, values: Array.from({ length: many }, (_, row) => `p-${row.toString(36)}`) }],
      groups: [many],
    });
  }, TIMEOUT_MS);
});

// ---- Snappy ----

/**
 * `input` decoded by DuckDB's Snappy from what snappyCompress made of it. The input is made the body
 * of a page: a REQUIRED column has no levels, and PLAIN INT32 (4 bytes a value, little-endian) or
 * BOOLEAN (8 values a byte, least significant bit first) takes any bytes, so the page body is exactly
 * the input; the file is checked to hold snappyCompress's very output. INT32 when the length allows:
 * a 32nd of the rows.
 */
async function snappyViaDuckDB(input: Uint8Array): Promise<Buffer> {
  const words = input.length % 4 === 0;
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.length);
  const values: EncodedValue[] = [];
  if (words) for (let at = 0; at < input.length; at += 4) values.push(bytes.readInt32LE(at));
  else for (const byte of input) for (let bit = 0; bit < 8; bit += 1) values.push(((byte >> bit) & 1) === 1);
  const writer = new ParquetFileWriter([{ name: 'v', kind: words ? 'INT32' : 'BOOLEAN', required: true }], 'newsstats property test');
  const file = Buffer.concat([...(values.length > 0 ? [writer.group([values], values.length)] : []), writer.footer()]);
  const compressed = new Bytes();
  snappyCompress(input, compressed);
  if (input.length > 0) expect(file.includes(compressed.view()), 'the page holds snappyCompress output').toBe(true);
  const path = nextPath();
  writeFileSync(path, file);
  const source = `read_parquet(${sqlText(path)}, file_row_number = true)`;
  if (words) {
    const [row] = await duckRows(`SELECT coalesce(list(v ORDER BY file_row_number), []) AS v FROM ${source}`);
    const read = row!.v as number[];
    const output = Buffer.alloc(read.length * 4);
    read.forEach((word, index) => output.writeInt32LE(word, index * 4));
    return output;
  }
  const [row] = await duckRows(`SELECT coalesce(string_agg(CASE WHEN v THEN '1' ELSE '0' END, '' ORDER BY file_row_number), '') AS v FROM ${source}`);
  const text = String(row!.v);
  const output = Buffer.alloc(text.length / 8);
  for (let at = 0; at < text.length; at += 1) if (text[at] === '1') output[at >> 3]! |= 1 << (at & 7);
  return output;
}

/** snappyCompress's output for `input`, checked against what the format allows (its length first; at most 32 + n + n/6 bytes). */
function compressed(input: Uint8Array): Buffer {
  const out = new Bytes();
  snappyCompress(input, out);
  const bytes = Buffer.from(out.view());
  expect(bytes.length, 'Snappy worst case').toBeLessThanOrEqual(32 + input.length + Math.floor(input.length / 6));
  return bytes;
}

async function checkSnappy(input: Uint8Array): Promise<void> {
  compressed(input);
  const decoded = await snappyViaDuckDB(input);
  const differs = decoded.findIndex((byte, at) => byte !== input[at]);
  expect({ length: decoded.length, differs }, 'decoded length and first byte that differs').toEqual({ length: input.length, differs: -1 });
}

/** Deterministic bytes that do not compress (xorshift). */
function noise(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let at = 0; at < length; at += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[at] = state & 0xff;
  }
  return bytes;
}

/** `piece` repeated to `length` bytes. */
function repeated(piece: Uint8Array | string, length: number): Uint8Array {
  const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
  return Uint8Array.from({ length }, (_, at) => bytes[at % bytes.length]!);
}

/** A match of `length` bytes `offset` back after noise: copies of every length class and offset width. */
function match(offset: number, length: number): Uint8Array {
  const head = noise(offset + 16, offset * 131 + length);
  // Noise after the match, to a whole number of 4-byte words (snappyViaDuckDB reads those fastest).
  const bytes = new Uint8Array(Math.ceil((head.length + length + 8) / 4) * 4);
  bytes.set(head);
  for (let at = 0; at < length; at += 1) bytes[head.length + at] = bytes[head.length + at - offset]!;
  bytes.set(noise(bytes.length - head.length - length, 7), head.length + length);
  return bytes;
}

describe('Snappy, decoded by DuckDB', () => {
  const BLOCK = 65_536;
  const cases: Array<[string, Uint8Array]> = [
    ['empty', new Uint8Array(0)],
    ['one byte', Uint8Array.of(0x5a)],
    ['three bytes (shorter than a match)', Uint8Array.of(1, 1, 1)],
    ['all the same, one block exactly', new Uint8Array(BLOCK).fill(7)],
    ['all the same, one block and one byte', new Uint8Array(BLOCK + 1).fill(7)],
    ['incompressible, one block exactly', noise(BLOCK)],
    ['incompressible, one block and one byte', noise(BLOCK + 1)],
    ['incompressible, three blocks and a bit', noise(3 * BLOCK + 1236, 99)],
    ['repetitive text across three block boundaries', repeated('news of the week, ', 3 * BLOCK + 20)],
    ['a period that does not divide the block', repeated(noise(1000, 5), 2 * BLOCK + 500)],
    ['a literal of 60, 61, 256 and 257 bytes', Buffer.concat([noise(60, 2), new Uint8Array(8), noise(61, 3), new Uint8Array(8), noise(256, 4), new Uint8Array(8), noise(257, 5)])],
    ...[4, 11, 12, 63, 64, 65, 66, 67, 68, 69, 128, 129, 1000].flatMap((length) => [2047, 2048, 60_000].map((offset): [string, Uint8Array] => [`a copy of ${length} bytes from ${offset} back`, match(offset, length)])),
    ['a copy from 1 byte back (overlapping, run-length)', Buffer.concat([noise(10, 8), new Uint8Array(500).fill(3), noise(10, 9)])],
  ];

  it.each(cases)('%s', async (_, input) => {
    await checkSnappy(input);
  });

  it('compresses what repeats (the matcher finds matches, within and across blocks)', () => {
    expect(compressed(new Uint8Array(BLOCK + 1).fill(7)).length).toBeLessThan(BLOCK / 20);
    expect(compressed(repeated('news of the week, ', 3 * BLOCK)).length).toBeLessThan(3 * BLOCK / 10);
  });

  it('random inputs made of noise, runs and repeats of earlier bytes decode to themselves', async () => {
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ bytes })),
      fc.record({ byte: fc.integer({ min: 0, max: 255 }), length: fc.integer({ min: 1, max: 3000 }) }).map(({ byte, length }) => ({ bytes: new Uint8Array(length).fill(byte) })),
      fc.record({ back: fc.nat(), length: fc.integer({ min: 1, max: 5000 }) }).map(({ back, length }) => ({ back, length })),
    );
    const inputs = fc.array(piece, { maxLength: 60 }).map((pieces) => {
      const out: number[] = [];
      for (const part of pieces) {
        if ('bytes' in part) out.push(...part.bytes);
        else if (out.length > 0) {
          const from = out.length - 1 - (part.back % Math.min(out.length, 70_000));
          for (let at = 0; at < part.length; at += 1) out.push(out[from + at]!);
        }
      }
      const bytes = Uint8Array.from(out);
      // Named by size in a failure: the bytes are too many to print, and the seed regenerates them.
      return Object.assign(bytes, { [fc.toStringMethod]: () => `${bytes.length} bytes from ${pieces.length} pieces` });
    });
    await fc.assert(fc.asyncProperty(inputs, checkSnappy), { seed: SEED, numRuns: RUNS ?? 25, endOnFailure: true });
  }, TIMEOUT_MS);
});
