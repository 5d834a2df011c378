/**
 * Tables (docs/design.md "Tables").
 *
 * On a terminal: gh's borderless layout (two spaces between columns, no box), drawn by cli-table3,
 * which is loaded only here. newsstats decides the columns and their widths: the view lists its
 * columns in order of importance; numbers, identifiers and dates are never cut; when the columns
 * don't fit, the least important are hidden (one note on stderr names them); only names and free
 * text are shortened with `…`, free text first. Short upper-case headers, dates as days, a caption
 * above, a note on stderr instead of an empty table.
 *
 * Not on a terminal: the columns as tab-separated lines by jq's @tsv rule (tsv.ts), the API's field
 * names as the header, nothing cut, no colour; streamed row by row, so `| cut -f2` and awk read it
 * and a piped export holds no rows in memory.
 */
import type Table from 'cli-table3';
import { captionLines } from './caption.js';
import { foreground, type ColorDepth } from './color.js';
import { columnHeader, columnKind, dateText, isNeverCut, type ColumnKind } from './columns.js';
import { cellText, isNumericValue, numericValue } from './flatten.js';
import { movementCell } from './movement.js';
import { displayWidth, padToWidth, printable, truncateToWidth, withoutControls } from './text.js';
import { tsvLine, tsvRendererFor } from './tsv.js';
import {
  drawnValue, fieldValue, fieldsWithRowKeys, laidOutRenderer, rowsOf, type FormatRenderer, type RenderOptions, type Row, type View,
} from './view.js';
import type { TextWriter } from './writer.js';

/** Spaces between two columns, as gh prints them. */
const COLUMN_GAP = 2;
/** A name is shortened only below this many cells (`people top`'s names at 80 columns stay whole). */
const NAME_FLOOR = 24;
/** Free text keeps at least this much before a column is hidden for it. */
const TEXT_FLOOR = 20;
/** On narrow terminals the floors shrink to a share of the width, but never below this. */
const NARROWEST_CUT = 8;

type Style = (text: string) => string;

const bold: Style = (text) => `\x1b[1m${text}\x1b[22m`;
const plain: Style = (text) => text;

const HEX_COLOR = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;

/** The row's sentimentColor (#RRGGBB) as the nearest foreground the terminal has, if valid. */
function sentimentStyle(row: Row, depth: ColorDepth): Style | undefined {
  const match = HEX_COLOR.exec(String(fieldValue(row, 'sentimentColor') ?? ''));
  if (!match) return undefined;
  const [red, green, blue] = match.slice(1).map((hex) => Number.parseInt(hex, 16)) as [number, number, number];
  const start = foreground(red, green, blue, depth);
  return (text) => `${start}${text}\x1b[39m`;
}

/** One column as the terminal layout sees it. */
export interface ColumnLayout {
  kind: ColumnKind;
  /** Widest cell, header included, in terminal cells. */
  natural: number;
}

/** The width a column keeps before a less important column is hidden for it. */
function floorWidth(column: ColumnLayout, width: number): number {
  if (isNeverCut(column.kind)) return column.natural;
  const [cap, share] = column.kind === 'name' ? [NAME_FLOOR, 3] : [TEXT_FLOOR, 4];
  return Math.min(column.natural, cap, Math.max(NARROWEST_CUT, Math.floor(width / share)));
}

/**
 * Column widths that fit `available` cells, or undefined when even every column at its floor does
 * not. The widest are cut first: every column is capped at one common width c, never below its
 * floor, with c as large as fits; the few columns left a cell of room each get it, left to right.
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

/**
 * The widths of the columns shown, in priority order: as many of the most important columns as fit
 * with names and text at their floors (always at least the first), then the room left goes to the
 * names up to their full width, then to the text. A column that cannot be cut is never narrowed, so
 * on a terminal narrower than one identifier the line runs over rather than lie.
 */
export function fitColumns(columns: readonly ColumnLayout[], width: number): number[] {
  const floors = columns.map((column) => floorWidth(column, width));
  let shown = 0;
  let used = -COLUMN_GAP;
  while (shown < columns.length && used + COLUMN_GAP + floors[shown]! <= width) {
    used += COLUMN_GAP + floors[shown]!;
    shown += 1;
  }
  if (shown === 0) {
    const first = columns[0];
    if (!first) return [];
    return [isNeverCut(first.kind) ? first.natural : Math.max(1, Math.min(first.natural, width))];
  }
  const widths = floors.slice(0, shown);
  let room = width - used;
  for (const growing of ['name', 'text'] as const) {
    const indexes = widths.map((_, i) => i).filter((i) => columns[i]!.kind === growing);
    if (indexes.length === 0 || room <= 0) continue;
    const current = indexes.reduce((sum, i) => sum + widths[i]!, 0);
    const grown = capColumnWidths(
      indexes.map((i) => columns[i]!.natural),
      indexes.map((i) => widths[i]!),
      current + room,
    );
    if (!grown) continue;
    grown.forEach((grownWidth, k) => {
      room -= grownWidth - widths[indexes[k]!]!;
      widths[indexes[k]!] = grownWidth;
    });
  }
  return widths;
}

