import { describe, expect, test } from 'vitest';
import { displayWidth, padToWidth, truncateToWidth, wrapToWidth } from '../../../src/output/text.js';
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
