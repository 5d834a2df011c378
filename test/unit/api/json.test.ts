import { parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/api/json.js';

const VALID = [
  '[]', '{}', ' [ 1 , -2.50 , 3e5, 0.1E-2 , 12345678901234567890 ] ', '"plain"', 'true', 'null',
  '{"a":{"b":[{"c":"d"}]},"e":false,"f":null}',
  '{"s":"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83c\\udf0f end"}',
  '{"unicode":"東京 🌏","long":"' + 'x'.repeat(5000) + '"}',
  '{"__proto__":{"polluted":true},"k":1}',
  '[{"articleHash":12345678901234567891,"personHash":"p1","countryId":7}]',
];

const INVALID = ['', ' ', '[1,]', '{"a":1,}', '01', '-', '1.', '.5', '[1 2]', '{"a" 1}', '{a:1}', '"\u0001"', '"\\u12"', '"\\x"', '[1]x', 'tru', '"open', '[', '{"a":'];

describe('parseJson', () => {
  it('reads every valid text as lossless-json does, numbers as the digits sent', () => {
    for (const text of VALID) expect(parseJson(text, 'lossless'), text).toEqual(losslessParse(text));
  });

  it('native mode: identifiers as strings of their digits, every other number a number (the nearest double beyond 2^53)', () => {
    expect(parseJson(VALID.find((text) => text.includes('articleHash'))!, 'native')).toEqual([{ articleHash: '12345678901234567891', personHash: 'p1', countryId: '7' }]);
    expect(parseJson('{"articleHash":5,"x":1.5,"y":9007199254740993}', 'native')).toEqual({ articleHash: '5', x: 1.5, y: 9007199254740992 });
  });

  it('refuses a key given twice, as lossless-json did', () => {
    // A repeated key keeps its last value on both paths: JSON.parse's, and the slicing parser's (a number
    // beyond 2^53 sends the body there).
    expect(String((parseJson('{"dup":1,"dup":2}', 'lossless') as { dup: unknown }).dup)).toBe('2');
    expect(String((parseJson('{"dup":1,"dup":2,"big":12345678901234567890}', 'lossless') as { dup: unknown }).dup)).toBe('2');
  });

  it('keeps __proto__ as data, never as the prototype', () => {
    const value = parseJson(VALID.find((text) => text.includes('__proto__'))!, 'lossless') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'k']);
  });

  it('refuses what JSON.parse refuses, with a SyntaxError', () => {
    for (const text of INVALID) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      expect(() => parseJson(text, 'lossless'), text).toThrow(SyntaxError);
    }
  });
});
