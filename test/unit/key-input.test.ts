import { describe, expect, test } from 'vitest';
import { applyKeys, EMPTY_KEY_INPUT, type KeyInput } from '../../src/cli/run/key-input.js';

/** Feeds the reads in order, as a raw-mode terminal delivers them. */
function type(...reads: string[]): KeyInput {
  return reads.reduce(applyKeys, EMPTY_KEY_INPUT);
}

describe('applyKeys', () => {
  test('printable text, then Enter', () => {
    expect(type('sk-abc', '\r')).toMatchObject({ typed: 'sk-abc', done: 'enter' });
  });

  test('Backspace deletes one character; Ctrl-U and Ctrl-W the line', () => {
    expect(type('sk-abd\x7fc\r').typed).toBe('sk-abc');
    expect(type('wrong\x15sk-1\r').typed).toBe('sk-1');
    expect(type('wrong\x17sk-2\r').typed).toBe('sk-2');
  });

  test('arrow keys, Home and Delete never reach the key, even split across reads', () => {
    expect(type('sk-\x1b[D\x1b[C\x1b[Hx\x1b[3~', '\x1bOA1\r').typed).toBe('sk-x1');
    expect(type('sk-', '\x1b', '[', 'D', 'y\r').typed).toBe('sk-y');
  });

  test('bracketed paste is text, without its line breaks, even split across reads', () => {
    expect(type('\x1b[200~sk-pasted\n\x1b[201~\r')).toMatchObject({ typed: 'sk-pasted', done: 'enter' });
    expect(type('\x1b[200~sk-', 'pa\x1b[2', '01~', '\r').typed).toBe('sk-pa');
  });

  test('Ctrl-C cancels; Ctrl-D ends only an empty line', () => {
    expect(type('sk-secret\x03')).toMatchObject({ typed: '', done: 'cancel' });
    expect(type('\x04')).toMatchObject({ typed: '', done: 'enter' });
    expect(type('sk\x04-1\r').typed).toBe('sk-1');
  });

  test('other control characters are dropped', () => {
    expect(type('s\x01k\x07\r').typed).toBe('sk');
  });
});
