import { describe, expect, test } from 'vitest';
import { choosePager, commandWords, DEFAULT_PAGER, pagerEnvironment, screenRows } from '../../../src/cli/run/pager.js';

describe('which pager runs (#31)', () => {
  test('NEWSSTATS_PAGER or the profile, then PAGER, then less -FRX', () => {
    expect(choosePager({ value: 'most', source: 'NEWSSTATS_PAGER' }, { PAGER: 'more' })).toEqual({ command: 'most', source: 'NEWSSTATS_PAGER' });
    expect(choosePager(undefined, { PAGER: 'more -s' })).toEqual({ command: 'more -s', source: 'PAGER' });
    expect(choosePager(undefined, {})).toEqual({ command: DEFAULT_PAGER, source: 'default' });
  });

  test('cat and an empty PAGER mean none, as in gh', () => {
    expect(choosePager({ value: 'cat', source: 'pager setting' }, {})).toBeUndefined();
    expect(choosePager(undefined, { PAGER: '' })).toBeUndefined();
    expect(choosePager(undefined, { PAGER: ' cat ' })).toBeUndefined();
  });

  test('a command line is split as a shell splits simple words', () => {
    expect(commandWords('less -FRX')).toEqual(['less', '-FRX']);
    expect(commandWords(`sed -u 's/^/x| /'`)).toEqual(['sed', '-u', 's/^/x| /']);
    expect(commandWords('"/opt/my pager/bin" -a\\ b ""')).toEqual(['/opt/my pager/bin', '-a b', '']);
  });

  test('less and lv get gh\'s defaults only where the user set none', () => {
    expect(pagerEnvironment({})).toMatchObject({ LESS: 'FRX', LV: '-c' });
    expect(pagerEnvironment({ LESS: '-S', LV: '' })).toMatchObject({ LESS: '-S', LV: '' });
  });
});

describe('screen rows of output', () => {
  test('long lines wrap, escapes take no room, a line not ended yet counts when it ends', () => {
    expect(screenRows('abc\n', 80, 0)).toEqual({ rows: 1, column: 0 });
    expect(screenRows(`${'x'.repeat(81)}\n`, 80, 0)).toEqual({ rows: 2, column: 0 });
    expect(screenRows('\x1b[1mbold\x1b[22m \x1b]8;;https://a.example\x1b\\link\x1b]8;;\x1b\\\n', 9, 0)).toEqual({ rows: 1, column: 0 });
    expect(screenRows('abc', 80, 0)).toEqual({ rows: 0, column: 3 });
    expect(screenRows('\n\n', 80, 3)).toEqual({ rows: 2, column: 0 });
  });
});