interface Cell {
  text: string;
  style?: Style;
  /** Never cut, whatever its column (a single view's values each have their own kind). */
  whole?: boolean;
}

interface Grid {
  header?: readonly Cell[];
  rows: readonly (readonly Cell[])[];
  columns: readonly ColumnLayout[];
}

/** Fields whose every filled value is a number: right-aligned, and a number kind unless named. */
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

/** A value as a terminal shows it: one line, no control characters, a date as its day. */
function terminalText(value: unknown, kind: ColumnKind): string {
  const text = printable(cellText(value));
  return kind === 'date' ? dateText(text) : text;
}

function isRightAligned(kind: ColumnKind): boolean {
  return kind === 'number' || kind === 'rank';
}

/** The columns, or for a single view the field names that become rows. */
function tableColumns(view: Pick<View, 'fields' | 'tableFields'>, options: RenderOptions, rows: readonly Row[]): readonly string[] {
  const columns = options.fields ?? view.tableFields ?? view.fields;
  // The raw api command knows no fields before the data: its rows' keys are the columns.
  return columns.length > 0 ? columns : fieldsWithRowKeys([], rows);
}

function gridOf(view: View, rows: readonly Row[], options: RenderOptions): Grid {
  const fields = tableColumns(view, options, rows);
  const label = (text: string): Cell => (options.color ? { text, style: bold } : { text });
  if (view.single) {
    const row = rows[0] ?? {};
    const cells = fields.map((field): Cell[] => {
      const value = fieldValue(row, field);
      const kind = columnKind(field, isNumericValue(value));
      return [label(field), { text: terminalText(value, kind), whole: isNeverCut(kind) }];
    });
    const values = cells.map(([, value]) => value!);
    // The value column is as wide as its widest value that may not be cut; text is cut to the rest.
    const labelWidth = Math.max(0, ...fields.map(displayWidth));
    const textRoom = Math.max(NARROWEST_CUT, options.width - labelWidth - COLUMN_GAP);
    const valueWidth = Math.max(0, ...values.map((value) => Math.min(displayWidth(value.text), value.whole ? Infinity : textRoom)));
    return {
      rows: cells,
      columns: [{ kind: 'identifier', natural: labelWidth }, { kind: 'text', natural: valueWidth }],
    };
  }
  const kinds = fields.map((field) => columnKind(field, isNumericColumn(rows, field)));
  const header = options.header ? fields.map((field) => label(columnHeader(field))) : undefined;
  const body = rows.map((row) => fields.map((field, i): Cell => {
    // A mover's rank change reads as an arrow (people movers); its data stays the number.
    if (field === 'rankChange' && fieldValue(row, 'status') !== undefined) return movementCell(row, options.color, options.unicode);
    const text = terminalText(fieldValue(row, field), kinds[i]!);
    const style = options.color && field === 'sentiment' ? sentimentStyle(row, options.colorDepth ?? 24) : undefined;
    return style ? { text, style } : { text };
  }));
  const columns = kinds.map((kind, i) => ({
    kind,
    natural: Math.max(displayWidth(header?.[i]?.text ?? ''), ...body.map((row) => displayWidth(row[i]!.text))),
  }));
  return { ...(header ? { header } : {}), rows: body, columns };
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Stands in for a cell cli-table3 would measure differently from the terminal (see drawGrid). */
const PLACEHOLDER = '\ue000';

const BORDERLESS: Partial<Record<Table.CharName, string>> = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(COLUMN_GAP),
};

/**
 * The grid's lines, drawn by cli-table3 with cells newsstats has already cut and padded to its
 * widths. cli-table3 measures text with string-width@4, which counts a Devanagari virama, a Thai
 * vowel above or a Hebrew point as a column and a skin-tone modifier as none, unlike the terminal,
 * and pads by its own count. So every cell that is not plain ASCII goes to cli-table3 as a
 * placeholder of the same width (private-use characters, one column by any count) and is put back
 * in the drawn line: the layout is cli-table3's, the widths are the terminal's.
 */
