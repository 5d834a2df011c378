import { describe, expect, it, test } from 'vitest';
import { lineChartLines, resample, type LinePoint } from '../../../src/output/line-chart.js';
import { displayWidth } from '../../../src/output/text.js';

const weeks = (values: number[]): LinePoint[] =>
  values.map((value, index) => ({ label: String(202640 + index), value, valueText: String(value) }));

describe('resample', () => {
  it('puts every point on a column of its own and draws straight lines between them', () => {
    expect(resample([0, 10], 11)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(resample([3, 1, 3], 5)).toEqual([3, 2, 1, 2, 3]);
    expect(resample([7], 4)).toEqual([7, 7, 7, 7]);
  });

  it('keeps the later point when more points than columns share one', () => {
    expect(resample([1, 2, 3, 4, 5], 3)).toEqual([1, 3, 5]);
  });
});

describe('lineChartLines', () => {
  const options = { width: 60, unicode: true, color: false, metric: 'mentions', height: 6 };

  it('titles the chart with the exact values sent, then the plot, the axis and the labels', () => {
    const points = weeks([4, 9, 2, 7]);
    points[2]!.valueText = '2.0'; // as sent: the title repeats the text, not a reformatted number
    const lines = lineChartLines(points, options);
    expect(lines[0]).toBe('mentions, 202640 to 202643: low 2.0, high 9, last 7');
    expect(lines).toHaveLength(1 + 7 + 2);
    expect(lines[1]).toMatch(/^9\.00 ┤/);
    expect(lines[7]).toMatch(/^2\.00 ┤/);
    expect(lines.at(-1)!.trim().split(/\s+/)).toEqual(['202640', '202641', '202642', '202643']);
  });

  it('draws the highest and the lowest point on the top and bottom rows', () => {
    const lines = lineChartLines(weeks([5, 1, 8, 3]), options);
    const plot = lines.slice(1, 8).map((line) => line.slice(line.indexOf('┤') + 1));
    expect(plot[0]).toMatch(/[╭╮─]/);
    expect(plot[6]).toMatch(/[╯╰─]/);
  });

  it('rises with ╯ then ╭ and falls with ╮ then ╰', () => {
    const rising = lineChartLines(weeks([0, 6]), { ...options, width: 12 }).slice(1, 8).join('\n');
    expect(rising).toContain('╯');
    expect(rising).toContain('╭');
    const falling = lineChartLines(weeks([6, 0]), { ...options, width: 12 }).slice(1, 8).join('\n');
    expect(falling).toContain('╮');
    expect(falling).toContain('╰');
  });

  it('fits the width, and uses only ASCII when the terminal is not UTF-8', () => {
    const lines = lineChartLines(weeks([0.5, -0.25, 0.75, 0.1, -0.6, 0.3]), { ...options, unicode: false });
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(60);
      expect(line).toMatch(/^[\x20-\x7e]*$/);
    }
  });

  it('draws a flat series at mid-height and says so when there is nothing to draw', () => {
    const lines = lineChartLines(weeks([3, 3, 3]), options);
    const plot = lines.slice(1, 8).map((line) => line.slice(line.indexOf('┤') + 1).trim());
    expect(plot.findIndex((row) => row.length > 0)).toBe(3);
    expect(lineChartLines(weeks([Number.NaN]), options)).toEqual(['mentions: no values to draw']);
  });
});

test('a gap (NaN) leaves its columns empty instead of joining its neighbours', () => {
  expect(resample([1, Number.NaN, 3], 5).map((value) => (Number.isNaN(value) ? 'gap' : value))).toEqual([1, 'gap', 'gap', 'gap', 3]);
});
