/**
 * A line chart of one metric over an ordered series (a person's weeks), for `people trend --format
 * chart`: a y axis with ticks on the left, the line drawn with box-drawing characters (as asciichart
 * draws it), and the series' labels along the bottom. Plain ASCII when the terminal is not UTF-8.
 *
 * The plot is spread over the terminal's width: each point on a column of its own and straight lines
 * between neighbours, so 12 weeks fill the line. More points than columns (260 weeks on a narrow
 * terminal) share columns, the later point drawn.
 * Axis ticks are computed, so they are rounded; the exact values sent are in the title line.
 */
import { cellText, numericValue } from './flatten.js';
import { padToWidth } from './text.js';
import { printable } from '../shared/printable.js';

export interface LinePoint {
  label: string;
  /** The value as sent, for the title line. */
  valueText: string;
  /** The value as a number, for placing it; NaN for a gap. */
  value: number;
}

export interface LineChartOptions {
  width: number;
  unicode: boolean;
  color: boolean;
  /** What the values are, for the title line. */
  metric: string;
  /** Rows of plot between the lowest and the highest value. */
  height?: number;
}

const DEFAULT_HEIGHT = 10;

const UNICODE_GLYPHS = { flat: '─', vertical: '│', upStart: '╯', upEnd: '╭', downStart: '╮', downEnd: '╰', tick: '┤', corner: '└', rule: '─' };
const ASCII_GLYPHS = { flat: '-', vertical: '|', upStart: "'", upEnd: '.', downStart: '.', downEnd: "'", tick: '+', corner: '+', rule: '-' };

/** Decimals that tell the ticks apart without printing noise: more for narrow ranges. */
function tickDecimals(span: number): number {
  if (span === 0) return 2;
  return Math.max(0, Math.min(6, 2 - Math.floor(Math.log10(span))));
}

/** The column where point `index` of `count` is drawn, spread evenly over `columns`. */
function pointColumn(index: number, count: number, columns: number): number {
  return count === 1 ? 0 : Math.round((index * (columns - 1)) / (count - 1));
}

/**
 * The series spread over `columns`: each point on its own column, straight lines between
 * neighbours. With more points than columns, the last point to land on a column is the one drawn.
 */
export function resample(values: readonly number[], columns: number): number[] {
  if (values.length === 0 || columns <= 0) return [];
  const line = Array.from({ length: columns }, () => values[0]!);
  values.forEach((value, index) => {
    const from = pointColumn(index, values.length, columns);
    const to = index + 1 < values.length ? pointColumn(index + 1, values.length, columns) : from;
    const next = values[index + 1] ?? value;
    for (let column = from; column <= to; column++) {
      // Next to a gap (NaN) there is no line to draw: the point stands alone.
      line[column] = to === from || column === from ? value : value + ((next - value) * (column - from)) / (to - from);
    }
  });
  return line;
}

export function lineChartLines(points: readonly LinePoint[], options: LineChartOptions): string[] {
  const glyphs = options.unicode ? UNICODE_GLYPHS : ASCII_GLYPHS;
  const plotted = points.filter((point) => Number.isFinite(point.value));
  if (plotted.length === 0) return [`${options.metric}: no values to draw`];

  const values = plotted.map((point) => point.value);
  const height = options.height ?? DEFAULT_HEIGHT;
  const lowest = plotted.reduce((a, b) => (b.value < a.value ? b : a));
  const highest = plotted.reduce((a, b) => (b.value > a.value ? b : a));
  const last = plotted[plotted.length - 1]!;
  const title =
    `${options.metric}, ${printable(plotted[0]!.label)} to ${printable(last.label)}: ` +
    `low ${lowest.valueText}, high ${highest.valueText}, last ${last.valueText}`;

  // Every point sits on a column of its own, so the data's range is what the line spans.
  const { tickTexts, axisWidth, rowOf } = yAxis(values, height);
  const plotWidth = Math.max(2, options.width - axisWidth - 2);
  // Every point, gaps included, so a week without a value leaves its columns empty.
  const columns = resample(points.map((point) => point.value), plotWidth);

  const grid = Array.from({ length: height + 1 }, () => Array.from({ length: plotWidth }, () => ' '));
  const put = (row: number, column: number, glyph: string) => {
    grid[height - row]![column] = glyph;
  };
  for (let column = 0; column < columns.length; column++) {
    if (!Number.isFinite(columns[column])) continue;
    const here = rowOf(columns[column]!);
    const following = columns[column + 1];
    const next = following !== undefined && Number.isFinite(following) ? rowOf(following) : here;
    if (here === next) {
      put(here, column, glyphs.flat);
      continue;
    }
    const rising = next > here;
    put(here, column, rising ? glyphs.upStart : glyphs.downStart);
    put(next, column, rising ? glyphs.upEnd : glyphs.downEnd);
    for (let row = Math.min(here, next) + 1; row < Math.max(here, next); row++) put(row, column, glyphs.vertical);
  }

  const paint = options.color ? (text: string) => `\x1b[36m${text}\x1b[39m` : (text: string) => text;
  const plotLines = grid.map((cells, index) => {
    const row = height - index;
    return `${padToWidth(tickTexts[row]!, axisWidth, 'right')} ${glyphs.tick}${paint(cells.join('').trimEnd())}`;
  });

  return [title, ...plotLines, `${' '.repeat(axisWidth)} ${glyphs.corner}${glyphs.rule.repeat(plotWidth)}`, labelLine(points, axisWidth + 2, plotWidth)];
}

