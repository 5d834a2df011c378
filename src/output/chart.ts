/**
 * --format chart. A line chart when the view asks for one (line-chart.ts); otherwise a horizontal
 * bar chart, one line a row: the label (cut to fit), the bar, then the value exactly
 * as sent, right-aligned.
 *
 * Bars are drawn from a zero axis: with negative values present, the axis moves right by the share
 * of the range below zero, negative bars grow left from it and positive bars right, so a bar's
 * length is always proportional to its value's size. (Clamping negatives to 0 would draw -5 like 0.)
 * Positive bars use eighth blocks (▏▎▍▌▋▊▉█) for sub-cell precision when unicode is on, else '#';
 * negative bars use whole cells, as there are no right-aligned eighth blocks to end them with.
 */
import { cellText, numericValue } from './flatten.js';
import { captionLines, displayWidth, padToWidth, truncateToWidth } from './text.js';
import { printable } from '../shared/printable.js';
import { OutputUsageError } from './errors.js';
import { lineChartLines, multiLineChartLines, seriesOf } from './line-chart.js';
import { LEFT_TOP_MARK } from './movement.js';
import { drawnValue, fieldValue, laidOutRenderer, rowsOf, type RenderOptions, type View } from './view.js';

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
/** Labels take at most this share of the line, so long names leave room for the bars. */
const MAX_LABEL_SHARE = 0.4;
const MIN_BAR_WIDTH = 10;

/** A bar `cells` long (fractional), growing right. */
function positiveBar(cells: number, unicode: boolean): string {
  if (!unicode) return '#'.repeat(Math.round(cells));
  let whole = Math.floor(cells);
  let eighths = Math.round((cells - whole) * 8);
  if (eighths === 8) {
    whole += 1;
    eighths = 0;
  }
  return '█'.repeat(whole) + EIGHTHS[eighths];
}

function negativeBar(cells: number, unicode: boolean): string {
  return (unicode ? '█' : '#').repeat(Math.round(cells));
}

export function chartLines(view: View, options: RenderOptions): string[] {
  if (!view.chart) throw new OutputUsageError('--format chart is not available for this command; use table, json, ndjson, csv or tsv');
  const { label: labelField, value: valueField, fallback, markedBy } = view.chart;
  const points = rowsOf(view).map((row) => {
    // A week with no mentions is a gap (drawnValue); a mover with no rank change shows its status.
    const value = drawnValue(view, row, valueField);
    const missing = value === null || value === undefined;
    const shown = missing && fallback ? fieldValue(row, fallback) : value;
    const marked = !missing && markedBy !== undefined && fieldValue(row, markedBy) === true ? `${LEFT_TOP_MARK} ` : '';
    return { label: printable(cellText(fieldValue(row, labelField))), valueText: marked + printable(cellText(shown)), value: numericValue(value) };
  });
  // The caption names what is drawn and over which weeks (and marks an unfinished week).
  const caption = captionLines(view, options);
  if (view.chart.style === 'line') {
    const series = view.chart.series;
    if (series) return [...caption, ...multiLineChartLines(seriesOf(rowsOf(view), series, view.chart.seriesName ?? series, labelField, valueField), { ...options, metric: valueField })];
    return [...caption, ...lineChartLines(points, { ...options, metric: valueField })];
  }
  const values = points.map((point) => point.value).filter(Number.isFinite);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const span = high - low || 1;

  const ellipsis = options.unicode ? '…' : '~';
  const valueWidth = Math.max(0, ...points.map((point) => displayWidth(point.valueText)));
  // Labels give way first: to their share of the line, then to the bars' minimum.
  const labelWidth = Math.max(0, Math.min(
    Math.max(0, ...points.map((point) => displayWidth(point.label))),
    Math.floor(options.width * MAX_LABEL_SHARE),
    options.width - valueWidth - 2 - MIN_BAR_WIDTH,
  ));
  const barWidth = Math.max(MIN_BAR_WIDTH, options.width - labelWidth - valueWidth - 2);
  const axis = Math.round((barWidth * -low) / span);
  const paint = (code: number) => (text: string) => (options.color ? `\x1b[${code}m${text}\x1b[39m` : text);
  // A change reads at a glance when growth and decline differ in colour too, not only in direction.
  const colorBar = (value: number) => paint(view.chart!.diverging ? (value < 0 ? 31 : 32) : 36);

  return [...caption, ...points.map((point) => {
    // Bars are plain block characters, one column each, so string length is display width here.
    let offset = axis;
    let barText = '';
    if (point.value < 0) {
      barText = negativeBar(Math.min(axis, (-point.value / span) * barWidth), options.unicode);
      offset = axis - barText.length;
    } else if (point.value > 0) {
      barText = positiveBar(Math.min(barWidth - axis, (point.value / span) * barWidth), options.unicode);
    }
    const label = padToWidth(truncateToWidth(point.label, labelWidth, ellipsis), labelWidth);
    const trailing = ' '.repeat(Math.max(0, barWidth - offset - barText.length));
    const value = padToWidth(point.valueText, valueWidth, 'right');
    return `${label} ${' '.repeat(offset)}${barText === '' ? '' : colorBar(point.value)(barText)}${trailing} ${value}`;
  })];
}

export const chartRenderer = laidOutRenderer(chartLines);
