/** jq's error text read into a position in the user's expression (jq 1.7 pads its caret line with spaces). */
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, test } from 'vitest';
import { applyJq, checkJqExpression, JqWorker, readJqError } from '../../../src/output/jq.js';
import { JqExpressionError } from '../../../src/output/errors.js';

describe('readJqError', () => {
  test('a compile error: the message, line and column from the padding after the echoed line', () => {
    const stderr = "jq: error: syntax error, unexpected '(' at <top-level>, line 1:\n.[] | .foo(          \njq: 1 compile error";
    expect(readJqError(stderr, ['.[] | .foo('])).toEqual({ message: 'syntax error: unexpected "("', line: 1, column: 11 });
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
    expect((error as Error).message).toBe('--jq at column 11: syntax error: unexpected "(" (expected the end of the expression)');
    await expect(checkJqExpression('.[]\n| nosuch')).rejects.toThrow('--jq at line 2, column 3: nosuch/0 is not defined');
  });

  // jq names what it found by its grammar's tokens (IDENT, LITERAL, INVALID_CHARACTER, QQSTRING_TEXT),
  // and the check's wrapper once added `) else empty end` after the expression, so an unfinished one
  // reported an unexpected ')' or 'else' the user never typed.
  test.each([
    ['.foo bar', '--jq at column 6: syntax error: unexpected "bar" (expected the end of the expression)'],
    ['.. | 1 2', '--jq at column 8: syntax error: unexpected "2" (expected the end of the expression)'],
    ['.a ]', '--jq at column 4: syntax error: unexpected "]" (expected the end of the expression)'],
    ['.a | "x" "y"', `--jq at column 10: syntax error: unexpected '"y"' (expected the end of the expression)`],
    ['.[] | .fullName +', '--jq at column 18: syntax error: the expression ends unfinished'],
    ['.[0', '--jq at column 4: syntax error: the expression ends unfinished'],
    ['map(.x', '--jq at column 7: syntax error: the expression ends unfinished (expected ";" or ")")'],
    ['.a\n| .b +\n', '--jq at line 2, column 7: syntax error: the expression ends unfinished'],
    ['"abc', '--jq at column 5: syntax error: the expression ends inside a string (a " is not closed)'],
    ['"abc\\q"', '--jq at column 5: invalid escape "\\q" in a string'],
    // jq counts bytes; a column counts characters, whatever their UTF-8 length.
    ['.[] | select(.fullName == "Zoë Ørsted") bar', '--jq at column 41: syntax error: unexpected "bar" (expected the end of the expression)'],
    ['"日本語" x', '--jq at column 7: syntax error: unexpected "x" (expected the end of the expression)'],
    ['"😀" | nosuch', '--jq at column 7: nosuch/0 is not defined'],
  ])('a syntax error in %j quotes what was typed, at its place', async (expression, message) => {
    await expect(checkJqExpression(expression)).rejects.toThrow(new JqExpressionError(message));
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

describe('the memory bound of a running filter', () => {
  /**
   * A worker that is ready at once, never answers, and ends 400 ms after it is told to: a busy
   * machine's worker, which the memory watch (every 50 ms) sees still running after its terminate().
   */
  class SlowToEndWorker extends EventEmitter {
    terminations = 0;
    constructor() {
      super();
      setImmediate(() => this.emit('message', { ready: true }));
    }
    postMessage(): void {}
    ref(): void {}
    unref(): void {}
    terminate(): Promise<number> {
      this.terminations += 1;
      if (this.terminations === 1) setTimeout(() => this.emit('exit', 1), 400);
      // Node's own terminate() waits for the exit with a listener of its own, one a call.
      return new Promise((resolve) => this.once('exit', () => resolve(1)));
    }
  }

  test('a filter past the bound is stopped with one terminate(), however long the worker takes to end (no MaxListenersExceededWarning)', async () => {
    let made: SlowToEndWorker | undefined;
    const WorkerClass = function (this: unknown) {
      made = new SlowToEndWorker();
      return made;
    } as unknown as typeof Worker;
    // A bound below zero: the first check finds the filter past it.
    const worker = new JqWorker(WorkerClass, { code: '', workerData: { jqPath: '' }, transferList: [] }, -1);
    await expect(worker.run('[]', '.')).rejects.toThrow();
    expect(made!.terminations).toBe(1);
  });
});
