import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import * as fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isBeyondNumberBounds, JSON_PARSE_MAX_CHARS, NumberBoundError, parseJson, parseJsonSlicing, parseWithJsonParse, printsAsWritten } from '../../../src/shared/exact-json/parse.js';
import { stringify as exactStringify } from '../../../src/shared/exact-json/stringify.js';

// parseJson takes JSON.parse's fast path only when that loses nothing; every case here must give
// exactly what lossless-json alone gives, whichever path it took.
const cases = {
  'plain ranking': '[{"rank":1,"personHash":"a-73da","birthDate":"1981-05-16T00:00:00","dominance":5.8504,"sentiment":-0.1829}]',
  'articleHash beyond 2^53': '{"articleHash":12345678901234567890,"n":1}',
  'a trailing zero': '{"sentiment":1.50}',
  'an exponent': '{"reach":1e5}',
  'minus zero': '{"x":-0}',
  'digits in strings only': '{"title":"1.50 and 00:00 and 12345678901234567890","n":[1,2.5]}',
  'escaped quotes in strings': '{"title":"say \\"1.50\\"","n":2}',
  'a __proto__ key': '{"__proto__":{"polluted":1},"n":1}',
  'a string holding \\u0000': '{"title":"\\u000012345678901234567890","n":12345678901234567890}',
  // Only numbers outside strings are marked: each quote must be told from an escaped one.
  'number-like text after a colon inside a string': '{"t":"ratio:12345678901234567890, [1.50","n":12345678901234567890}',
  'an escaped backslash ending a string': '{"t":"a\\\\","n":12345678901234567890,"u":"b:1.50"}',
  'an escaped quote before digits inside a string': '{"t":"x\\":12345678901234567890","n":2.50}',
  'spaces and new lines before changed numbers': '[ 1.50,\n  12345678901234567890 ,{"a" :\t-0}]',
  'links with big hashes and context': '[{"articleHash":9007199254740993,"mentionDate":"2026-11-20","sourceName":"A","score":0.10},{"articleHash":-18446744073709551615}]',
};

