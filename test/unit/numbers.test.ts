import { describe, expect, it } from 'vitest';
import { parseIntegerText } from '../../src/shared/numbers.js';

describe('parseIntegerText (the integer grammar of CLI flags and sandbox parameters)', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['-3', -3],
    ['+7', 7],
    [' 12 ', 12],
    ['007', 7],
    ['9007199254740991', 9007199254740991],
  ])('%j is %d', (text, value) => {
    expect(parseIntegerText(text)).toBe(value);
  });

  it.each(['', ' ', '1.5', '1e3', '0x10', '1_000', '--1', '+', 'ten', '9007199254740992', '1 2'])('%j is not an integer', (text) => {
    expect(parseIntegerText(text)).toBeUndefined();
  });
});
