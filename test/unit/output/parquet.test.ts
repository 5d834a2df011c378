/**
 * Parquet output read back by an independent reader (DuckDB): column types from the one schema,
 * exact digits (integers up to 38 digits, beyond 2^64), UTC timestamps, nulls as nulls, deterministic bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { renderView, openRowSink, type View } from '../../../src/output/index.js';
import { ValueOutOfRangeError } from '../../../src/output/errors.js';
import { compactJson } from '../../../src/output/flatten.js';
import { ROW_GROUP_ROWS, openParquetWriter, parquetColumns, parquetValue } from '../../../src/output/parquet.js';
import { parseTimestamp } from '../../../src/shared/timestamp.js';
import { duckRows, duckTypes, readParquet, sqlText } from '../../duckdb.js';
import { tempDir } from '../../e2e/harness.js';
import { BytesStream, baseOptions } from './helpers.js';

const n = (text: string) => new LosslessNumber(text);

const links = [
  {
    rank: n('1'), personHash: 'ada-obi-0001', articleHash: n('9223372036854775807'), mentionDate: '2026-11-20T08:15:30',
    sentiment: n('0.498'), startWeek: n('202647'), countryName: null, otherPeople: ['b-2', 'c-3'], matched: true, share: n('0.25'),
  },
  {
    rank: n('2'), personHash: 'bo-li-0002', articleHash: n('1304092902047982424'), mentionDate: '2026-01-01T00:00:00',
    sentiment: n('-0.10'), startWeek: n('202601'), countryName: 'Nigeria', otherPeople: [], matched: false, share: n('1'),
  },
];
const linksView: View = { data: links, fields: Object.keys(links[0]!) };

async function parquetFile(view: View, fields?: string[]): Promise<string> {
  const out = new BytesStream();
  await renderView(view, { ...baseOptions, format: 'parquet', ...(fields && { fields }) }, out);
  expect(out.ended).toBe(false);
  const path = join(tempDir(), 'out.parquet');
  writeFileSync(path, out.bytes);
  return path;
}

describe('parquet', () => {
  it('types columns from the schema and keeps every digit', async () => {
    const path = await parquetFile(linksView);
    expect(await duckTypes(`SELECT * FROM read_parquet(${sqlText(path)})`)).toEqual({
      rank: 'DECIMAL(38,0)', personHash: 'VARCHAR', articleHash: 'DECIMAL(38,0)', mentionDate: 'TIMESTAMP WITH TIME ZONE', sentiment: 'DOUBLE',
      startWeek: 'INTEGER', countryName: 'VARCHAR', otherPeople: 'VARCHAR', matched: 'BOOLEAN', share: 'DOUBLE',
    });
    const rows = await readParquet(path);
    expect(rows).toEqual([
      {
        rank: '1', personHash: 'ada-obi-0001', articleHash: '9223372036854775807', mentionDate: '2026-11-20 08:15:30+00',
        sentiment: 0.498, startWeek: 202647, countryName: null, otherPeople: '["b-2","c-3"]', matched: true, share: 0.25,
      },
      {
        rank: '2', personHash: 'bo-li-0002', articleHash: '1304092902047982424', mentionDate: '2026-01-01 00:00:00+00',
        sentiment: -0.1, startWeek: 202601, countryName: 'Nigeria', otherPeople: '[]', matched: false, share: 1,
      },
    ]);
    // Exact in SQL too, not only as text: the integer compares equal to its literal.
    expect(await duckRows(`SELECT count(*)::INT AS c FROM read_parquet(${sqlText(path)}) WHERE articleHash = 9223372036854775807`)).toEqual([{ c: 1 }]);
  });

  it('--fields selects and orders columns', async () => {
    const path = await parquetFile(linksView, ['articleHash', 'rank']);
    expect(await readParquet(path)).toEqual([
      { articleHash: '9223372036854775807', rank: '1' },
      { articleHash: '1304092902047982424', rank: '2' },
    ]);
  });

  it('writes the same bytes for the same rows, in row groups of a fixed size', async () => {
    const rows = Array.from({ length: ROW_GROUP_ROWS + 5 }, (_, index) => ({ rank: n(String(index + 1)), personHash: `p-${index % 7}`, dominance: n(`${index}.5`) }));
    const write = async () => {
      const out = new BytesStream();
      const sink = await openRowSink(out, { ...baseOptions, format: 'parquet' }, { fields: ['rank', 'personHash', 'dominance'] });
      for (const row of rows) await sink.write(row);
      await sink.end();
      return out.bytes;
    };
    const [first, second] = [await write(), await write()];
    expect(first.equals(second)).toBe(true);
    const path = join(tempDir(), 'groups.parquet');
    writeFileSync(path, first);
    expect(await duckRows(`SELECT count(*)::INT AS c, sum(rank)::VARCHAR AS s, max(dominance) AS m FROM read_parquet(${sqlText(path)})`)).toEqual([
      { c: rows.length, s: String((rows.length * (rows.length + 1)) / 2), m: rows.length - 1 + 0.5 },
    ]);
    const groups = await duckRows(`SELECT count(DISTINCT row_group_id)::INT AS g FROM parquet_metadata(${sqlText(path)})`);
    expect(groups).toEqual([{ g: 2 }]);
    expect(readFileSync(path).includes(Buffer.from('newsstats'))).toBe(true);
  });

  it('keeps long text, negative and 38-digit integers, dates before 1970, and statistics DuckDB filters by', async () => {
    // Text beyond the encoder's first buffers (its dictionary grows while a value is written) and
    // beyond one 64 KiB Snappy block; integers on both sides of 2^53 and of zero; booleans with nulls.
    const long = (seed: number) => Array.from({ length: 900 }, (_, index) => `${seed}-${index}-ü€😀`).join(' ');
    const values = ['-99999999999999999999999999999999999999', '-1', '0', '999999999999999', '1000000000000000', '9223372036854775808', '9'.repeat(38)];
    const rows = values.map((digits, index) => ({
      articleHash: n(digits), snippet: long(index), otherPeople: [long(index + 1)], mentionDate: index % 2 === 0 ? '1954-06-10T00:00:00' : '2026-11-20T08:15:30',
      sentiment: n(index % 3 === 0 ? '-0.0' : `${index}.25`), matched: index % 3 === 2 ? null : index % 2 === 0,
    }));
    const path = await parquetFile({ data: rows, fields: Object.keys(rows[0]!) });
    const read = await duckRows(`SELECT articleHash::VARCHAR AS a, snippet, otherPeople, epoch_ms(mentionDate)::BIGINT::VARCHAR AS t, sentiment, matched FROM read_parquet(${sqlText(path)})`);
    expect(read).toEqual(rows.map((row, index) => ({
      a: values[index], snippet: row.snippet, otherPeople: JSON.stringify(row.otherPeople), t: String(Date.parse(`${row.mentionDate}Z`)),
      sentiment: Number(row.sentiment.toString()), matched: row.matched,
    })));
    // Filters DuckDB answers from the statistics (row groups skipped by min/max) agree with the values.
    for (const [where, count] of [['articleHash > 9223372036854775807', 2], ['articleHash < 0', 2], ["mentionDate < '1970-01-01'", 4], ['sentiment > 5', 1], ["snippet > '6'", 1]] as const) {
      expect(await duckRows(`SELECT count(*)::INT AS c FROM read_parquet(${sqlText(path)}) WHERE ${where}`), where).toEqual([{ c: count }]);
    }
  });

  it('a column holding only nulls, of every type, reads back as nulls', async () => {
    // An all-null text column has an empty dictionary; an all-null number column no bounds.
    const rows = [1, 2, 3].map((index) => ({ rank: n(String(index)), countryName: null, articleHash: null, mentionDate: null, sentiment: null, matched: null, otherPeople: null, startWeek: null }));
    const path = await parquetFile({ data: rows, fields: Object.keys(rows[0]!) });
    expect(await readParquet(path)).toEqual(rows.map((_, index) => ({
      rank: String(index + 1), countryName: null, articleHash: null, mentionDate: null, sentiment: null, matched: null, otherPeople: null, startWeek: null,
    })));
    expect(await duckRows(`SELECT count(*)::INT AS c FROM read_parquet(${sqlText(path)}) WHERE countryName IS NULL AND articleHash IS NULL AND sentiment IS NULL`)).toEqual([{ c: 3 }]);
  });

  it('an empty result is a valid file with the typed columns', async () => {
    const path = await parquetFile({ data: [], fields: ['rank', 'articleHash', 'mentionDate'] });
    expect(await duckTypes(`SELECT * FROM read_parquet(${sqlText(path)})`)).toEqual({ rank: 'DECIMAL(38,0)', articleHash: 'DECIMAL(38,0)', mentionDate: 'TIMESTAMP WITH TIME ZONE' });
    expect(await readParquet(path)).toEqual([]);
  });

  it('names the row of a value its column cannot hold, counted across row groups', async () => {
    const columns = () => [{ name: 'rank', kind: 'DECIMAL' as const }];
    const rowsWithBadAt = (bad: number) => Array.from({ length: bad + 2 }, (_, index) => ({ rank: n(index + 1 === bad ? '1.5' : String(index + 1)) }));
    const failure = async (bad: number) => {
      const writer = openParquetWriter(new BytesStream(), columns);
      try {
        for (const row of rowsWithBadAt(bad)) await writer.write(row);
        await writer.end();
      } catch (error) {
        return error as ValueOutOfRangeError;
      }
      throw new Error('no error');
    };
    expect((await failure(3)).row).toBe(3);
    // In the second row group: its rows are counted on from the first's.
    expect((await failure(ROW_GROUP_ROWS + 7)).row).toBe(ROW_GROUP_ROWS + 7);
  });

  it('refuses a value its column cannot hold, naming the column', () => {
    expect(() => parquetValue({ name: 'mentionDate', kind: 'TIMESTAMP' }, 'yesterday')).toThrow(/field "mentionDate": "yesterday" cannot be written to Parquet as TIMESTAMP/);
    expect(() => parquetValue({ name: 'rank', kind: 'DECIMAL' }, n('1.5'))).toThrow(/not an integer/);
    expect(() => parquetValue({ name: 'articleHash', kind: 'DECIMAL' }, n('1'.repeat(39)))).toThrow(/more than 38 digits/);
    expect(() => parquetValue({ name: 'personHash', kind: 'UTF8', required: true }, null)).toThrow(/is a key and may not be null/);
    expect(parquetValue({ name: 'articleHash', kind: 'DECIMAL' }, n('9'.repeat(38)))).toBe('9'.repeat(38));
    expect(parquetValue({ name: 'gdp', kind: 'DECIMAL' }, n('3.0e2'))).toBe('300');
    expect(parseTimestamp('2026-02-30T00:00:00')).toBeUndefined();
  });

  it('writes a JSON column as compactJson does (lossless-json\'s text), whatever the value holds', () => {
    const json = (value: unknown) => parquetValue({ name: 'countryRows', kind: 'JSON' }, value);
    class Point {
      constructor(readonly x = n('1')) {}
    }
    const awkward: unknown[] = [
      [{ countryId: n('39'), countryName: 'Rom\u0101nia "RO"\n', countryIso: 'RO', mentions: n('6') }],
      { nested: [[n('-0.0'), n('1e400'), n('12345678901234567890123')], {}, []], 'key "quoted"\u2028': true, nothing: null, '': false },
      ['a', 'b\ud800'], [], {}, 'text', 0, -0, 1e21, 0.1, true,
      // What lossless-json writes its own way, or skips: left to it.
      [undefined, () => 1, Number.NaN], { gone: undefined, also: () => 1, kept: 1 }, Number.POSITIVE_INFINITY, 12n,
      new Date(Date.UTC(2026, 0, 1)), { toJSON: () => 'replaced' }, Object.assign(Object.create(null), { bare: n('2') }),
      new Point(), [new Point()], Object.assign([n('1')], { extra: 1 }), Object.assign(new Array(3), { 0: n('1'), 2: n('3') }),
    ];
    for (const value of awkward) expect(json(value)).toBe(compactJson(value));
    // And any JSON a parser makes, every number a LosslessNumber as the CLI reads them.
    const losslessJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.string({ unit: 'grapheme' }),
        fc.string({ unit: 'binary' }),
        fc.double({ noNaN: true }).map((number) => n(String(number).replace('Infinity', '1e999'))),
        fc.bigInt().map((integer) => n(String(integer))),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    // (null itself is the column's null, not the text `null`.)
    fc.assert(fc.property(losslessJson, (value) => value === null || json(value) === compactJson(value)), { seed: 20261128, numRuns: 300 });
  });

  it('reads a timestamp as xlsx does (shared/timestamp.ts), a fraction cut to the millisecond, never rounded up', () => {
    expect(parseTimestamp('2026-11-23T13:31:04')).toEqual({ date: new Date(Date.UTC(2026, 10, 23, 13, 31, 4)), fractionDigits: 0 });
    expect(parseTimestamp('2026-11-23 13:31:04.9999Z')).toEqual({ date: new Date(Date.UTC(2026, 10, 23, 13, 31, 4, 999)), fractionDigits: 4 });
    expect(parseTimestamp('2026-11-23T13:31:04.035')?.date.getUTCMilliseconds()).toBe(35);
    expect(['2026-11-23T24:00:00', '2026-11-23', 'yesterday', '2026-11-23T13:31:04+01:00'].map(parseTimestamp)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('types each column from the schema, keys REQUIRED when the caller names them', () => {
    expect(parquetColumns(['articleHash', 'endWeek', 'gdp', 'birthDate', 'country'], [], ['articleHash'])).toEqual([
      { name: 'articleHash', kind: 'DECIMAL', required: true },
      { name: 'endWeek', kind: 'INT32' },
      { name: 'gdp', kind: 'DECIMAL' },
      { name: 'birthDate', kind: 'TIMESTAMP' },
      { name: 'country', kind: 'JSON' },
    ]);
  });
});