describe('parseJson', () => {
  test('the JSON.parse path reads numbers beside strings with colons, brackets and escapes itself, exactly', () => {
    // Its marking must tell each quote from an escaped one: a mistake marks a number inside a string
    // (falling back to slicing) or leaves one outside unmarked (rounded).
    for (const name of ['number-like text after a colon inside a string', 'an escaped backslash ending a string', 'an escaped quote before digits inside a string', 'spaces and new lines before changed numbers'] as const) {
      const text = cases[name];
      expect(stringify(parseWithJsonParse(text, 'lossless')), name).toBe(stringify(parse(text)));
    }
  });

  for (const [name, text] of Object.entries(cases)) {
    test(`lossless mode, ${name}: the same value and digits as lossless-json`, () => {
      const value = parseJson(text, 'lossless');
      expect(stringify(value)).toBe(stringify(parse(text)));
      expect(value).toEqual(parse(text));
    });
  }

  test('lossless mode gives LosslessNumber holding the digits as sent on the fast path too', () => {
    const value = parseJson('{"rank":1,"dominance":5.8504}', 'lossless') as Record<string, unknown>;
    expect(isLosslessNumber(value.rank)).toBe(true);
    expect((value.dominance as LosslessNumber).value).toBe('5.8504');
  });

  test('native mode: numbers (the nearest double beyond 2^53), identifier fields as their digits at any size, never a bigint', () => {
    expect(parseJson('{"rank":1,"dominance":5.8504}', 'native')).toEqual({ rank: 1, dominance: 5.8504 });
    expect(parseJson('{"articleHash":42}', 'native')).toEqual({ articleHash: 42 });
    expect(parseJson('{"articleHash":42}', 'native', new Set(['articleHash']))).toEqual({ articleHash: '42' });
    expect(parseJson('{"countryId":123456789012345678901234567890}', 'native', new Set(['countryId']))).toEqual({ countryId: '123456789012345678901234567890' });
    // A number not written as digits stays a number, for the client's check to refuse by name.
    expect(parseJson('{"sourceId":3.0,"countryId":1e3,"postId":3.5}', 'native', new Set(['sourceId', 'countryId', 'postId']))).toEqual({ sourceId: 3, countryId: 1000, postId: 3.5 });
    // eslint-disable-next-line no-loss-of-precision -- the nearest double is what native mode documents
    expect(parseJson('{"n":12345678901234567890}', 'native')).toEqual({ n: 12345678901234567890 });
  });

  test('a __proto__ key stays an own property, the prototype untouched', () => {
    const value = parseJson(cases['a __proto__ key'], 'lossless') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
  });

  test('native mode reads big and trailing-zero numbers as lossless-json\'s native mode does', () => {
    // eslint-disable-next-line no-loss-of-precision -- the nearest double, as lossless-json's native mode gives
    expect(parseJson('{"n":12345678901234567890,"s":1.50,"e":2e3}', 'native')).toEqual({ n: 12345678901234567890, s: 1.5, e: 2000 });
  });

  for (const bad of ['{"rank":1,}', '[01]', '[1-2]', '[1.5.5]', '{"a":NaN}']) {
    test(`${bad} is not JSON: SyntaxError in both modes`, () => {
      expect(() => parseJson(bad, 'lossless')).toThrow(SyntaxError);
      expect(() => parseJson(bad, 'native')).toThrow(SyntaxError);
    });
  }

  test('text that is not JSON throws lossless-json\'s SyntaxError, which says where', () => {
    expect(() => parseJson('{"rank":1,}', 'lossless')).toThrow(SyntaxError);
    expect(() => parseJson('{"rank":1,}', 'lossless')).toThrow(/position/);
  });

  test('a string left open is refused in one pass: 512 KiB of escaped quotes after it (minutes before, one quote tried at a time)', () => {
    const open = `"${'\\"'.repeat(256 * 1024)}`;
    expect(open.length).toBe(JSON_PARSE_MAX_CHARS + 1);
    expect(parseWithJsonParse(open.slice(0, JSON_PARSE_MAX_CHARS), 'lossless')).toBeUndefined();
    expect(() => parseJson(open, 'lossless')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":"b\\', 'native')).toThrow(SyntaxError);
    // A string that is closed is still a string: the digits in it are not marked.
    expect(parseJson('["1.50 \\" 12345678901234567890", 1.50]', 'native')).toEqual(['1.50 " 12345678901234567890', 1.5]);
  });

  test('printsAsWritten: true only when String(Number(text)) gives the text back', () => {
    expect(['1', '-3', '5.8504', '0.5'].every(printsAsWritten)).toBe(true);
    expect(['1.50', '1e5', '-0', '12345678901234567890', '01'].some(printsAsWritten)).toBe(false);
  });

  describe('both paths, either side of JSON_PARSE_MAX_CHARS', () => {
    /** A ranking of about `chars` characters, each row with a big hash and a trailing zero. */
    const ranking = (chars: number) => {
      const row = (rank: number) => `{"rank":${rank},"articleHash":1234567890123456789${rank % 10},"sentiment":-0.4480,"name":"R \\"${rank}\\""}`;
      const rows: string[] = [];
      for (let size = 0, rank = 1; size < chars; rank += 1) size += (rows[rows.push(row(rank)) - 1]!.length + 1);
      return `[${rows.join(',')}]`;
    };

    for (const [side, text] of [['below', ranking(JSON_PARSE_MAX_CHARS / 4)], ['above', ranking(JSON_PARSE_MAX_CHARS * 2)]] as const) {
      test(`${side} the limit: parseJson, the JSON.parse path and the slicing path give lossless-json's value`, () => {
        expect(text.length > JSON_PARSE_MAX_CHARS).toBe(side === 'above');
        const expected = stringify(parse(text));
        expect(stringify(parseJson(text, 'lossless'))).toBe(expected);
        expect(stringify(parseWithJsonParse(text, 'lossless'))).toBe(expected);
        expect(stringify(parseJsonSlicing(text, 'lossless'))).toBe(expected);
        const rows = parseJson(text, 'native', new Set(['articleHash'])) as Array<Record<string, unknown>>;
        expect(rows.at(-1)!.articleHash).toBe(`1234567890123456789${rows.length % 10}`);
      });
    }
  });
});

describe('numbers are bounded in digits and exponent (issue #21 item 1)', () => {
  test('knows what is beyond the bounds', () => {
    expect(isBeyondNumberBounds('1e-100000000')).toBe(true);
    expect(isBeyondNumberBounds('1E+401')).toBe(true);
    expect(isBeyondNumberBounds(`1${'0'.repeat(100)}`)).toBe(true);
    expect(isBeyondNumberBounds(`-0.${'0'.repeat(99)}1`)).toBe(true);
    expect(isBeyondNumberBounds('1e-400')).toBe(false);
    expect(isBeyondNumberBounds('1e+000000000000000000000009')).toBe(false);
    expect(isBeyondNumberBounds('18446744073709551615')).toBe(false);
    expect(isBeyondNumberBounds(`-${'9'.repeat(99)}.9`)).toBe(false);
  });

  test('both parse paths refuse such a number naming its field, in both modes', () => {
    const text = '{"a":[{"mentionCount":1e-100000000}]}';
    for (const mode of ['lossless', 'native'] as const) {
      for (const parse of [parseJson, parseJsonSlicing]) {
        expect(() => parse(text, mode)).toThrow(NumberBoundError);
        expect(() => parse(text, mode)).toThrow(/field "mentionCount": the number 1e-100000000 is beyond the bounds/);
      }
    }
  });
});

describe('the unmarked JSON.parse path (text without a number JSON.parse could change)', () => {
  /** JSON number texts of every shape: signs, 1 to 25 digits, fractions with and without trailing zeros, exponents, tiny values. */
  const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
  const jsonNumber = fc.oneof(
    fc.tuple(fc.boolean(), fc.oneof(fc.constant('0'), fc.tuple(fc.integer({ min: 1, max: 9 }), digits(0, 24)).map(([head, tail]) => `${head}${tail}`)), fc.option(digits(1, 20)), fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'e-', 'E-'), digits(1, 2))))
      .map(([negative, whole, fraction, exponent]) => `${negative ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : exponent.join('')}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => String(value)).filter((text) => !text.includes('Infinity')),
    fc.integer({ min: 0, max: 12 }).map((zeros) => `0.${'0'.repeat(zeros)}1`),
    fc.constantFrom('-0', '0', '-0.0', '1.0', '100', '1e21', '123456789012345', '1234567890123456', '0.000001', '0.0000001'),
  );
  const layout = fc.constantFrom((n: string) => `[${n}]`, (n: string) => `{"n":${n}}`, (n: string) => `[ 1,\n  ${n} ]`, (n: string) => `{"a":"x:1.50","b":[true, ${n}]}`);

  test('every number keeps its digits, whichever path read it', () => {
    fc.assert(
      fc.property(jsonNumber, layout, (number, wrap) => {
        const text = wrap(number);
        const expected = stringify(parse(text));
        expect(stringify(parseJson(text, 'lossless'))).toBe(expected);
        expect(stringify(parseWithJsonParse(text, 'lossless'))).toBe(expected);
      }),
      { seed: 20261125, numRuns: 2000 },
    );
  });

  test('a string that starts with \\u0000 stays a string when no number was marked', () => {
    expect(parseJson('{"title":"\\u00001.50","n":2}', 'lossless')).toEqual({ title: '\u00001.50', n: new LosslessNumber('2') });
    expect(parseJson('{"title":"\\u00001.50","n":2}', 'native')).toEqual({ title: '\u00001.50', n: 2 });
  });

  test('native mode with identifier fields on the unmarked path', () => {
    expect(parseJson('[{"articleHash":7,"rank":1}]', 'native', new Set(['articleHash']))).toEqual([{ articleHash: '7', rank: 1 }]);
  });

  test('native mode gives what JSON.parse with the identifier revivers gave, for any JSON of such numbers (fast-check)', () => {
    // The rule native mode had as revivers: a number JSON.parse keeps is JSON.parse's number, an
    // identifier's whole one as its digits; a number it would change (marked) is an identifier's
    // digits when written as an integer, else the nearest double. Keys are names, array indexes, '' at the root.
    const identifiers = new Set(['articleHash', 'countryId', '0']);
    const nativeOf = (value: unknown, key: string): unknown => {
      if (isLosslessNumber(value)) {
        const digits = value.value;
        if (printsAsWritten(digits)) return Number.isInteger(Number(digits)) && identifiers.has(key) ? String(Number(digits)) : Number(digits);
        return identifiers.has(key) && /^-?\d+$/.test(digits) ? digits : Number(digits);
      }
      if (Array.isArray(value)) return value.map((item, index) => nativeOf(item, String(index)));
      if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, nativeOf(item, name)]));
      return value;
    };
    const json: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        jsonNumber,
        fc.constantFrom('"x:1.50"', '"\\u00001"', 'true', 'null', '"12345678901234567890"'),
        fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        fc.uniqueArray(fc.tuple(fc.constantFrom('articleHash', 'countryId', 'n', '0', 'title'), tie('value')), { maxLength: 4, selector: ([name]) => name }).map((members) => `{${members.map(([name, item]) => `"${name}":${item}`).join(',')}}`),
      ),
    })).value;
    // The JSON.parse path's rule (the slicing path reads an identifier written 1e+21 as a number).
    let read = 0;
    fc.assert(fc.property(json, (text) => {
      const value = parseWithJsonParse(text, 'native', identifiers);
      if (value === undefined) return;
      read += 1;
      const expected = nativeOf(parse(text), '');
      expect(value).toEqual(expected);
      expect(parseWithJsonParse(text, 'native', identifiers, 64)).toEqual(expected);
    }), { seed: 20261128, numRuns: 3000 });
    expect(read).toBeGreaterThan(1000);
  });

  test('a key made enumerable on Object.prototype by other code does not become one of the answer\'s', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      for (const text of ['{"n":1,"a":[{"m":2}]}', '{"n":12345678901234567890,"a":[{"m":1.50}]}']) {
        for (const mode of ['lossless', 'native'] as const) {
          const value = parseJson(text, mode, new Set(['n'])) as { a: Array<Record<string, unknown>> };
          expect(Object.keys(value), `${mode} ${text}`).toEqual(['n', 'a']);
          expect(Object.keys(value.a[0]!), `${mode} ${text}`).toEqual(['m']);
        }
      }
    } finally {
      delete prototype.polluted;
    }
  });

  test('a number JSON.parse keeps reads the same whether the marking took it or not, in both modes', () => {
    // The marking takes every number MAYBE_CHANGED_NUMBER finds without asking whether JSON.parse would
    // change it, except one with an exponent: native mode reads an identifier written 1e+21 as "1e+21".
    const identifiers = new Set(['n']);
    const asJsonParseReadsIt = (text: string) => JSON.parse(text, (key, value: unknown) => (typeof value === 'number' && Number.isInteger(value) && identifiers.has(key) ? String(value) : value));
    const kept = jsonNumber.filter(printsAsWritten);
    // A big hash beside it sends the text the marking way.
    const wrap = fc.constantFrom((n: string) => `{"n":${n},"h":12345678901234567891}`, (n: string) => `[{"n":${n}},{"n":${n}, "x":1.50}]`);
    fc.assert(fc.property(kept, wrap, (number, layout) => {
      const text = layout(number);
      const native = parseWithJsonParse(text, 'native', identifiers) as unknown;
      expect(JSON.stringify(native, (key, value: unknown) => (key === 'h' || key === 'x' ? undefined : value))).toBe(JSON.stringify(asJsonParseReadsIt(text), (key, value: unknown) => (key === 'h' || key === 'x' ? undefined : value)));
      expect(stringify(parseWithJsonParse(text, 'lossless'))).toBe(stringify(parse(text)));
    }), { seed: 20261128, numRuns: 2000 });
    expect(parseWithJsonParse('{"n":1e+21,"h":12345678901234567891}', 'native', identifiers)).toMatchObject({ n: '1e+21' });
    expect(parseWithJsonParse('{"n":1234567890123456,"h":12345678901234567891}', 'native', identifiers)).toMatchObject({ n: '1234567890123456' });
  });
});

describe('marking numbers without tracking strings first (the JSON.parse path)', () => {
  test('number-like text inside a string, marked by the first try, makes text JSON.parse refuses: the second try, tracking strings, reads it', () => {
    for (const text of ['{"t":"a, 12345678901234567890","n":12345678901234567890}', '["x:1.50", 1.50]', '{"t":"[-0 and ,1e5","n":-0}', '{"k, 1.50":1.50}']) {
      expect(() => JSON.parse(text.replace(/([:,[]\s*)(-?[\d.]+(?:e\d+)?)/g, '$1"\\u0000$2"'))).toThrow(SyntaxError);
      expect(stringify(parseWithJsonParse(text, 'lossless')), text).toBe(stringify(parse(text)));
    }
  });

  test('a __proto__ key beside marked numbers is read by JSON.parse as an own key, the prototype untouched, in both modes', () => {
    const text = '{"__proto__":{"polluted":1.50},"n":12345678901234567890}';
    for (const mode of ['lossless', 'native'] as const) {
      const value = parseWithJsonParse(text, mode) as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.hasOwn(value, '__proto__')).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(stringify(parseWithJsonParse(text, 'lossless'))).toBe(stringify(parse(text)));
  });
});

describe('compact stringify of plain data (JSON.stringify, each LosslessNumber\'s object replaced by its digits)', () => {
  const big = (digits: string) => new LosslessNumber(digits);
  const cases: Record<string, unknown> = {
    'objects that look like a LosslessNumber': [{ value: '5', isLosslessNumber: true }, big('12345678901234567890'), { value: '6' }],
    'an object that looks like a LosslessNumber beside one that no longer does': [{ value: '5', isLosslessNumber: true }, Object.assign(big('9'), { extra: 1 })],
    'an object of a first key "value" before a LosslessNumber': [{ value: 'x', b: 1 }, big('1.50')],
    'strings holding a LosslessNumber\'s text': { a: '{"value":"5","isLosslessNumber":true}', b: big('7'), '{"value":"1","isLosslessNumber":true}': big('8') },
    'a LosslessNumber with a field of its own': [Object.assign(big('9'), { extra: 1 }), big('10')],
    'a Date, a bigint, undefined and functions': { d: new Date(0), b: 2n ** 70n, u: undefined, f: () => 1, list: [undefined, () => 1, big('1.0')] },
    'nested deeper than the plain path goes': JSON.parse(`${'['.repeat(150)}1${']'.repeat(150)}`) as unknown,
    'a null-prototype object': Object.assign(Object.create(null) as object, { a: big('3.50') }),
    'top-level values': [big('-0'), 'text', null, true, Number.NaN, -0],
  };
  for (const [name, value] of Object.entries(cases)) {
    test(`${name}: what lossless-json writes`, () => {
      expect(exactStringify(value)).toBe(stringify(value));
      if (Array.isArray(value)) for (const item of value) expect(exactStringify(item)).toBe(stringify(item) ?? 'null');
    });
  }

  test('any plain data of LosslessNumbers, strings that look like JSON, and nesting: what lossless-json writes (fast-check)', () => {
    const number = fc.oneof(fc.constantFrom('0', '-0', '1.50', '12345678901234567890', '1e5', '-2.5E-7', '5.8504'), fc.integer().map(String)).map(big);
    const text = fc.oneof(fc.string(), fc.constantFrom('{"value":"5","isLosslessNumber":true}', '"\\u0000', '\u0000', 'é\ud800', '"value"', 'isLosslessNumber'));
    const key = fc.oneof(fc.constantFrom('value', 'isLosslessNumber', 'a', '1', '__proto__'), fc.string({ maxLength: 4 }));
    const data: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        number,
        text,
        fc.constantFrom(null, true, false, 0.1, -0),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => {
          const record: Record<string, unknown> = {};
          for (const [name, item] of entries) Object.defineProperty(record, name, { value: item, enumerable: true, writable: true, configurable: true });
          return record;
        }),
      ),
    })).value;
    fc.assert(fc.property(data, (value) => {
      expect(exactStringify(value)).toBe(stringify(value) ?? 'null');
    }), { seed: 20261128, numRuns: 3000 });
  });
});
