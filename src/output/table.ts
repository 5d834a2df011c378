/**
 * Tables for people. A small renderer of our own rather than cli-table3: fitting the terminal
 * width ("shrink the widest text columns first, never cut a number while text can give") is the
 * whole job, and cli-table3 only truncates to widths it is handed; it also costs ~16 ms to import.
 *
 * On a terminal: a bordered grid fitted to `width`, numbers right-aligned, cut cells ending in `…`.
 * Not on a terminal: tab-separated lines with a header, nothing cut, no colour, no borders (as the
 * GitHub CLI does), so `newsstats ... -f table | cut -f2` works.
 */
import { captionLines } from './caption.js';
import { cellText, isNumericValue, numericValue } from './flatten.js';
import { movementCell } from './movement.js';
import { displayWidth, padToWidth, printable, truncateToWidth } from './text.js';
import {
  fieldValue, laidOutRenderer, rowsOf, type RenderOptions, type Row, type View,
} from './view.js';

/** Narrowest a column is cut to before columns are dropped: two characters and the ellipsis. */
const MIN_COLUMN_WIDTH = 3;

type Style = (text: string) => string;

interface Cell {
  text: string;
  style?: Style;
}

interface Grid {
  header?: readonly string[];
  rows: Cell[][];
  /** Per column: every filled cell is a number, so the column is right-aligned and cut last. */
  numeric: boolean[];
}

interface BoxCharacters {
  top: readonly [string, string, string, string];
  middle: readonly [string, string, string, string];
  bottom: readonly [string, string, string, string];
  vertical: string;
}

const UNICODE_BOX: BoxCharacters = {
  top: ['┌', '─', '┬', '┐'],
  middle: ['├', '─', '┼', '┤'],
  bottom: ['└', '─', '┴', '┘'],
  vertical: '│',
};
const ASCII_BOX: BoxCharacters = {
  top: ['+', '-', '+', '+'],
  middle: ['+', '-', '+', '+'],
  bottom: ['+', '-', '+', '+'],
  vertical: '|',
};

const bold: Style = (text) => `\x1b[1m${text}\x1b[22m`;
const dim: Style = (text) => `\x1b[2m${text}\x1b[22m`;
const plain: Style = (text) => text;

const HEX_COLOR = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

/** The row's sentimentColor (#RRGGBB) as a 24-bit foreground colour, if it has a valid one. */
function sentimentStyle(row: Row): Style | undefined {
  const match = HEX_COLOR.exec(String(fieldValue(row, 'sentimentColor') ?? ''));
  if (!match) return undefined;
  const [red, green, blue] = match.slice(1).map((hex) => Number.parseInt(hex, 16));
  return (text) => `\x1b[38;2;${red};${green};${blue}m${text}\x1b[39m`;
}

function cellOf(row: Row, field: string, color: boolean, unicode = true): Cell {
  // A mover's rank change reads as an arrow (people movers); its data stays the number.
  if (field === 'rankChange' && fieldValue(row, 'status') !== undefined) return movementCell(row, color, unicode);
  const text = printable(cellText(fieldValue(row, field)));
  const style = color && field === 'sentiment' ? sentimentStyle(row) : undefined;
  return style ? { text, style } : { text };
}

function isNumericColumn(rows: readonly Row[], field: string): boolean {
  let sawNumber = false;
  for (const row of rows) {
    const value = fieldValue(row, field);
    if (value === null || value === undefined) continue;
    if (!isNumericValue(value)) return false;
    sawNumber = true;
  }
  return sawNumber;
}

/**
 * Column widths that fit `available` columns of cell text, or undefined when even every column at
 * its floor does not fit. The widest columns are cut first: every column is capped at one common
 * width c, never below its floor, with c as large as fits; the few columns left a column of room
 * each get it, left to right.
 */
export function capColumnWidths(
  natural: readonly number[],
  floors: readonly number[],
  available: number,
): number[] | undefined {
  const widthsAt = (cap: number) => natural.map((width, i) => Math.max(floors[i] ?? 0, Math.min(width, cap)));
  const total = (widths: number[]) => widths.reduce((sum, width) => sum + width, 0);
  if (total(natural as number[]) <= available) return [...natural];
  if (total(widthsAt(0)) > available) return undefined;
  let fits = 0;
  let tooWide = Math.max(...natural);
  while (tooWide - fits > 1) {
    const middle = Math.floor((fits + tooWide) / 2);
    if (total(widthsAt(middle)) <= available) fits = middle;
    else tooWide = middle;
  }
  const widths = widthsAt(fits);
  let room = available - total(widths);
  for (let i = 0; i < widths.length && room > 0; i += 1) {
    if ((natural[i] ?? 0) > fits && (floors[i] ?? 0) <= fits) {
      widths[i] = fits + 1;
      room -= 1;
    }
  }
  return widths;
}

/** Every column's content width, with the cell borders ("│ " and " │") on a line of `width`. */
function contentWidthFor(width: number, columnCount: number): number {
  return width - (3 * columnCount + 1);
}

/**
 * How wide each column is drawn, and how many columns are drawn at all. First text is cut (numbers
 * keep their digits), then numbers too, down to MIN_COLUMN_WIDTH; when even that does not fit,
 * columns are dropped from the right (a terminal table is for reading; csv and json export all).
 */