async function drawGrid(grid: Grid, widths: readonly number[], options: RenderOptions): Promise<string[]> {
  const { default: CliTable } = await import('cli-table3');
  const ellipsis = options.unicode ? '…' : '~';
  const table = new CliTable({
    chars: BORDERLESS,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    colWidths: [...widths],
    wordWrap: false,
  });
  const placed: string[][] = [];
  const drawRow = (cells: readonly Cell[]) => {
    const substitutes: string[] = [];
    const drawn = widths.map((width, i) => {
      const cell = cells[i] ?? { text: '' };
      const kind = grid.columns[i]!.kind;
      const cut = cell.whole || isNeverCut(kind) ? cell.text : truncateToWidth(cell.text, width, ellipsis);
      const padding = ' '.repeat(Math.max(0, width - displayWidth(cut)));
      const padded = isRightAligned(kind) ? padding + cut : cut + padding;
      const styled = cell.style ? (isRightAligned(kind) ? padding + cell.style(cut) : cell.style(cut) + padding) : padded;
      if (PRINTABLE_ASCII.test(padded)) return styled;
      substitutes.push(styled);
      return PLACEHOLDER.repeat(displayWidth(padded));
    });
    placed.push(substitutes);
    table.push(drawn);
  };
  if (grid.header) drawRow(grid.header);
  for (const row of grid.rows) drawRow(row);
  return table.toString().split('\n').map((line, index) => {
    let restored = '';
    let rest = line;
    for (const substitute of placed[index] ?? []) {
      const start = rest.indexOf(PLACEHOLDER);
      let end = start;
      while (rest[end] === PLACEHOLDER) end += 1;
      restored += rest.slice(0, start) + substitute;
      rest = rest.slice(end);
    }
    return (restored + rest).trimEnd();
  });
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

/**
 * Sparklines under a table, each with its low and high as sent (`mentions  ▁▃█▅  low 12  high 340`),
 * since a sparkline's floor is its lowest value, not zero. Gaps where the view's count is 0.
 */
function sparklineLines(view: View, rows: readonly Row[], options: RenderOptions): string[] {
  // A sparkline draws a field across rows; one object has nothing to draw.
  const fields = view.single ? [] : (view.sparklines ?? []);
  const labelWidth = Math.max(0, ...fields.map(displayWidth));
  const ellipsis = options.unicode ? '…' : '~';
  return fields.map((field) => {
    const values = rows.map((row) => drawnValue(view, row, field));
    const numbers = values.map(numericValue);
    const chart = sparkline(numbers, options.unicode);
    const finite = numbers.filter(Number.isFinite);
    const range = finite.length === 0
      ? ''
      : `  low ${cellText(values[numbers.indexOf(Math.min(...finite))])}  high ${cellText(values[numbers.indexOf(Math.max(...finite))])}`;
    return truncateToWidth(`${padToWidth(field, labelWidth)}  ${chart}${range}`, options.width, ellipsis);
  });
}

function hiddenColumnsNote(hidden: readonly string[], width: number): string {
  const noun = hidden.length === 1 ? 'column' : 'columns';
  return `${hidden.length} ${noun} hidden at ${width} columns: ${hidden.join(', ')}; see --fields`;
}

/** The lines of a table for a terminal; notes (hidden columns, no rows) go to options.notice. */
export async function terminalTableLines(view: View, options: RenderOptions): Promise<string[]> {
  const rows = rowsOf(view);
  if (rows.length === 0 && !view.single) {
    options.notice?.(view.empty ?? 'no results');
    return [];
  }
  const grid = gridOf(view, rows, options);
  // A single view is two columns that are both always shown: gridOf fitted its values already.
  const widths = view.single ? grid.columns.map((column) => column.natural) : fitColumns(grid.columns, options.width);
  if (!view.single && widths.length < grid.columns.length) {
    options.notice?.(hiddenColumnsNote(tableColumns(view, options, rows).slice(widths.length), options.width));
  }
  const caption = view.single ? [] : captionLines(view, options).map(options.color ? bold : plain);
  return [...caption, ...(await drawGrid(grid, widths, options)), ...sparklineLines(view, rows, options)];
}

/** Off a terminal: the @tsv rule with the table's columns; a single view as `field<TAB>value` lines. */
const pipedTable = tsvRendererFor({
  columns: tableColumns,
  header: (column) => column,
  cell: (value) => withoutControls(cellText(value)),
});

async function writeSingle(view: View, options: RenderOptions, writer: TextWriter): Promise<void> {
  const row = rowsOf(view)[0] ?? {};
  for (const field of tableColumns(view, options, [row])) {
    await writer.write(tsvLine([field, withoutControls(cellText(fieldValue(row, field)))]));
  }
}

/** On a terminal: laid out from every row, so a sink keeps its rows and prints at the end. */
const terminalTable = laidOutRenderer(terminalTableLines);

export const tableRenderer: FormatRenderer = {
  async render(view, options, writer) {
    if (options.isTTY) return terminalTable.render(view, options, writer);
    if (view.single) return writeSingle(view, options, writer);
    return pipedTable.render(view, options, writer);
  },

  openSink(spec, options, writer) {
    return (options.isTTY ? terminalTable : pipedTable).openSink(spec, options, writer);
  },
};
