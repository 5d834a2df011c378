import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { OutputUsageError } from '../../../src/output/index.js';
import { displayWidth } from '../../../src/output/text.js';
import { render } from './helpers.js';

const n = (digits: string) => new LosslessNumber(digits);

const view = {
  data: [
    { name: 'Ada', mentions: n('8') },
    { name: 'Grace', mentions: n('4') },
    { name: 'Katherine', mentions: n('1') },
    { name: 'Nobody', mentions: n('0') },
  ],
  fields: ['name', 'mentions'],
  chart: { label: 'name', value: 'mentions' },
};

describe('chart', () => {
  test('ASCII: # bars proportional to the value, the largest full width, exact value text', async () => {
    const lines = (await render(view, { format: 'chart', isTTY: true, width: 30, unicode: false })).split('\n');
    // width 30 = label 9 + space + bar 18 + space + value 1
    expect(lines).toEqual([
      'Ada       ################## 8',
      'Grace     #########          4',
      'Katherine ##                 1',
      'Nobody                       0',
      '',
    ]);
  });

  test('unicode: eighth blocks for the fraction', async () => {
    const lines = (await render(view, { format: 'chart', isTTY: true, width: 27, unicode: true })).split('\n');
    // bar width 15: 4/8 of 15 = 7.5 cells, 1/8 of 15 = 1.875 cells (≈ 1 and 7/8)
    expect(lines[0]).toBe(`Ada       ${'█'.repeat(15)} 8`);
    expect(lines[1]).toBe(`Grace     ${'█'.repeat(7)}▌${' '.repeat(7)} 4`);
    expect(lines[2]).toBe(`Katherine █▉${' '.repeat(13)} 1`);
  });

  test('labels are cut to fit and every line fits the width', async () => {
    const wide = {
      ...view,
      data: [{ name: '習近平 国家主席 中華人民共和国 and more', mentions: n('1152921504606846977') }, { name: 'x', mentions: n('3') }],
    };
    const lines = (await render(wide, { format: 'chart', isTTY: true, width: 50 })).trimEnd().split('\n');
    expect(lines[0]).toContain('…');
    expect(lines[0]?.endsWith(' 1152921504606846977')).toBe(true);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
  });

  test('negative values grow left from a zero axis', async () => {
    const mixed = { ...view, data: [{ name: 'up', mentions: n('2') }, { name: 'down', mentions: n('-2') }] };
    const lines = (await render(mixed, { format: 'chart', isTTY: true, width: 20, unicode: false })).split('\n');
    // bar width 20 - 4 - 2 - 2 = 12, axis at 6
    expect(lines[0]).toBe('up         ######  2');
    expect(lines[1]).toBe('down ######       -2');
  });

  test('a view without a chart is a usage error', async () => {
    await expect(render({ data: [], fields: ['a'] }, { format: 'chart' })).rejects.toBeInstanceOf(OutputUsageError);
  });
});

test('a width the terminal did not report lays out as 80 columns', async () => {
  const text = await render(view, { format: 'chart', isTTY: true, width: Number.NaN });
  expect(text).toBe(await render(view, { format: 'chart', isTTY: true, width: 80 }));
  expect(text.split('\n')[0]).toHaveLength(80);
});
