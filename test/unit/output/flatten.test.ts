import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { cellText, csvCellText, guardFormula, numericValue } from '../../../src/output/flatten.js';

describe('cellText', () => {
  test.each([
    [null, ''],
    [undefined, ''],
    ['text', 'text'],
    [true, 'true'],
    [false, 'false'],
    [42, '42'],
    [1152921504606846977n, '1152921504606846977'],
    [new LosslessNumber('1.50'), '1.50'],
    [new LosslessNumber('1e2'), '1e2'],
    [['a', 'b', 'c'], 'a;b;c'],
    [[], ''],
    [[1, 2], '[1,2]'],
    [{ id: new LosslessNumber('1152921504606846977'), name: 'x' }, '{"id":1152921504606846977,"name":"x"}'],
  ])('%o prints as %j', (value, expected) => {
    expect(cellText(value)).toBe(expected);
  });
});

describe('csvCellText guards formulas in strings only', () => {
  test.each(['=cmd', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])('%j gets a leading quote', (text) => {
    expect(csvCellText(text)).toBe(`'${text}`);
  });

  test('joined string arrays are strings too', () => {
    expect(csvCellText(['=a', 'b'])).toBe("'=a;b");
  });

  test('numbers are never guarded', () => {
    expect(csvCellText(new LosslessNumber('-0.25'))).toBe('-0.25');
    expect(csvCellText(-3)).toBe('-3');
    expect(csvCellText(-5n)).toBe('-5');
  });

  test('plain text is left alone', () => {
    expect(guardFormula('Ada = great')).toBe('Ada = great');
    expect(guardFormula('')).toBe('');
  });
});

test('numericValue turns numeric values into numbers, anything else into NaN', () => {
  expect(numericValue(new LosslessNumber('2.5'))).toBe(2.5);
  expect(numericValue(7n)).toBe(7);
  expect(numericValue(3)).toBe(3);
  expect(numericValue('3')).toBeNaN();
  expect(numericValue(null)).toBeNaN();
});
