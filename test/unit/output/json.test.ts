import { LosslessNumber, parse, stringify } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { BIG, people, peopleView } from './fixtures.js';
import { render } from './helpers.js';

describe('json', () => {
  test('prints the API value pretty with two spaces and exact digits', async () => {
    const text = await render(peopleView, { format: 'json' });
    expect(text).toContain(`"mentionCount": ${BIG},`);
    expect(text).toContain('"sentiment": 1.50,');
    expect(text).toContain('\n  {\n    "rank": 1,');
    const parsed = parse(text) as Array<Record<string, unknown>>;
    expect(parsed).toHaveLength(2);
    expect(String(parsed[0]?.mentionCount)).toBe(BIG);
    expect(parsed[1]?.reason).toBeNull();
    expect(text.endsWith(']\n')).toBe(true);
  });

  test('prints an object as an object, unknown fields kept', async () => {
    const text = await render({ data: { currentWeek: new LosslessNumber('202547'), brandNew: 'kept' }, fields: ['currentWeek'], single: true }, { format: 'json' });
    expect(text).toBe('{\n  "currentWeek": 202547,\n  "brandNew": "kept"\n}\n');
  });

  test('a lone surrogate from the server is written as U+FFFD, in keys and values, so the output is I-JSON', async () => {
    const data = [{ name: 'a\ud800b', ['k\udc00']: 'pair \ud83d\ude00 kept', text: 'escaped backslash \\ud800 is text', big: new LosslessNumber('12345678901234567890') }];
    const json = await render({ data, fields: ['name'] }, { format: 'json' });
    const ndjson = await render({ data, fields: ['name'] }, { format: 'ndjson' });
    for (const text of [json, ndjson]) {
      // No escape of a surrogate is left, except after an escaped backslash (plain text).
      expect(text.replaceAll('\\\\', '')).not.toMatch(/\\ud[89a-f]/i);
      expect(text).toContain('a\ufffdb');
      expect(text).toContain('"k\ufffd"');
      expect(text).toContain('pair 😀 kept');
      expect(text).toContain('escaped backslash \\\\ud800 is text');
      expect(text).toContain('12345678901234567890');
    }
  });

  test('an empty list is []', async () => {
    expect(await render({ data: [], fields: ['a'] }, { format: 'json' })).toBe('[]\n');
  });

  test('--fields projects rows to the selected keys in the selected order', async () => {
    const text = await render(peopleView, { format: 'json', fields: ['mentionCount', 'rank'] });
    expect(text).toBe(`[\n  {\n    "mentionCount": ${BIG},\n    "rank": 1\n  },\n  {\n    "mentionCount": 12,\n    "rank": 2\n  }\n]\n`);
  });

  test('--fields on a single view prints one object; an absent field is null', async () => {
    const view = { data: { a: new LosslessNumber('1.0') }, fields: ['a', 'b'], single: true };
    expect(await render(view, { format: 'json', fields: ['b', 'a'] })).toBe('{\n  "b": null,\n  "a": 1.0\n}\n');
  });

  test('--fields takes the rows of a view whose data is an object', async () => {
    const view = {
      data: { startWeek: 1, countries: [{ countryIso: 'GB', mentions: new LosslessNumber('3') }] },
      rows: [{ countryIso: 'GB', mentions: new LosslessNumber('3') }],
      fields: ['countryIso', 'mentions'],
    };
    expect(await render(view, { format: 'json', fields: ['countryIso', 'mentions'] }))
      .toBe('[\n  {\n    "countryIso": "GB",\n    "mentions": 3\n  }\n]\n');
  });
});

describe('ndjson', () => {
  test('one compact line per element, exact digits', async () => {
    const lines = (await render(peopleView, { format: 'ndjson' })).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[0]).toContain(`"mentionCount":${BIG}`);
    expect(lines[1]).toContain('"sentiment":1.50');
    const second = parse(lines[1] ?? '') as Record<string, unknown>;
    expect(second.fullName).toBe(people[1]?.fullName);
    expect(second.snippets).toEqual([]);
  });

  test('an object is one line', async () => {
    expect(await render({ data: { a: 1, b: [1, 2] }, fields: ['a', 'b'] }, { format: 'ndjson' })).toBe('{"a":1,"b":[1,2]}\n');
  });

  test('--fields projects each line', async () => {
    expect(await render(peopleView, { format: 'ndjson', fields: ['rank', 'sentiment'] }))
      .toBe('{"rank":1,"sentiment":-0.25}\n{"rank":2,"sentiment":1.50}\n');
  });

  test('an empty list prints nothing', async () => {
    expect(await render({ data: [], fields: ['a'] }, { format: 'ndjson' })).toBe('');
  });
});

describe('json text, fast and exact', () => {
  // The writer uses JSON.stringify where it can be made exact; lossless-json's stringify is the reference.
  const values: Record<string, unknown> = {
    'plain numbers': { rank: new LosslessNumber('1'), dominance: new LosslessNumber('5.8504') },
    'digits beyond 2^53, 1.50, an exponent, a bigint': [
      { articleHash: new LosslessNumber('12345678901234567890'), sentiment: new LosslessNumber('1.50') },
      { reach: new LosslessNumber('1e5'), big: 2n ** 70n, negative: new LosslessNumber('-18446744073709551615') },
    ],
    'strings that look like marked numbers': { a: '\u00001', b: '"\u00002"', ['\u0000c']: new LosslessNumber('3.50') },
    'the text \\u0000 beside marked numbers': {
      ['"\\u0000"']: new LosslessNumber('12345678901234567890'),
      a: '\\u00001',
      b: '"\\u0000',
      c: 'ends in a backslash \\',
      d: [new LosslessNumber('1.50'), '\\u0000', new LosslessNumber('-18446744073709551615')],
    },
  };
  for (const [name, value] of Object.entries(values)) {
    test(`${name}: json and ndjson print what lossless-json prints`, async () => {
      const view = { data: value, fields: [], single: !Array.isArray(value) };
      expect(await render(view, { format: 'json' })).toBe(`${stringify(value, null, 2)}\n`);
      const ndjson = await render(view, { format: 'ndjson' });
      const expected = Array.isArray(value) ? value.map((row) => stringify(row)).join('\n') : stringify(value);
      expect(ndjson).toBe(`${expected}\n`);
    });
  }
});
