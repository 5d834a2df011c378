import { LosslessNumber } from 'lossless-json';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  FieldError, OUTPUT_FORMATS, formatFromPath, isOutputFormat, openRowSink, renderView, selectFields, type OutputFormat, type RenderOptions,
} from '../../../src/output/index.js';
import { BIG, people, peopleFields, peopleView } from './fixtures.js';
import { BytesStream, MemoryStream, baseOptions, render } from './helpers.js';

describe('formatFromPath', () => {
  test.each([
    ['out.csv', 'csv'],
    ['out.TSV', 'tsv'],
    ['dir.v2/out.json', 'json'],
    ['out.ndjson', 'ndjson'],
    ['out.jsonl', 'ndjson'],
    ['Report.XLSX', 'xlsx'],
    ['out.txt', undefined],
    ['csv', undefined],
    ['dir.csv/out', undefined],
  ])('%s → %s', (path, format) => {
    expect(formatFromPath(path)).toBe(format);
  });
});

test('OUTPUT_FORMATS lists every format', () => {
  expect(OUTPUT_FORMATS).toEqual(['table', 'json', 'ndjson', 'csv', 'tsv', 'chart', 'xlsx', 'parquet']);
  expect(isOutputFormat('csv')).toBe(true);
  expect(isOutputFormat('xml')).toBe(false);
});

describe('one renderer interface for every format', () => {
  // Binary and text formats alike: a whole view and a stream of rows both reach the stream, which
  // stays open (stdout must; an atomic file is ended by its commit).
  test.each(OUTPUT_FORMATS)('%s: renderView and openRowSink write to the stream and leave it open', async (format) => {
    const options = { ...baseOptions, format, isTTY: format === 'chart' || format === 'table' };
    const whole = new BytesStream();
    await renderView(peopleView, options, whole);
    const streamed = new BytesStream();
    const sink = await openRowSink(streamed, options, { fields: peopleFields, tableFields: peopleView.tableFields, chart: peopleView.chart });
    for (const row of people) await sink.write(row);
    await sink.end();
    for (const out of [whole, streamed]) {
      expect(out.ended).toBe(false);
      expect(out.bytes.length).toBeGreaterThan(0);
    }
    const magic = { xlsx: 'PK', parquet: 'PAR1' }[format as string];
    if (magic !== undefined) expect([whole, streamed].map((out) => out.bytes.subarray(0, magic.length).toString('latin1'))).toEqual([magic, magic]);
  });
});

describe('selectFields', () => {
  const valid = ['rank', 'fullName', 'mentionCount'];

  test('keeps the requested order, trims, drops repeats and empties', () => {
    expect(selectFields(['mentionCount', ' rank ', 'rank', ''], valid)).toEqual(['mentionCount', 'rank']);
  });

  test('an unknown field names it and lists the valid ones', () => {
    let caught: unknown;
    try {
      selectFields(['rank', 'fullname', 'bogus'], valid);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FieldError);
    const error = caught as FieldError;
    expect(error.unknownFields).toEqual(['fullname', 'bogus']);
    expect(error.validFields).toEqual(valid);
    expect(error.message).toBe('unknown fields "fullname", "bogus" (did you mean fullName?). Valid fields: rank, fullName, mentionCount');
  });

  test('no field at all is an error too', () => {
    expect(() => selectFields([' ', ''], valid)).toThrow('Valid fields: rank, fullName, mentionCount');
  });
});

async function streamRows(format: OutputFormat, options: Partial<RenderOptions> = {}, rows = people): Promise<string> {
  const out = new MemoryStream();
  const sink = await openRowSink(out, { ...baseOptions, format, ...options }, {
    fields: peopleFields,
    tableFields: peopleView.tableFields,
    chart: peopleView.chart,
  });
  for (const row of rows) await sink.write(row);
  await sink.end();
  return out.text;
}

describe('openRowSink', () => {
  test.each(['json', 'ndjson', 'csv', 'tsv', 'table', 'chart'] as const)('%s: streamed output equals renderView', async (format) => {
    const options = { isTTY: format === 'chart', width: 70 };
    expect(await streamRows(format, options)).toBe(await render(peopleView, { format, ...options }));
  });

  test('json with --fields streams the projected rows', async () => {
    const streamed = await streamRows('json', { fields: ['mentionCount', 'fullName'] });
    expect(streamed).toBe(await render(peopleView, { format: 'json', fields: ['mentionCount', 'fullName'] }));
    expect(streamed).toContain(`"mentionCount": ${BIG}`);
  });

  test('no rows: json is [], csv is the header', async () => {
    expect(await streamRows('json', {}, [])).toBe('[]\n');
    expect(await streamRows('csv', { fields: ['rank', 'fullName'] }, [])).toBe('rank,fullName\n');
  });

  test('json writes rows as they come, before end()', async () => {
    const out = new MemoryStream();
    const sink = await openRowSink(out, { ...baseOptions, format: 'json' }, { fields: ['a'] });
    await sink.write({ a: new LosslessNumber('1') });
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text).toBe('[\n  {\n    "a": 1\n  }');
    await sink.end();
    expect(out.text).toBe('[\n  {\n    "a": 1\n  }\n]\n');
  });

  test('--fields for a stream that declares no fields fail before anything is written: no row can bear them out yet', async () => {
    const out = new MemoryStream();
    await expect(openRowSink(out, { ...baseOptions, format: 'csv', fields: ['x'] }, { fields: [] })).rejects.toBeInstanceOf(FieldError);
    expect(out.text).toBe('');
  });
});

/** A stream that accepts one small chunk at a time, slowly. */
class SlowStream extends Writable {
  received = '';
  maxQueued = 0;

  constructor() {
    super({ highWaterMark: 1024 });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.maxQueued = Math.max(this.maxQueued, this.writableLength);
    this.received += chunk.toString('utf8');
    setTimeout(callback, 1);
  }
}

test('renderView waits for the stream to drain rather than queueing everything', async () => {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ id: new LosslessNumber(String(i)), name: `person ${i}` }));
  const out = new SlowStream();
  await renderView({ data: rows, fields: ['id', 'name'] }, { ...baseOptions, format: 'csv' }, out);
  expect(out.received.split('\n')).toHaveLength(20_002);
  expect(out.received.startsWith('id,name\n0,person 0\n')).toBe(true);
  // Never more than one 64 KiB chunk (plus the one in flight) waiting in the stream.
  expect(out.maxQueued).toBeLessThan(2 * 64 * 1024 + 1024);
});

describe('a view that declares no fields (the raw api command) takes its rows\' keys', () => {
  const view = { data: [{ a: 1 }, { a: 2, later: 'x' }], fields: [] };

  test('as its fields, in first-seen order: csv columns and table columns alike', async () => {
    expect(await render(view, { format: 'csv' })).toBe('a,later\n1,\n2,x\n');
    expect(await render(view, { format: 'table' })).toBe('a\tlater\n1\t\n2\tx\n');
  });

  test('and checks --fields against them, once, since only the data can tell', async () => {
    expect(await render(view, { format: 'csv', fields: ['later', 'a'] })).toBe('later,a\n,1\nx,2\n');
    await expect(render(view, { format: 'csv', fields: ['b'] })).rejects.toThrow('Valid fields: a, later');
  });
});

test('a view that declares its fields takes --fields as the caller checked them (the CLI plan, before any request)', async () => {
  // Not checked again: a name beyond the declared fields is the caller's choice, printed as an empty column.
  expect(await render({ data: [{ a: 1 }], fields: ['a'] }, { format: 'csv', fields: ['a', 'extra'] })).toBe('a,extra\n1,\n');
});
