import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { multiLineChartLines, seriesOf } from '../../../src/output/line-chart.js';

const rows = [1, 2, 3].flatMap((week) => [
  { week, personHash: 'a', fullName: 'Ann', mentions: new LosslessNumber(String(week * 10)) },
  { week, personHash: 'b', fullName: 'Bo', mentions: new LosslessNumber(String(40 - week * 10)) },
]);

describe('several lines on one chart', () => {
  const series = seriesOf(rows, 'personHash', 'fullName', 'week', 'mentions');

  it('splits rows into series in first-seen order, named by their name field', () => {
    expect(series.map((line) => [line.name, line.points.map((point) => point.valueText)])).toEqual([
      ['Ann', ['10', '20', '30']],
      ['Bo', ['30', '20', '10']],
    ]);
  });

  it('a legend with each line\'s mark and last value, then rising and falling marks', () => {
    const lines = multiLineChartLines(series, { width: 30, unicode: true, color: false, metric: 'mentions', height: 4 });
    expect(lines.slice(0, 3)).toEqual(['mentions, 1 to 3', '  ● Ann: last 30', '  ■ Bo: last 10']);
    const plot = lines.slice(3, 8);
    // Top row: Bo starts high, Ann ends high; bottom row the other way round.
    expect(plot[0]!.indexOf('■')).toBeLessThan(plot[0]!.indexOf('●'));
    expect(plot[4]!.indexOf('●')).toBeLessThan(plot[4]!.indexOf('■'));
    expect(lines.at(-1)!.trim().split(/\s+/)).toEqual(['1', '2', '3']);
  });

  it('marks differ without colour in ASCII too', () => {
    const lines = multiLineChartLines(series, { width: 30, unicode: false, color: false, metric: 'mentions', height: 4 });
    expect(lines.slice(1, 3)).toEqual(['  * Ann: last 30', '  + Bo: last 10']);
  });
});
