import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { openRowSink } from '../../../src/output/index.js';
import { BIG, peopleFields, peopleView } from './fixtures.js';
import { MemoryStream, baseOptions, render } from './helpers.js';

function parseDelimited(text: string, delimiter: ',' | '\t'): string[][] {
  return parse(text, { delimiter, relax_column_count: false }) as string[][];
}

describe.each([
  ['csv', ','],
] as const)('%s', (format, delimiter) => {
  test('parses back: header, quotes, commas, newlines, unicode, exact numbers, formula guard', async () => {
    const text = await render(peopleView, { format });
    const records = parseDelimited(text, delimiter);
    expect(records[0]).toEqual(peopleFields);
    expect(records[1]).toEqual([
      '1', 'p1', 'Lovelace, "Ada"', BIG, '-0.25', '#ff0000', `'=HYPERLINK("http://evil")`, 'line one\nline two;x',
    ]);
    expect(records[2]).toEqual(['2', 'p2', '習近平', '12', '1.50', '#00ff00', '', '']);
    expect(records).toHaveLength(3);
  });

  test('lines end with \\n only, no BOM', async () => {
    const text = await render({ data: [{ a: 'x' }], fields: ['a'] }, { format });
    expect(text).toBe('a\nx\n');
  });

  test('--no-header drops the header row', async () => {
    const text = await render({ data: [{ a: 'x' }], fields: ['a'] }, { format, header: false });
    expect(text).toBe('x\n');
  });

  test('--fields selects and orders columns', async () => {
    const records = parseDelimited(await render(peopleView, { format, fields: ['sentiment', 'rank'] }), delimiter);
    expect(records).toEqual([['sentiment', 'rank'], ['-0.25', '1'], ['1.50', '2']]);
  });

  test('keys the contract does not list are appended in first-seen order', async () => {
    const view = { data: [{ a: 1, z: 'new' }, { a: 2, y: true }], fields: ['a', 'b'] };
    const records = parseDelimited(await render(view, { format }), delimiter);
    expect(records).toEqual([['a', 'b', 'z', 'y'], ['1', '', 'new', ''], ['2', '', '', 'true']]);
  });

  test('a carriage return and the delimiter are quoted', async () => {
    const view = { data: [{ a: 'one\rtwo', b: `x${delimiter}y` }], fields: ['a', 'b'] };
    const text = await render(view, { format });
    expect(text).toBe(`a${delimiter}b\n"one\rtwo"${delimiter}"x${delimiter}y"\n`);
    expect(parseDelimited(text, delimiter)[1]).toEqual(['one\rtwo', `x${delimiter}y`]);
  });

  test('objects print as compact JSON, negative numbers unguarded', async () => {
    const view = {
      data: [{ country: { id: new LosslessNumber('7'), name: 'X' }, delta: new LosslessNumber('-0.25'), note: '-0.25' }],
      fields: ['country', 'delta', 'note'],
    };
    const records = parseDelimited(await render(view, { format }), delimiter);
    expect(records[1]).toEqual(['{"id":7,"name":"X"}', '-0.25', "'-0.25"]);
  });
});

test('header names that came from the API are guarded like cells', async () => {
  const text = await render({ data: [{ a: 1, '=evil': 2 }], fields: ['a'] }, { format: 'csv' });
  expect(text).toBe("a,'=evil\n1,2\n");
});

describe('csv through csv-stringify', () => {
  test('the installed csv-stringify quotes a bare carriage return by default (why it is pinned to ^6.9)', () => {
    expect(stringifySync([['one\rtwo', 'plain', '']])).toBe('"one\rtwo",plain,\n');
  });

  test('a streamed csv reaches the output row by row, before end()', async () => {
    const out = new MemoryStream();
    const sink = await openRowSink(out, { ...baseOptions, format: 'csv' }, { fields: ['a', 'b'] });
    await sink.write({ a: new LosslessNumber(BIG), b: 'x,y' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text).toBe(`a,b\n${BIG},"x,y"\n`);
    await sink.write({ a: null, b: '@sum' });
    await sink.end();
    expect(out.text).toBe(`a,b\n${BIG},"x,y"\n,'@sum\n`);
  });

  test('a long burst of rows gives the event loop a turn every 16 rows, so V8 can run its collector', async () => {
    const out = new MemoryStream();
    const sink = await openRowSink(out, { ...baseOptions, format: 'csv' }, { fields: ['a'] });
    await sink.write({ a: 'first' });
    await new Promise((resolve) => setImmediate(resolve));
    // An output that never pushes back: only the writer itself can give the event loop a turn here.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    let rowsBeforeTheTurn = 0;
    for (let row = 1; row <= 100 && !turned; row += 1) {
      await sink.write({ a: `row ${row}` });
      rowsBeforeTheTurn = row;
    }
    expect(turned).toBe(true);
    expect(rowsBeforeTheTurn).toBe(16);
    await sink.end();
    expect(out.text.split('\n').slice(0, 3)).toEqual(['a', 'first', 'row 1']);
    expect(out.text.endsWith('row 16\n')).toBe(true);
  });

  test('a burst that ends on a full batch still reaches the output before end()', async () => {
    const out = new MemoryStream();
    const sink = await openRowSink(out, { ...baseOptions, format: 'csv' }, { fields: ['a'] });
    // The header and 15 rows: 16 records, one full batch and nothing left over.
    for (let row = 1; row <= 15; row += 1) await sink.write({ a: `row ${row}` });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text.split('\n')).toHaveLength(17);
    expect(out.text.endsWith('row 15\n')).toBe(true);
    await sink.end();
  });

  test('an output that fails mid-stream fails the sink with its own error', async () => {
    const broken = new Error('disk went away');
    let accepted = 0;
    const out = new Writable({
      highWaterMark: 16,
      write(_chunk, _encoding, callback) {
        accepted += 1;
        callback(accepted > 1 ? broken : null);
      },
    });
    out.on('error', () => {});
    const sink = await openRowSink(out, { ...baseOptions, format: 'csv' }, { fields: ['a'] });
    const writeAll = async () => {
      for (let i = 0; i < 200_000; i += 1) await sink.write({ a: 'x'.repeat(100) });
      await sink.end();
    };
    await expect(writeAll()).rejects.toBe(broken);
    expect(accepted).toBe(2);
  });
});
