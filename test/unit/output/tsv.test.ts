import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { escapeTsv } from '../../../src/output/tsv.js';
import { BIG, peopleFields, peopleView } from './fixtures.js';
import { openRowSink } from '../../../src/output/index.js';
import { baseOptions, MemoryStream, render } from './helpers.js';
import { readTsv } from '../../e2e/tsv-read.js';

describe('escapeTsv', () => {
  test.each([
    ['plain', 'plain'],
    ['a\tb', 'a\\tb'],
    ['one\ntwo', 'one\\ntwo'],
    ['cr\rlf', 'cr\\rlf'],
    ['C:\\temp\\n', 'C:\\\\temp\\\\n'],
    ['"quoted"', '"quoted"'],
  ])('%j is written %j', (text, escaped) => {
    expect(escapeTsv(text)).toBe(escaped);
  });
});

describe('-f tsv', () => {
  test('one line a record, no quoting, and the text reads back exactly', async () => {
    const text = await render(peopleView, { format: 'tsv' });
    const lines = text.split('\n');
    expect(lines).toHaveLength(4); // header, two rows, and the final newline
    expect(lines[1]).toBe(`1\tp1\tLovelace, "Ada"\t${BIG}\t-0.25\t#ff0000\t'=HYPERLINK("http://evil")\tline one\\nline two;x`);
    expect(readTsv(text)).toEqual([
      peopleFields,
      ['1', 'p1', 'Lovelace, "Ada"', BIG, '-0.25', '#ff0000', `'=HYPERLINK("http://evil")`, 'line one\nline two;x'],
      ['2', 'p2', '習近平', '12', '1.50', '#00ff00', '', ''],
    ]);
  });

  test('tab, carriage return and backslash are escaped, so every field is one cut -f field', async () => {
    const view = { data: [{ a: 'one\rtwo', b: 'x\ty', c: 'back\\slash' }], fields: ['a', 'b', 'c'] };
    const text = await render(view, { format: 'tsv' });
    expect(text).toBe('a\tb\tc\none\\rtwo\tx\\ty\tback\\\\slash\n');
    expect(readTsv(text)[1]).toEqual(['one\rtwo', 'x\ty', 'back\\slash']);
  });

  test('string cells keep the formula guard; numbers stay numbers', async () => {
    const view = { data: [{ delta: new LosslessNumber('-0.25'), note: '-0.25', sum: '=1+1' }], fields: ['delta', 'note', 'sum'] };
    expect(readTsv(await render(view, { format: 'tsv' }))[1]).toEqual(['-0.25', "'-0.25", "'=1+1"]);
  });

  test('--no-header, --fields, and keys beyond the contract', async () => {
    expect(await render({ data: [{ a: 'x' }], fields: ['a'] }, { format: 'tsv', header: false })).toBe('x\n');
    expect(readTsv(await render(peopleView, { format: 'tsv', fields: ['sentiment', 'rank'] }))).toEqual([['sentiment', 'rank'], ['-0.25', '1'], ['1.50', '2']]);
    const extra = { data: [{ a: 1, z: 'new' }, { a: 2, y: true }], fields: ['a', 'b'] };
    expect(readTsv(await render(extra, { format: 'tsv' }))).toEqual([['a', 'b', 'z', 'y'], ['1', '', 'new', ''], ['2', '', '', 'true']]);
  });
});

describe('the table when stdout is not a terminal', () => {
  test('follows the same rule, with the table\'s columns and no formula guard', async () => {
    const view = { data: [{ name: 'a\tb\nc', note: '=x', n: new LosslessNumber('1.50') }], fields: ['name', 'note', 'n'] };
    const text = await render(view, { format: 'table', isTTY: false });
    expect(text).toBe('name\tnote\tn\na\\tb\\nc\t=x\t1.50\n');
  });
});

test('the piped table streams: each row is written before the sink ends, none is held', async () => {
  const out = new MemoryStream();
  const sink = await openRowSink(out, { ...baseOptions, format: 'table', isTTY: false }, { fields: ['a', 'b'], tableFields: ['b'] });
  await sink.write({ a: 1, b: 'first' });
  await new Promise((resolve) => setImmediate(resolve));
  expect(out.text).toBe('b\nfirst\n');
  await sink.write({ a: 2, b: 'second\tline' });
  await new Promise((resolve) => setImmediate(resolve));
  expect(out.text).toBe('b\nfirst\nsecond\\tline\n');
  await sink.end();
  expect(out.text).toBe('b\nfirst\nsecond\\tline\n');
});