/** Tick labels and the row of a value, over the values' own range; row 0 is the lowest, a flat series sits mid-height. */
function yAxis(values: readonly number[], height: number) {
  const low = Math.min(...values);
  const span = Math.max(...values) - low;
  const decimals = tickDecimals(span);
  const tickValue = (row: number) => (span === 0 ? low : low + (span * row) / height);
  const tickTexts = Array.from({ length: height + 1 }, (_, row) => tickValue(row).toFixed(decimals));
  const axisWidth = Math.max(...tickTexts.map((text) => text.length));
  const rowOf = (value: number) => (span === 0 ? Math.round(height / 2) : Math.round(((value - low) / span) * height));
  return { tickTexts, axisWidth, rowOf };
}

/** One line of a chart of several: its name in the legend and its points, label by label. */
export interface LineSeries {
  name: string;
  points: LinePoint[];
}

/** Rows split into series by `key` (in first-seen order), named by `name`. */
export function seriesOf(rows: readonly Record<string, unknown>[], key: string, name: string, labelField: string, valueField: string): LineSeries[] {
  const byKey = new Map<string, LineSeries>();
  for (const row of rows) {
    const id = cellText(row[key]);
    let series = byKey.get(id);
    if (!series) byKey.set(id, (series = { name: printable(cellText(row[name] ?? row[key])), points: [] }));
    series.points.push({ label: printable(cellText(row[labelField])), valueText: printable(cellText(row[valueField])), value: numericValue(row[valueField]) });
  }
  return [...byKey.values()];
}

/** Told apart without colour by their marks; with colour, by both. More series than marks reuse them in turn. */
const SERIES_MARKS = { unicode: ['●', '■', '▲', '◆', '○', '□', '△', '◇'], ascii: ['*', '+', 'o', 'x', '#', '@', '%', '&'] };
const SERIES_COLOURS = [36, 33, 35, 32, 31, 34];

/**
 * Several series on one y axis (several people's weeks): each drawn as its own marks along its
 * line, later series on top where they meet, and a legend line per series with its exact last value.
 */
export function multiLineChartLines(series: readonly LineSeries[], options: LineChartOptions): string[] {
  const glyphs = options.unicode ? UNICODE_GLYPHS : ASCII_GLYPHS;
  const marks = options.unicode ? SERIES_MARKS.unicode : SERIES_MARKS.ascii;
  const values = series.flatMap((line) => line.points.map((point) => point.value)).filter(Number.isFinite);
  if (values.length === 0) return [`${options.metric}: no values to draw`];
  const labels = series[0]?.points ?? [];
  const height = options.height ?? DEFAULT_HEIGHT;
  const { tickTexts, axisWidth, rowOf } = yAxis(values, height);
  const plotWidth = Math.max(2, options.width - axisWidth - 2);
  const paint = (index: number, text: string) => (options.color ? `\x1b[${SERIES_COLOURS[index % SERIES_COLOURS.length]}m${text}\x1b[39m` : text);
  const mark = (index: number) => paint(index, marks[index % marks.length]!);

  const grid = Array.from({ length: height + 1 }, () => Array.from({ length: plotWidth }, () => ' '));
  series.forEach((line, index) => {
    resample(line.points.map((point) => point.value), plotWidth).forEach((value, column) => {
      if (Number.isFinite(value)) grid[height - rowOf(value)]![column] = mark(index);
    });
  });

  const title = `${options.metric}, ${labels[0]?.label ?? ''} to ${labels.at(-1)?.label ?? ''}`;
  const legend = series.map((line, index) => {
    const last = [...line.points].reverse().find((point) => Number.isFinite(point.value));
    return `  ${mark(index)} ${line.name}: last ${last?.valueText ?? 'none'}`;
  });
  const plotLines = grid.map((cells, index) => `${padToWidth(tickTexts[height - index]!, axisWidth, 'right')} ${glyphs.tick}${cells.join('').trimEnd()}`);
  return [title, ...legend, ...plotLines, `${' '.repeat(axisWidth)} ${glyphs.corner}${glyphs.rule.repeat(plotWidth)}`, labelLine(labels, axisWidth + 2, plotWidth)];
}

/** The points' labels under the plot, each at its point's column, skipping those that would collide. */
function labelLine(points: readonly LinePoint[], indent: number, plotWidth: number): string {
  let line = ' '.repeat(indent);
  let nextFree = indent;
  points.forEach((point, index) => {
    const column = indent + (points.length === 1 ? 0 : Math.round((index * (plotWidth - 1)) / (points.length - 1)));
    const label = printable(point.label);
    const start = Math.min(column, indent + plotWidth - label.length);
    if (start < nextFree) return;
    line = line.padEnd(start) + label;
    nextFree = start + label.length + 1;
  });
  return line.trimEnd();
}
