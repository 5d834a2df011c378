import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { displayWidth, graphemes, mayJoinNeighbours, padToWidth, truncateToWidth, wrapToWidth } from '../../../src/output/text.js';
import { printable } from '../../../src/shared/printable.js';

describe('displayWidth', () => {
  test.each([
    ['', 0],
    ['Ada', 3],
    ['習近平', 6],
    ['한국어', 6],
    ['ＡＢ', 4],
    ['e\u0301', 1], // e + combining acute
    ['Zoë', 3],
    ['😀', 2],
    ['👨‍👩‍👧', 2], // one ZWJ family glyph
    ['🇬🇧', 2],
    ['…', 1],
    ['a\u200bb', 2],
    // As tmux 3.3 draws them (test/e2e/terminal.test.ts checks the same in a real pane):
    ['हिन्दी', 5], // spacing vowel signs take a cell, the virama none
    ['क्ष', 2],
    ['রবীন্দ্রনাথ ঠাকুর', 14],
    ['สมชาย ใจดี', 9], // Thai vowels above take none
    ['محمد علي', 8],
    ['שָׁלוֹם', 4], // Hebrew points take none
    ['👍🏽', 4], // a skin-tone modifier is drawn as its own wide glyph
    ['❤️', 1], // VS16 does not widen a text-default character
  ])('%j is %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  test('measures text without a ZWJ or a regional indicator as it measures it cluster by cluster', () => {
    // A ZWJ at the end draws nothing and sends the text through Intl.Segmenter: both paths must agree.
    const interesting = [0x41, 0xe9, 0x301, 0x94d, 0x93f, 0x5b8, 0x627, 0x4e60, 0xac00, 0x1100, 0x1161, 0xff21, 0x200b, 0xfe0f, 0x1f600, 0x1f3fd, 0x2764, 0x7, 0x85, 0xd800, 0xdc00];
    const codePoint = fc.oneof(fc.constantFrom(...interesting), fc.integer({ min: 0, max: 0x10ffff }));
    const text = fc.array(codePoint, { maxLength: 16 }).map((codePoints) => String.fromCodePoint(...codePoints));
    fc.assert(
      fc.property(text.filter((value) => !/\u200D|\uD83C[\uDDE6-\uDDFF]/.test(value)), (value) => {
        expect(displayWidth(value)).toBe(displayWidth(`${value}\u200D`));
      }),
      { seed: 20261126, numRuns: 500 },
    );
  });
});

describe('graphemes', () => {
  test('every code point of the Basic Multilingual Plane it takes for a cluster of its own is one to Intl.Segmenter', () => {
    // Most text skips the segmenter (its first use costs 12-20 ms): this holds the shortcut to ICU's
    // rules, for each code point between two letters and beside the next (Hangul jamo join each other).
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const count = (text: string) => [...segmenter.segment(text)].length;
    const alone: string[] = [];
    for (let codePoint = 0; codePoint <= 0xffff; codePoint++) {
      const character = String.fromCharCode(codePoint);
      if (!mayJoinNeighbours(character) && (codePoint < 0xd800 || codePoint > 0xdfff)) alone.push(character);
    }
    expect(alone.length).toBeGreaterThan(60_000);
    const disagreeing: number[] = [];
    for (let start = 0; start < alone.length; start += 500) {
      const chunk = alone.slice(start, start + 500);
      if (count(`x${chunk.join('x')}x`) !== 2 * chunk.length + 1 || count(chunk.join('')) !== chunk.length) disagreeing.push(start);
    }
    expect(disagreeing).toEqual([]);
    // And the ones it sends to the segmenter include what joins: a mark, a spacing mark, ZWJ, a jamo, CR.
    expect(['\u0301', '\u093F', '\u200D', '\u1161', '\r', '😀'].filter((character) => !mayJoinNeighbours(character))).toEqual([]);
  });

  test('keeps a letter with its marks, a family emoji and a flag whole', () => {
    expect([...graphemes('Zoe\u0308 👨‍👩‍👧🇬🇧क्ष')]).toEqual(['Z', 'o', 'e\u0308', ' ', '👨‍👩‍👧', '🇬🇧', 'क्ष']);
  });
});

describe('truncateToWidth', () => {
  test('leaves text that fits', () => {
    expect(truncateToWidth('Ada', 3, '…')).toBe('Ada');
  });

  test('cuts and ends with the ellipsis within the width', () => {
    expect(truncateToWidth('Lovelace', 5, '…')).toBe('Love…');
    expect(truncateToWidth('習近平主席', 6, '…')).toBe('習近…');
    expect(displayWidth(truncateToWidth('習近平主席', 6, '…'))).toBeLessThanOrEqual(6);
  });

  test('never splits a wide character over the edge', () => {
    expect(truncateToWidth('習近平', 4, '…')).toBe('習…');
  });

  test('keeps combining marks with their letter', () => {
    expect(truncateToWidth('e\u0301e\u0301e\u0301', 2, '…')).toBe('e\u0301…');
  });
});

test('padToWidth pads by display width', () => {
  expect(padToWidth('習', 4)).toBe('習  ');
  expect(padToWidth('7', 3, 'right')).toBe('  7');
});

test('printable turns line breaks and tabs into spaces and drops escape sequences', () => {
  expect(printable('a\tb\nc\r\nd')).toBe('a b c  d');
  expect(printable('\x1b[31mred')).toBe('\uFFFD[31mred');
});

describe('wrapToWidth', () => {
  test('breaks between words, never inside one', () => {
    expect(wrapToWidth('5 columns hidden at 50 columns: sentiment, reach, power; see --fields', 30)).toEqual([
      '5 columns hidden at 50', 'columns: sentiment, reach,', 'power; see --fields',
    ]);
  });

  test('a word longer than the line gets a line of its own; line breaks stay; width is display width', () => {
    expect(wrapToWidth('see https://stats.example.com/api/data/people/top now', 20)).toEqual(['see', 'https://stats.example.com/api/data/people/top', 'now']);
    expect(wrapToWidth('one\ntwo', 80)).toEqual(['one', 'two']);
    expect(wrapToWidth('習近平 習近平', 10)).toEqual(['習近平', '習近平']);
  });

  test('keepQuoted: a command in backticks stays on one line when it fits one', () => {
    const message = 'error: refusing to send the API key over plain http: use an https:// base URL, or run `newsstats config set allow-insecure-http true` to accept the risk';
    expect(wrapToWidth(message, 50, { keepQuoted: true })).toEqual([
      'error: refusing to send the API key over plain', 'http: use an https:// base URL, or run',
      '`newsstats config set allow-insecure-http true` to', 'accept the risk',
    ]);
    // Wider than the line: broken between its words as any text.
    expect(wrapToWidth('run `newsstats config set allow-insecure-http true` now', 30, { keepQuoted: true })).toEqual([
      'run `newsstats config set', 'allow-insecure-http true` now',
    ]);
    // An unclosed backtick joins nothing.
    expect(wrapToWidth('a `b c d', 3, { keepQuoted: true })).toEqual(['a', '`b', 'c d']);
    expect(wrapToWidth(message, 50)).toContain('http: use an https:// base URL, or run `newsstats');
  });
});
