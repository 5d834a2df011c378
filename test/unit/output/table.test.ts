import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { capColumnWidths, sparkline } from '../../../src/output/table.js';
import { displayWidth } from '../../../src/output/text.js';
import { BIG, peopleView } from './fixtures.js';
import { render } from './helpers.js';

const ANSI = /\x1b\[[0-9;]*m/g;

const longNames = {
  data: [
    { rank: new LosslessNumber('1'), fullName: '習近平 国家主席 中華人民共和国', countryName: 'People’s Republic of China', mentions: new LosslessNumber('98765') },
    { rank: new LosslessNumber('2'), fullName: 'Alexandria Ocasio-Cortez of New York', countryName: 'United States of America', mentions: new LosslessNumber('5') },
    { rank: new LosslessNumber('3'), fullName: '문재인', countryName: '대한민국', mentions: new LosslessNumber('123') },
  ],
  fields: ['rank', 'fullName', 'countryName', 'mentions'],
};

describe('table on a terminal', () => {
  test.each([100, 60, 40, 30, 20])('every line fits %i columns by display width', async (width) => {
    const lines = (await render(longNames, { format: 'table', isTTY: true, width })).trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    expect(new Set(lines.map(displayWidth)).size).toBe(1); // a grid: all lines the same width
  });

  test('shows everything when it fits, numbers right-aligned', async () => {
    const text = await render(longNames, { format: 'table', isTTY: true, width: 120 });
    expect(text).toContain('│ 習近平 国家主席 中華人民共和国       │');
    expect(text).toContain('│        5 │');
    expect(text).toContain('│    98765 │');
    expect(text).not.toContain('…');
  });

  test('cuts the widest text column first and keeps numbers whole', async () => {
    const text = await render(longNames, { format: 'table', isTTY: true, width: 60 });
    expect(text).toContain('…');
    expect(text).toContain('98765');
    expect(text).toContain('│    1 │');
  });

  test('default columns are tableFields; exact digits', async () => {
    const lines = (await render(peopleView, { format: 'table', isTTY: true, width: 100 })).split('\n');
    expect(lines[1]?.split('│').map((cell) => cell.trim()).filter(Boolean)).toEqual(['rank', 'fullName', 'mentionCount', 'sentiment']);
    expect(lines.join('\n')).toContain(BIG);
    expect(lines.join('\n')).toContain(' 1.50 ');
  });

  test('ASCII borders and ~ when the terminal is not unicode', async () => {
    const text = await render(longNames, { format: 'table', isTTY: true, width: 40, unicode: false });
    expect(text.split('\n')[0]).toMatch(/^\+-+\+/);
    expect(text).toContain('~');
    expect(text).not.toMatch(/[│─┌…]/);
  });

  test('colour: bold header, dim borders, sentiment in its sentimentColor; none without color', async () => {
    const colored = await render(peopleView, { format: 'table', isTTY: true, width: 100, color: true });
    expect(colored).toContain('\x1b[1mrank\x1b[22m');
    expect(colored).toContain('\x1b[2m│\x1b[22m');
    expect(colored).toContain('\x1b[38;2;255;0;0m-0.25\x1b[39m');
    expect(colored.replace(ANSI, '')).toBe(await render(peopleView, { format: 'table', isTTY: true, width: 100 }));
    expect(await render(peopleView, { format: 'table', isTTY: true, width: 100 })).not.toMatch(ANSI);
  });

  test('a single view prints field | value pairs', async () => {
    const view = { data: { currentWeek: new LosslessNumber('202547'), last4StartWeek: new LosslessNumber('202544') }, fields: ['currentWeek', 'last4StartWeek'], single: true };
    const text = await render(view, { format: 'table', isTTY: true, width: 80 });
    expect(text).toBe([
      '┌────────────────┬────────┐',
      '│ currentWeek    │ 202547 │',
      '│ last4StartWeek │ 202544 │',
      '└────────────────┴────────┘',
      '',
    ].join('\n'));
  });

  test('sparklines follow the table', async () => {
    const view = { ...longNames, sparklines: ['mentions'] };
    const lines = (await render(view, { format: 'table', isTTY: true, width: 100 })).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('mentions  █▁▁');
  });

  test('control characters in data never reach the terminal', async () => {
    const view = { data: [{ a: 'red\x1b[31m\nnext' }], fields: ['a'] };
    const text = await render(view, { format: 'table', isTTY: true, width: 80 });
    expect(text).not.toContain('\x1b');
    expect(text).toContain('red\uFFFD[31m next');
  });
});

describe('table off a terminal', () => {
  test('tab-separated with a header, nothing cut, no colour, no borders', async () => {
    const text = await render(longNames, { format: 'table', isTTY: false, width: 20, color: true });
    expect(text).toBe([
      'rank\tfullName\tcountryName\tmentions',
      '1\t習近平 国家主席 中華人民共和国\tPeople’s Republic of China\t98765',
      '2\tAlexandria Ocasio-Cortez of New York\tUnited States of America\t5',
      '3\t문재인\t대한민국\t123',
      '',
    ].join('\n'));
  });

  test('--no-header and --fields', async () => {
    expect(await render(longNames, { format: 'table', header: false, fields: ['mentions', 'rank'] })).toBe('98765\t1\n5\t2\n123\t3\n');
  });

  test('a single view prints field<TAB>value lines', async () => {
    const view = { data: { a: 'x', b: null }, fields: ['a', 'b'], single: true };
    expect(await render(view, { format: 'table' })).toBe('a\tx\nb\t\n');
  });
});

describe('capColumnWidths', () => {
  test('returns the natural widths when they fit', () => {
    expect(capColumnWidths([3, 10, 5], [3, 3, 3], 18)).toEqual([3, 10, 5]);
  });

  test('shrinks the widest first and uses all the room', () => {
    expect(capColumnWidths([3, 30, 20], [3, 3, 3], 30)).toEqual([3, 14, 13]);
  });

  test('never goes below a floor', () => {
    expect(capColumnWidths([19, 30], [19, 3], 25)).toEqual([19, 6]);
    expect(capColumnWidths([19, 30], [19, 3], 21)).toBeUndefined();
  });
});

describe('sparkline', () => {
  test('unicode ramp from the lowest to the highest value', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7], true)).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([10, 20, 10], true)).toBe('▁█▁');
  });

  test('ASCII ramp', () => {
    expect(sparkline([0, 7, 3.5], false)).toBe('_#=');
  });

  test('equal values sit mid-height; gaps are spaces; empty is empty', () => {
    expect(sparkline([5, 5], true)).toBe('▄▄');
    expect(sparkline([1, Number.NaN, 2], true)).toBe('▁ █');
    expect(sparkline([], true)).toBe('');
  });
});
