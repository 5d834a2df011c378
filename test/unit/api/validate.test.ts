import * as fc from 'fast-check';
import { LosslessNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from '../../../src/shared/exact-json/depth.js';
import { parseRetryAfter } from '../../../src/api/core/retry.js';
import { endpointFor, shapeProblem } from '../../../src/api/validate.js';

describe('shapeProblem', () => {
  it('names the top-level type a list endpoint got instead of an array', () => {
    expect(shapeProblem('/api/data/people/top', { items: [] })).toBe('expected an array, got an object');
    expect(shapeProblem('/api/data/weeks/current', [])).toBe('expected an object, got an array');
  });

  it('checks field types in both number modes; identifiers are integers of any size', () => {
    expect(shapeProblem('/api/data/countries', parse('[{"countryId":18,"countryName":"Germany","countryIso":"DE"}]'))).toBeUndefined();
    expect(shapeProblem('/api/data/countries', [{ countryId: 18, countryName: 7 }])).toBe('item 1: field "countryName": expected a string, got the number 7');
    expect(shapeProblem('/api/data/countries', [{ countryId: new LosslessNumber('123456789012345678901234567890') }])).toBeUndefined();
    expect(shapeProblem('/api/data/countries', [{ countryId: '123456789012345678901234567890' }])).toBeUndefined();
    // A fraction in an identifier is a contract violation, in either mode, naming the field.
    expect(shapeProblem('/api/data/countries', [{ countryId: new LosslessNumber('3.5') }]))
      .toBe('item 1: field "countryId": expected an integer, got 3.5');
    expect(shapeProblem('/api/data/countries', [{ countryId: 3.5 }])).toBe('item 1: field "countryId": expected an integer, got 3.5');
    expect(shapeProblem('/api/data/countries', [{ countryId: new LosslessNumber('1e3') }])).toBe('item 1: field "countryId": expected an integer, got 1e3');
    expect(shapeProblem('/api/data/countries', [{ countryId: 'x' }])).toBe('item 1: field "countryId": expected an integer, got a string');
    expect(shapeProblem('/api/data/countries', [{ countryName: 'X' }])).toBe('item 1: field "countryId" is missing');
    expect(shapeProblem('/api/data/countries', [{ countryId: null }])).toBe('item 1: field "countryId" is null');
    expect(shapeProblem('/api/data/people', [{ personHash: 42, countryId: 1 }])).toBe('item 1: field "personHash": expected a string, got the number 42');
    expect(shapeProblem('/api/data/posts/recent', [{ title: 'no slug' }])).toBe('item 1: field "slug" is missing');
    expect(shapeProblem('/api/data/weeks/current', { currentWeek: null, last4StartWeek: 202644 })).toBe('field "currentWeek" is null');
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: 'many' }])).toBe('item 1: field "mentionCount": expected an integer, got a string');
  });

  it('takes an integer of any size in an integer field, and refuses a fraction there or a time that is no time', () => {
    expect(shapeProblem('/api/data/people/top', parse('[{"personHash":"p","mentionCount":123456789012345678901234567890,"rank":1}]'))).toBeUndefined();
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: 2n ** 70n }])).toBeUndefined();
    expect(shapeProblem('/api/data/people/top', parse('[{"personHash":"p","mentionCount":1.5}]'))).toBe('item 1: field "mentionCount": expected an integer, got 1.5');
    expect(shapeProblem('/api/data/people/{personHash}', { personHash: 'p', countryId: 1, birthDate: '2026-98-94T90:86:75' }))
      .toBe('field "birthDate": expected a timestamp YYYY-MM-DDTHH:MM:SS that is a real time, got "2026-98-94T90:86:75"');
    // Outside the contract's format but of the field's type: passed on as sent (the tolerance rule).
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', rank: 0, sentimentColor: '=1+1' }])).toBeUndefined();
  });

  it('lets unknown fields, allowed nulls and absent context fields pass; checks nested rows', () => {
    expect(shapeProblem('/api/data/people/{personHash}', { personHash: 'p1', countryId: 1, birthDate: null, extra: {} })).toBeUndefined();
    // The contract: "Optional or partial fields can be null; clients treat null and unknown fields as expected".
    expect(shapeProblem('/api/data/people/{personHash}', { personHash: 'p1', countryId: 1, fullName: null })).toBeUndefined();
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', fromCountryName: null, mentionCount: null, snippets: null, countryRows: null }])).toBeUndefined();
    expect(shapeProblem('/api/data/sources/{sourceId}', { sourceId: 1, countryId: 1, lastCheckedDate: null, country: { id: 1 } })).toBeUndefined();
    expect(shapeProblem('/api/data/sources/{sourceId}/links', { source: null, allLinks: ['a', null], matchedLinks: null })).toBeUndefined();
    expect(shapeProblem('/api/data/people/{personHash}/links', [{ personHash: 'p1', articleHash: 1, sourceId: null, otherPeople: [] }])).toBeUndefined();
    expect(shapeProblem('/api/data/people/{personHash}/links', [{ personHash: 'p1', articleHash: new LosslessNumber('12345678901234567890') }])).toBeUndefined();
    expect(shapeProblem('/api/data/people/{personHash}/links', [{ personHash: 'p1' }])).toBe('item 1: field "articleHash" is missing');
    expect(shapeProblem('/api/data/people/{personHash}/country-stats', { countries: [{ countryId: true }] }))
      .toBe('countries[1]: field "countryId": expected an integer, got a boolean');
    expect(shapeProblem('/api/data/people/{personHash}/country-stats', { countries: null, startWeek: null })).toBeUndefined();
    expect(shapeProblem('/api/data/people/{personHash}/country-stats', { countries: {} })).toBe('field "countries": expected an array, got an object');
  });

  it('refuses impossible values: broken person ids and week info that is no window', () => {
    expect(shapeProblem('/api/data/people', [{ personHash: '', countryId: 1 }])).toBe('item 1: field "personHash" is empty');
    expect(shapeProblem('/api/data/people', [{ personHash: 'a\ud800', countryId: 1 }])).toBe('item 1: field "personHash" is not valid Unicode (a lone surrogate)');
    expect(shapeProblem('/api/data/weeks/current', { currentWeek: 202647, last4StartWeek: 202644 })).toBeUndefined();
    expect(shapeProblem('/api/data/weeks/current', { currentWeek: 202601, last4StartWeek: 202550 })).toBeUndefined();
    expect(shapeProblem('/api/data/weeks/current', { currentWeek: 202647, last4StartWeek: 202648 })).toMatch(/not within a year before/);
    expect(shapeProblem('/api/data/weeks/current', { currentWeek: 202699, last4StartWeek: 202644 })).toBe('field "currentWeek": 202699 is not a week (YYYYWW)');
  });

  it('takes a number or an integer by what its text says, whether or not the quick test of the common form takes it (fast-check)', () => {
    // Integers, decimals of up to 300 and more digits before the point (10^309 overflows), exponents.
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom('0', '1', '9'), minLength: min, maxLength: max });
    const numberText = fc.oneof(
      fc.tuple(fc.constantFrom('', '-'), digits(1, 20)).map(([sign, whole]) => sign + whole),
      fc.tuple(fc.constantFrom('', '-'), digits(1, 20), digits(1, 8)).map(([sign, whole, fraction]) => `${sign}${whole}.${fraction}`),
      fc.tuple(fc.constantFrom('', '-'), digits(295, 315), fc.option(digits(1, 3))).map(([sign, whole, fraction]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}`),
      fc.tuple(digits(1, 3), fc.constantFrom('e', 'E', 'e+', 'e-'), digits(1, 3)).map(([whole, mark, exponent]) => whole + mark + exponent),
    );
    // Put in by hand: the constructor refuses leading zeros, which the check reads as Number() does.
    const lossless = (text: string) => Object.assign(new LosslessNumber('1'), { value: text });
    fc.assert(fc.property(numberText, (text) => {
      const number = shapeProblem('/api/data/people/top', [{ personHash: 'p', dominance: lossless(text) }]);
      expect(number).toBe(Number.isFinite(Number(text)) ? undefined : `item 1: field "dominance": expected a number, got the number ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`);
      const integer = shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: lossless(text) }]);
      expect(integer === undefined).toBe(/^-?\d+$/.test(text));
    }));
    // Text no parse makes, and a LosslessNumber of another copy of the library.
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', dominance: lossless('abc') }])).toBe('item 1: field "dominance": expected a number, got the number abc');
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: lossless('-') }])).toBe('item 1: field "mentionCount": expected an integer, got -');
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: lossless('') }])).toBe('item 1: field "mentionCount": expected an integer, got ');
    const foreign = (text: string) => ({ [Symbol.for('lossless-json.LosslessNumber')]: true, value: text });
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: foreign('12'), dominance: foreign('1.5') }])).toBeUndefined();
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: foreign('1.5') }])).toBe('item 1: field "mentionCount": expected an integer, got 1.5');
    // Native mode: a safe integer, a whole number beyond 2^53 (no identifier), no integer at all.
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', mentionCount: 2 ** 60, dominance: -0 }])).toBeUndefined();
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', dominance: Number.POSITIVE_INFINITY }])).toBe('item 1: field "dominance": expected a number, got the number Infinity');
    const weeks = (startWeek: unknown) => shapeProblem('/api/data/people/{personHash}/country-stats', { startWeek });
    expect([weeks(new LosslessNumber('202653')), weeks(202652), weeks(new LosslessNumber('202601'))]).toEqual([undefined, undefined, undefined]);
    expect(weeks(new LosslessNumber('202553'))).toBe('field "startWeek": 202553 is not a week (YYYYWW)');
    expect(weeks(202600)).toBe('field "startWeek": 202600 is not a week (YYYYWW)');
    expect(weeks(new LosslessNumber('202601.0'))).toBe('field "startWeek": expected a week (YYYYWW), got 202601.0');
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', birthDate: '1900-02-29T00:00:00' }])).toMatch(/that is a real time/);
    expect(shapeProblem('/api/data/people/top', [{ personHash: 'p', birthDate: '2000-02-29T00:00:00.5Z' }])).toBeUndefined();
  });

  it('knows every endpoint it is asked about: a path without a shape does not compile', () => {
    // @ts-expect-error '/api/data/something/new' is no key of ENDPOINT_SHAPES
    expect(() => shapeProblem('/api/data/something/new', 'anything')).toThrow(TypeError);
  });

  it('endpointFor finds the endpoint of a path, fixed segments first, and none for a path the contract does not list', () => {
    expect(endpointFor('/api/data/people/p1/links')).toBe('/api/data/people/{personHash}/links');
    expect(endpointFor('/api/data/people/search')).toBe('/api/data/people/search');
    expect(endpointFor('/api/data/countries/slug/x')).toBe('/api/data/countries/slug/{slug}');
    expect(endpointFor('/api/data/something/new')).toBeUndefined();
  });
});

describe('jsonDepthExceeds', () => {
  it('counts nesting, not brackets inside strings', () => {
    expect(jsonDepthExceeds('[[[1]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[1]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('["[[[[\\"[[[["]', 3)).toBe(false);
  });

  it('reads strings as JSON does: escapes, a backslash before the closing quote, keys, a string left open', () => {
    expect(jsonDepthExceeds('{"a[[[[":{"b":["x\\\\",{"c":"]]]]{{{{"}]}}', 4)).toBe(false);
    expect(jsonDepthExceeds('{"a[[[[":{"b":["x\\\\",{"c":[1]}]}}', 4)).toBe(true);
    expect(jsonDepthExceeds('[[["\\u005b[[[[', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[ "\\', 3)).toBe(true);
    expect(jsonDepthExceeds('[1, 2.5, true, null, "]", [[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toBe(true);
    expect(jsonDepthExceeds(`${'[{"k":'.repeat(32)}1${'}]'.repeat(32)}`, 64)).toBe(false);
  });

  it('answers as a count of every bracket would for balanced text, and never misses nesting it finds (fast-check)', () => {
    const counted = (text: string, limit: number) => {
      let depth = 0;
      for (const character of text.replace(/"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?$)|[^[\]{}"]+/g, '')) {
        if (character === '[' || character === '{') {
          if (++depth > limit) return true;
        } else depth--;
      }
      return false;
    };
    const nested: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constantFrom('1', '"]"', '"{\\"["'), fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`), fc.array(tie('value'), { maxLength: 3 }).map((items) => `{${items.map((item, index) => `"k${index}":${item}`).join(',')}}`)),
    })).value;
    fc.assert(fc.property(nested, fc.integer({ min: 0, max: 8 }), (text, limit) => {
      expect(jsonDepthExceeds(text, limit)).toBe(counted(text, limit));
    }), { numRuns: 3000 });
    const scraps = fc.array(fc.constantFrom('[', ']', '{', '}', '"', '1', ',', '\\'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(scraps, fc.integer({ min: 0, max: 6 }), (text, limit) => {
      if (counted(text, limit)) expect(jsonDepthExceeds(text, limit)).toBe(true);
    }), { numRuns: 3000 });
  });

  it('finishes in one pass over a string left open with escaped quotes (512 KiB)', () => {
    expect(jsonDepthExceeds(`["${'\\"['.repeat(174_762)}`, 64)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  it('takes delta-seconds and HTTP-dates; negative or garbage values are dropped', () => {
    const now = Date.parse('Mon, 23 Nov 2026 12:00:00 GMT');
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('2026', now)).toBe(2_026_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('1e3', now)).toBeUndefined();
  });
});
