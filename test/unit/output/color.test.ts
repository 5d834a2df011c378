import { describe, expect, test } from 'vitest';
import { colorDepth, foreground } from '../../../src/output/color.js';

describe('colorDepth', () => {
  test.each([
    ['a terminal, TERM=xterm', { TERM: 'xterm' }, true, 4],
    ['TERM names 256 colours', { TERM: 'xterm-256color' }, true, 8],
    ['COLORTERM=truecolor', { TERM: 'xterm-256color', COLORTERM: 'truecolor' }, true, 24],
    ['COLORTERM=24bit', { TERM: 'xterm', COLORTERM: '24bit' }, true, 24],
    ['not a terminal', { TERM: 'xterm-256color' }, false, 0],
    ['TERM=dumb', { TERM: 'dumb' }, true, 0],
    ['NO_COLOR', { TERM: 'xterm', NO_COLOR: '1' }, true, 0],
    ['an empty NO_COLOR is not set (no-color.org)', { TERM: 'xterm', NO_COLOR: '' }, true, 4],
    ['FORCE_COLOR=1 when piped', { FORCE_COLOR: '1' }, false, 4],
    ['FORCE_COLOR= when piped', { FORCE_COLOR: '' }, false, 4],
    ['FORCE_COLOR=2', { FORCE_COLOR: '2' }, false, 8],
    ['FORCE_COLOR=3', { FORCE_COLOR: '3' }, false, 24],
    ['FORCE_COLOR=0 on a terminal', { TERM: 'xterm', FORCE_COLOR: '0' }, true, 0],
    ['NO_COLOR beats FORCE_COLOR', { FORCE_COLOR: '1', NO_COLOR: '1' }, false, 0],
  ] as const)('%s', (_name, env, isTTY, depth) => {
    expect(colorDepth(env, isTTY)).toBe(depth);
  });

  test('--no-color wins over everything', () => {
    expect(colorDepth({ FORCE_COLOR: '3' }, true, false)).toBe(0);
  });
});

describe('foreground', () => {
  test('24-bit as sent, 256 colours from the cube or the grey ramp, 16 the nearest basic colour', () => {
    expect(foreground(141, 157, 148, 24)).toBe('\x1b[38;2;141;157;148m');
    expect(foreground(255, 0, 0, 8)).toBe('\x1b[38;5;196m');
    expect(foreground(128, 128, 128, 8)).toBe('\x1b[38;5;244m');
    expect(foreground(250, 10, 10, 4)).toBe('\x1b[91m');
    expect(foreground(0, 200, 0, 4)).toBe('\x1b[32m');
    expect(foreground(1, 2, 3, 0)).toBe('');
  });
});
