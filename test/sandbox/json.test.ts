/** The sandbox's JSON writer: bigints as bare exact integers, everything else as JSON.stringify. */
import { describe, expect, it } from 'vitest';
import { stringifyJson, writeExact } from '../../src/sandbox/http/json.js';

const sample = {
  text: 'quote " backslash \\ newline \n nul \u0000 emoji 😀',
  number: -0.25,
  integer: 42,
  nothing: null,
  skipped: undefined,
  flags: [true, false],
  nested: [{ a: 1, b: [1.5, 'x'] }, []],
  notFinite: Number.NaN,
};

describe('stringifyJson', () => {
  it('equals JSON.stringify for data without bigints', () => {
    expect(stringifyJson(sample)).toBe(JSON.stringify(sample));
    expect(writeExact(sample)).toBe(JSON.stringify(sample));
    expect(stringifyJson([undefined, () => 1])).toBe('[null,null]');
    expect(stringifyJson(undefined)).toBe('null');
  });

  it('writes bigints as bare integers with every digit, at any depth', () => {
    const value = { ...sample, articleHash: 18446744073709551557n, list: [{ articleHash: 9007199254740993n }], negative: -12345678901234567890n };
    const expected = JSON.stringify(sample).slice(0, -1) +
      ',"articleHash":18446744073709551557,"list":[{"articleHash":9007199254740993}],"negative":-12345678901234567890}';
    expect(stringifyJson(value)).toBe(expected);
    expect(writeExact(value)).toBe(expected);
    expect(stringifyJson(9007199254740993n)).toBe('9007199254740993');
  });

  it('a string that looks like the internal bigint mark stays a string', () => {
    const value = { tricky: '\u0000bigint:123', articleHash: 9007199254740993n };
    expect(stringifyJson(value)).toBe('{"tricky":"\\u0000bigint:123","articleHash":9007199254740993}');
  });
});
