/** jq's error text read into a position in the user's expression (jq 1.7 pads its caret line with spaces). */
import { describe, expect, test } from 'vitest';
import { applyJq, checkJqExpression, readJqError } from '../../../src/output/jq.js';
import { JqExpressionError } from '../../../src/output/errors.js';

describe('readJqError', () => {
  test('a compile error: the message, line and column from the padding after the echoed line', () => {
    const stderr = "jq: error: syntax error, unexpected '(' at <top-level>, line 1:\n.[] | .foo(          \njq: 1 compile error";
    expect(readJqError(stderr, ['.[] | .foo('])).toEqual({ message: "syntax error, unexpected '('", line: 1, column: 11 });
  });

  test('a line offset maps the checking wrapper\'s lines back to the user\'s', () => {
    const stderr = 'jq: error: nosuch/0 is not defined at <top-level>, line 3:\n  | nosuch  \njq: 1 compile error';
    expect(readJqError(stderr, ['.[]', '  | nosuch'], 1)).toEqual({ message: 'nosuch/0 is not defined', line: 2, column: 3 });
  });

  test('a runtime error keeps jq\'s words without the input name', () => {
    expect(readJqError('jq: error (at inputString:0): Cannot iterate over number (1)', ['.[]'])).toEqual({ message: 'Cannot iterate over number (1)' });
  });
});

describe('checkJqExpression and applyJq (jq 1.7 in WebAssembly)', () => {
  test('an expression that does not compile is a usage error naming the column', async () => {
    const error = await checkJqExpression('.[] | .foo(').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JqExpressionError);
    expect((error as Error).message).toMatch(/^--jq at column 11: syntax error, unexpected '\('/);
    await expect(checkJqExpression('.[]\n| nosuch')).rejects.toThrow('--jq at line 2, column 3: nosuch/0 is not defined');
  });

  test('a valid expression is not run by the check (it would loop forever on null)', async () => {
    await expect(checkJqExpression('repeat(.)')).resolves.toBeUndefined();
  });

  test('numbers keep their digits; strings print raw, other values as compact JSON', async () => {
    const json = '[{"articleHash": 1912702735409063525, "score": 1.10, "name": "Hira \\"H\\" Abbasi\\u0000"}]';
    expect(await applyJq(json, '.[].articleHash', { isTTY: false })).toBe('1912702735409063525\n');
    expect(await applyJq(json, '.[0] | .score, .name, {articleHash}', { isTTY: false })).toBe(
      '1.10\nHira "H" Abbasi\u0000\n{"articleHash":1912702735409063525}\n',
    );
    expect(await applyJq(json, '.[0].name', { isTTY: true })).toBe('Hira "H" Abbasi\uFFFD\n');
    expect(await applyJq(json, 'empty', { isTTY: false })).toBe('');
  });

  test('an error on the data is a usage error too, in jq\'s words', async () => {
    await expect(applyJq('[1]', '.[] | .[]', { isTTY: false })).rejects.toThrow('--jq: Cannot iterate over number (1)');
  });
});