export function fitColumns(natural: readonly number[], digitWidths: readonly number[], width: number): number[] {
  const textFirst = natural.map((naturalWidth, i) => Math.min(naturalWidth, Math.max(MIN_COLUMN_WIDTH, digitWidths[i] ?? 0)));
  const anyColumn = natural.map((naturalWidth) => Math.min(naturalWidth, MIN_COLUMN_WIDTH));
  for (let count = natural.length; count >= 1; count -= 1) {
    const available = contentWidthFor(width, count);
    const fitted = capColumnWidths(natural.slice(0, count), textFirst.slice(0, count), available)
      ?? capColumnWidths(natural.slice(0, count), anyColumn.slice(0, count), available);
    if (fitted) return fitted;
  }
  return natural.length === 0 ? [] : [Math.max(1, contentWidthFor(width, 1))];
}

function drawGrid(grid: Grid, options: RenderOptions): string[] {
  const columnCount = grid.numeric.length;
  const allRows = grid.header ? [grid.header.map((text): Cell => ({ text })), ...grid.rows] : grid.rows;
  const natural = Array.from({ length: columnCount }, (_, i) =>
    Math.max(0, ...allRows.map((row) => displayWidth(row[i]?.text ?? ''))));
  const digitWidths = Array.from({ length: columnCount }, (_, i) =>
    grid.numeric[i] ? Math.max(0, ...grid.rows.map((row) => displayWidth(row[i]?.text ?? ''))) : 0);
  const widths = fitColumns(natural, digitWidths, options.width);

  const box = options.unicode ? UNICODE_BOX : ASCII_BOX;
  const ellipsis = options.unicode ? '…' : '~';
  const border = options.color ? dim : plain;
  const rule = ([left, fill, join, right]: readonly [string, string, string, string]) =>
    border(left + widths.map((width) => fill.repeat(width + 2)).join(join) + right);
  const line = (cells: readonly Cell[], headerStyle?: Style) => {
    const drawn = widths.map((width, i) => {
      const cell = cells[i] ?? { text: '' };
      const cut = truncateToWidth(cell.text, width, ellipsis);
      const padding = ' '.repeat(Math.max(0, width - displayWidth(cut)));
      const styled = (headerStyle ?? cell.style ?? plain)(cut);
      return grid.numeric[i] ? padding + styled : styled + padding;
    });
    const vertical = border(box.vertical);
    return `${vertical} ${drawn.join(` ${vertical} `)} ${vertical}`;
  };

  const lines = [rule(box.top)];
  if (grid.header) {
    lines.push(line(grid.header.map((text) => ({ text })), options.color ? bold : undefined), rule(box.middle));
  }
  for (const row of grid.rows) lines.push(line(row));
  lines.push(rule(box.bottom));
  return lines;
}

const UNICODE_RAMP = [...'▁▂▃▄▅▆▇█'];
const ASCII_RAMP = [...'_.-:=+*#'];

/**
 * A one-line chart of `values`, lowest to highest over the values' own range (the shape is the
 * point, so the floor is the smallest value, not zero). All-equal values sit mid-height; a value
 * that is not a finite number is a gap (space).
 */
export function sparkline(values: readonly number[], unicode: boolean): string {
  const ramp = unicode ? UNICODE_RAMP : ASCII_RAMP;
  const finite = values.filter(Number.isFinite);
  const low = Math.min(...finite);
  const span = Math.max(...finite) - low;
  return values
    .map((value) => {
      if (!Number.isFinite(value)) return ' ';
      const level = span === 0 ? Math.floor((ramp.length - 1) / 2) : Math.round(((value - low) / span) * (ramp.length - 1));
      return ramp[level];
    })
    .join('');
}

function sparklineLines(view: View, rows: readonly Row[], options: RenderOptions): string[] {
  // A sparkline draws a field across rows; one object has nothing to draw.
  const fields = view.single ? [] : (view.sparklines ?? []);
  const labelWidth = Math.max(0, ...fields.map(displayWidth));
  const ellipsis = options.unicode ? '…' : '~';
  return fields.map((field) => {
    const chart = sparkline(rows.map((row) => numericValue(fieldValue(row, field))), options.unicode);
    return truncateToWidth(`${padToWidth(field, labelWidth)}  ${chart}`, options.width, ellipsis);
  });
}

/** The columns, or for a single view the field names that become rows. */
function tableColumns(view: View, options: RenderOptions): readonly string[] {
  return options.fields ?? view.tableFields ?? view.fields;
}

function gridOf(view: View, rows: readonly Row[], options: RenderOptions): Grid {
  const columns = tableColumns(view, options);
  if (view.single) {
    const row = rows[0] ?? {};
    return {
      rows: columns.map((field) => [
        options.color ? { text: field, style: bold } : { text: field },
        cellOf(row, field, options.color),
      ]),
      numeric: [false, false],
    };
  }
  return {
    ...(options.header ? { header: columns } : {}),
    rows: rows.map((row) => columns.map((field) => cellOf(row, field, options.color, options.unicode))),
    numeric: columns.map((field) => isNumericColumn(rows, field)),
  };
}

/** Not a terminal: tab-separated, nothing cut; a single view prints `field<TAB>value` lines. */
function plainLines(view: View, rows: readonly Row[], options: RenderOptions): string[] {
  const columns = tableColumns(view, options);
  const text = (row: Row | undefined, field: string) => printable(cellText(row ? fieldValue(row, field) : undefined));
  if (view.single) return columns.map((field) => `${field}\t${text(rows[0], field)}`);
  const lines = rows.map((row) => columns.map((field) => text(row, field)).join('\t'));
  return options.header ? [columns.join('\t'), ...lines] : lines;
}

export function tableLines(view: View, options: RenderOptions): string[] {
  const rows = rowsOf(view);
  if (!options.isTTY) return plainLines(view, rows, options);
  const caption = captionLines(view, options);
  return [...caption, ...drawGrid(gridOf(view, rows, options), options), ...sparklineLines(view, rows, options)];
}

export const tableRenderer = laidOutRenderer(tableLines);
