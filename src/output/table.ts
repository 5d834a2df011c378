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
import { foreground, type ColorDepth } from './color.js';
import { columnHeader, columnKind, dateText, isNeverCut, isNeverHidden, type ColumnKind } from './columns.js';
import { hyperlink } from './hyperlink.js';
import { cellText, isNumericValue, numericValue } from './flatten.js';
import { movementCell } from './movement.js';
import { captionLines, displayWidth, graphemes, padToWidth, truncateToWidth, wrapToWidth } from './text.js';
import { printable, withoutControls } from '../shared/printable.js';
import { tsvLine, tsvRendererFor } from './tsv.js';
import {
  drawnValue, fieldValue, fieldsWithRowKeys, laidOutRenderer, rowsOf, type TextRenderer, type RenderOptions, type Row, type View,
} from './view.js';
import type { TextWriter } from './writer.js';

/** Spaces between two columns, as gh prints them. */
const COLUMN_GAP = 2;
/** A name is shortened to no less than this before a number or id column is hidden for it. */
const NAME_FLOOR = 12;
/** Free text and URLs likewise. */
const TEXT_FLOOR = 10;
/** A name keeps this much (or all of it) before a less important name or text beside it is hidden. */
const COMFORTABLE_NAME = 24;
/** Free text likewise. */
const COMFORTABLE_TEXT = 20;
/** What a name or text keeps, at least, so that the columns never hidden still fit beside it. */
const NARROWEST_CUT = 4;

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
  /**
   * Never hidden for lack of room: identifiers, the metric the rows are sorted by, a column named
   * in --fields. Names and text beside it are shortened, down to NARROWEST_CUT, to make room.
   */
  kept?: boolean;
  /** A URL on a terminal that draws no hyperlinks: shown whole, last (fitWithWholeUrlsLast). */
  wholeUrl?: boolean;
  /**
   * An identifier kept for its kind alone (not by the view's `keep` or --fields): where a more
   * important name or title has fewer cells than the widest id beside it, this id is hidden (and
   * named in the note) rather than the words cut. people top at 40 shows names, not only hashes.
   */
  givesWayToWords?: boolean;
}

/**
 * The width a column is shortened to before a column that is not kept is hidden for it. A name or a
 * title keeps at least as many cells as the widest id beside it (`widestId`): a 19-digit hash whole
 * beside `Hira Abba…` gave the reader the number and not the words.
 */
function floorWidth(column: ColumnLayout, widestId = 0): number {
  if (isNeverCut(column.kind)) return column.natural;
  return Math.min(column.natural, Math.max(widestId, column.kind === 'name' ? NAME_FLOOR : TEXT_FLOOR));
}

/** The widest identifier column shown (a hash, a slug), which names and text are not shortened below. */
function widestIdentifier(columns: readonly ColumnLayout[]): number {
  return Math.max(0, ...columns.filter((column) => column.kind === 'identifier' && !column.wholeUrl).map((column) => column.natural));
}

/** The width a name or text is shortened to, at most, so the kept columns fit. */
function narrowestWidth(column: ColumnLayout): number {
  return isNeverCut(column.kind) ? column.natural : Math.min(column.natural, NARROWEST_CUT);
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

/** Cells the columns take side by side, with the gaps between them. */
function lineWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width, 0) + COLUMN_GAP * Math.max(0, widths.length - 1);
}

/** A name or free text (or a URL a terminal links), which may be shortened with `…`. */
function isShortened(column: ColumnLayout): boolean {
  return !isNeverCut(column.kind);
}

/** The width a name keeps before a less important name or text beside it is hidden for it. */
function comfortableWidth(column: ColumnLayout): number {
  return Math.min(column.natural, column.kind === 'name' ? COMFORTABLE_NAME : COMFORTABLE_TEXT);
}

/** The columns' widths from their floors, the room left going to names first, then text and URLs. */
function growWidths(columns: readonly ColumnLayout[], floors: readonly number[], width: number): number[] {
  const widths = [...floors];
  let room = width - lineWidth(widths);
  for (const growing of [['name'], ['text', 'url']] as const) {
    const indexes = widths.map((_, k) => k).filter((k) => (growing as readonly string[]).includes(columns[k]!.kind));
    if (indexes.length === 0 || room <= 0) continue;
    const current = indexes.reduce((sum, k) => sum + widths[k]!, 0);
    const grown = capColumnWidths(indexes.map((k) => columns[k]!.natural), indexes.map((k) => widths[k]!), current + room);
    if (!grown) continue;
    grown.forEach((grownWidth, j) => {
      room -= grownWidth - widths[indexes[j]!]!;
      widths[indexes[j]!] = grownWidth;
    });
  }
  return widths;
}

/** What fitColumns decides: the columns shown, their widths, and which of them wrap rather than cut. */
export interface FittedColumns {
  /** Indexes into the columns, in order of importance. */
  shown: number[];
  widths: number[];
  /**
   * Indexes (into the columns, like `shown`) of names and text narrower than the widest id shown:
   * their cells wrap between words onto continuation lines instead of ending in `…`. Absent when none.
   */
  wrapped?: number[];
}

/**
 * Which columns a terminal of `width` shows (indexes into `columns`, which come in order of
 * importance), and their widths. By meaning, not by position:
 * - names and text are shortened, but to no fewer cells than the widest id shown beside them (nor
 *   below NAME_FLOOR, TEXT_FLOOR), before any column is hidden;
 * - then the least important column that is not kept is hidden, one at a time, until the rest fit;
 *   where that column is a name or text, an id less important than it that is kept for its kind alone
 *   goes first (`givesWayToWords`), and the columns hidden before may come back beside the words;
 * - kept columns (ids, the sorted-by metric, --fields) are otherwise never hidden: the last name or
 *   text left beside them shrinks further, down to NARROWEST_CUT, rather than a table of no words;
 *   if the kept columns alone are wider than the terminal, the line runs over rather than lie;
 *   where that leaves the words narrower than the widest id, they wrap (`wrapped`) rather than cut;
 * - a less important name or text is hidden rather than shorten a more important one below a
 *   comfortable width (people top's country of origin goes before its names are cut);
 * - the room left goes to names up to their full width, then to text and URLs.
 */
export function fitColumns(columns: readonly ColumnLayout[], width: number): FittedColumns {
  let shown = columns.map((_, i) => i);
  // Ids hidden for the words still set their floor: the room they gave is the words', not the next column's.
  const gaveWay: number[] = [];
  const floorBesideIds = (column: ColumnLayout) => floorWidth(column, widestIdentifier([...shown, ...gaveWay].map((i) => columns[i]!)));
  const at = (floor: (column: ColumnLayout) => number) => shown.map((i) => floor(columns[i]!));
  const fits = (floor: (column: ColumnLayout) => number) => lineWidth(at(floor)) <= width;
  const hide = (index: number) => {
    shown = shown.filter((i) => i !== index);
  };
  const show = (index: number) => {
    shown = [...shown, index].sort((a, b) => a - b);
  };
  while (!fits(floorBesideIds)) {
    const least = shown.findLast((i) => !columns[i]!.kept);
    if (least === undefined) break;
    if (isShortened(columns[least]!)) {
      const lesserId = shown.findLast((i) => i > least && columns[i]!.givesWayToWords === true);
      if (lesserId !== undefined) {
        hide(lesserId);
        gaveWay.push(lesserId);
        continue;
      }
      // The last words of the table are shortened to their narrowest before they are hidden.
      const otherWords = shown.some((i) => i !== least && isShortened(columns[i]!));
      if (!otherWords && fits(narrowestWidth)) break;
    }
    hide(least);
  }
  if (gaveWay.length > 0) {
    // Columns hidden before an id gave way may fit beside the words it made room for, most important first.
    for (const index of columns.map((_, i) => i).filter((i) => !shown.includes(i) && !columns[i]!.givesWayToWords)) {
      show(index);
      if (fits(floorBesideIds)) continue;
      hide(index);
      break;
    }
  }
  const floor = () => (fits(floorBesideIds) ? floorBesideIds : fits(floorWidth) ? floorWidth : narrowestWidth);
  const widthsOf = () => growWidths(shown.map((i) => columns[i]!), at(floor()), width);
  let widths = widthsOf();
  for (;;) {
    const squeezed = shown.findIndex((i, k) => isShortened(columns[i]!) && widths[k]! < comfortableWidth(columns[i]!));
    if (squeezed < 0) break;
    const lesser = shown.findLast((i, k) => k > squeezed && isShortened(columns[i]!) && !columns[i]!.kept);
    if (lesser === undefined) break;
    hide(lesser);
    widths = widthsOf();
  }
  // The one exception to the id's width: a name or title left narrower than the widest id beside it
  // (or than one that gave way to it) wraps between words rather than being cut, so every word still
  // reads (people search, people links and people movers at 40).
  const widestShown = widestIdentifier([...shown, ...gaveWay].map((i) => columns[i]!));
  const wrapped = shown.filter((i, k) => wrapsWhenNarrow(columns[i]!) && widths[k]! < columns[i]!.natural && widths[k]! < widestShown);
  return wrapped.length > 0 ? { shown, widths, wrapped } : { shown, widths };
}

/** Names and free text wrap between words; a URL is cut as a hyperlink that opens whole instead. */
function wrapsWhenNarrow(column: ColumnLayout): boolean {
  return column.kind === 'name' || column.kind === 'text';
}

interface Cell {
  text: string;
  style?: Style;
  /** A URL: where the cell is cut, the shown text is an OSC 8 hyperlink to the whole of it. */
  link?: string;
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

/**
 * A column's kind on this terminal: a URL is cut (as a hyperlink that still opens whole) only where
 * the terminal draws hyperlinks; elsewhere it is shown whole, like an id.
 */
function terminalKind(field: string, rows: readonly Row[], options: Pick<RenderOptions, 'hyperlinks'>): ColumnKind {
  const kind = columnKind(field, isNumericColumn(rows, field));
  return kind === 'url' && !options.hyperlinks ? 'identifier' : kind;
}

const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;

/**
 * Numbers of a column padded on the right to a common number of decimals, so the points line up
 * under right alignment (`5.172 ` over `5.7821`); the digits are the API's, none added.
 */
function alignDecimals(texts: readonly string[]): string[] {
  const decimals = texts.map((text) => PLAIN_DECIMAL.exec(text)?.[1]?.length ?? 0);
  const most = Math.max(0, ...decimals);
  if (most === 0) return [...texts];
  return texts.map((text, i) => {
    if (!PLAIN_DECIMAL.test(text)) return text;
    const have = decimals[i]!;
    return text + ' '.repeat(have === 0 ? most + 1 : most - have);
  });
}

function gridOf(view: View, rows: readonly Row[], options: RenderOptions): Grid {
  const fields = tableColumns(view, options, rows);
  // Field names may come from the server (the raw api command): printable like every value.
  const label = (text: string): Cell => (options.color ? { text: printable(text), style: bold } : { text: printable(text) });
  if (view.single) {
    const row = rows[0] ?? {};
    const cells = fields.map((field): Cell[] => {
      const value = fieldValue(row, field);
      const kind = columnKind(field, isNumericValue(value));
      // Field names are the API's keys when it adds some: as untrusted as any value.
      return [label(printable(field)), { text: terminalText(value, kind), whole: isNeverCut(kind) }];
    });
    // recordLines wraps the values to the room beside the widest label.
    const labelWidth = Math.max(0, ...fields.map((field) => displayWidth(printable(field))));
    return {
      rows: cells,
      columns: [{ kind: 'identifier', natural: labelWidth }, { kind: 'text', natural: options.width - labelWidth - COLUMN_GAP }],
    };
  }
  const kinds = fields.map((field) => terminalKind(field, rows, options));
  // Never hidden: ids and ranks, the metric the rows are sorted by, and every column --fields names.
  const kept = new Set([...(view.keep ?? []), ...(options.fields ?? [])]);
  const header = options.header ? fields.map((field) => label(printable(columnHeader(field)))) : undefined;
  const texts = fields.map((field, i) => {
    const column = rows.map((row) => terminalText(fieldValue(row, field), kinds[i]!));
    return kinds[i] === 'number' ? alignDecimals(column) : column;
  });
  const body = rows.map((row, r) => fields.map((field, i): Cell => {
    // A mover's rank change reads as an arrow (people movers); its data stays the number.
    if (field === 'rankChange' && fieldValue(row, 'status') !== undefined) return movementCell(row, options.color, options.unicode);
    const text = texts[i]![r]!;
    const style = options.color && field === 'sentiment' ? sentimentStyle(row, options.colorDepth ?? 24) : undefined;
    // A URL cut to fit still opens whole: drawGrid makes the cut text a hyperlink to this.
    const link = kinds[i] === 'url' ? { link: text } : {};
    return style ? { text, style, ...link } : { text, ...link };
  }));
  const columns = kinds.map((kind, i) => ({
    kind,
    natural: Math.max(displayWidth(header?.[i]?.text ?? ''), ...body.map((row) => displayWidth(row[i]!.text))),
    kept: isNeverHidden(kind) || kept.has(fields[i]!),
    wholeUrl: kind !== 'url' && columnKind(fields[i]!, false) === 'url',
    givesWayToWords: kind === 'identifier' && !kept.has(fields[i]!) && columnKind(fields[i]!, false) === 'identifier',
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
async function drawGrid(grid: Grid, widths: readonly number[], options: RenderOptions, wraps: readonly boolean[] = []): Promise<string[]> {
  return (await drawGridRows(grid, widths, options, wraps)).flat();
}

/**
 * drawGrid's lines grouped by grid row (the header first): a row whose cell wraps (`wraps`, by
 * column) is its first line, with every other cell, then one continuation line per further piece of
 * the wrapped text, the other columns blank. Each line is a row of its own to cli-table3, so the
 * placeholders and OSC 8 links work on continuation lines as on first ones.
 */
async function drawGridRows(grid: Grid, widths: readonly number[], options: RenderOptions, wraps: readonly boolean[]): Promise<string[][]> {
  const { default: CliTable } = await import('cli-table3');
  const ellipsis = options.unicode ? '…' : '~';
  const table = new CliTable({
    chars: BORDERLESS,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    colWidths: [...widths],
    wordWrap: false,
  });
  const placed: string[][] = [];
  const linesPerRow: number[] = [];
  const drawLine = (pieces: readonly (string | undefined)[], cells: readonly Cell[]) => {
    const substitutes: string[] = [];
    const drawn = widths.map((width, i) => {
      const cell = cells[i] ?? { text: '' };
      const kind = grid.columns[i]!.kind;
      const piece = pieces[i] ?? '';
      const padding = ' '.repeat(Math.max(0, width - displayWidth(piece)));
      const padded = isRightAligned(kind) ? padding + piece : piece + padding;
      // A cut URL, or one piece of a wrapped one, still opens the whole URL.
      const linked = cell.link !== undefined && piece !== '' && piece !== cell.text;
      const style = linked ? (text: string) => hyperlink((cell.style ?? plain)(text), cell.link!) : cell.style;
      const styled = style && piece !== '' ? (isRightAligned(kind) ? padding + style(piece) : style(piece) + padding) : padded;
      // cli-table3 measures SGR colour codes as nothing, but not an OSC 8 link: that goes in as a placeholder.
      if (PRINTABLE_ASCII.test(padded) && !linked) return styled;
      substitutes.push(styled);
      return PLACEHOLDER.repeat(displayWidth(padded));
    });
    placed.push(substitutes);
    table.push(drawn);
  };
  const drawRow = (cells: readonly Cell[], mayWrap: boolean) => {
    const pieces = widths.map((width, i) => {
      const cell = cells[i] ?? { text: '' };
      if (cell.whole || isNeverCut(grid.columns[i]!.kind)) return [cell.text];
      return mayWrap && wraps[i] ? wrapCell(cell.text, width) : [truncateToWidth(cell.text, width, ellipsis)];
    });
    const lineCount = Math.max(1, ...pieces.map((cellPieces) => cellPieces.length));
    for (let line = 0; line < lineCount; line += 1) drawLine(pieces.map((cellPieces) => cellPieces[line]), cells);
    linesPerRow.push(lineCount);
  };
  // A header is one line: a header wider than its column is cut, as before.
  if (grid.header) drawRow(grid.header, false);
  for (const row of grid.rows) drawRow(row, true);
  const lines = table.toString().split('\n').map((line, index) => {
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
  let at = 0;
  return linesPerRow.map((count) => lines.slice(at, (at += count)));
}

/**
 * A cell's text as lines of at most `width` cells, broken between words (wrapToWidth); a word wider
 * than the column (a long compound name, CJK without spaces) is broken between its characters, so
 * every line stays in its column and nothing is lost.
 */
function wrapCell(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const line of wrapToWidth(text, width)) {
    if (displayWidth(line) <= width) {
      lines.push(line);
      continue;
    }
    let piece = '';
    for (const cluster of graphemes(line)) {
      if (piece !== '' && displayWidth(piece + cluster) > width) {
        lines.push(piece);
        piece = '';
      }
      piece += cluster;
    }
    lines.push(piece);
  }
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
  return `${hidden.length} ${noun} hidden at ${width} columns: ${hidden.map(printable).join(', ')}; see --fields`;
}

/**
 * fitColumns, but a URL the terminal cannot link is shown whole, after the other columns: where it
 * runs past the edge the terminal wraps it, and it still reads and copies as one URL.
 */
function fitWithWholeUrlsLast(grid: Grid, options: RenderOptions): FittedColumns {
  const all = grid.columns.map((_, i) => i);
  const whole = all.filter((i) => grid.columns[i]!.wholeUrl === true);
  if (whole.length === 0) return fitColumns(grid.columns, options.width);
  const rest = all.filter((i) => !whole.includes(i));
  const fitted = fitColumns(rest.map((i) => grid.columns[i]!), options.width);
  return {
    shown: [...fitted.shown.map((k) => rest[k]!), ...whole],
    widths: [...fitted.widths, ...whole.map((i) => grid.columns[i]!.natural)],
    ...(fitted.wrapped ? { wrapped: fitted.wrapped.map((k) => rest[k]!) } : {}),
  };
}

/** The lines of a table for a terminal; notes (hidden columns, no rows) go to options.notice. */
export async function terminalTableLines(view: View, options: RenderOptions): Promise<string[]> {
  const rows = rowsOf(view);
  if (rows.length === 0 && !view.single) {
    options.notice?.(view.empty ?? 'no results');
    return [];
  }
  const grid = gridOf(view, rows, options);
  const caption = view.single ? [] : captionLines(view, options).map(options.color ? bold : plain);
  // A record view (`get`) is read, not scanned: its long values wrap under themselves rather than being cut.
  if (view.single) return [...caption, ...recordLines(grid, options)];
  const { shown, widths, wrapped = [] } = fitWithWholeUrlsLast(grid, options);
  if (shown.length < grid.columns.length) {
    const fields = tableColumns(view, options, rows);
    const hidden = fields.filter((_, i) => !shown.includes(i));
    // The table is what the user is reading: what it leaves out is said even under --quiet.
    options.notice?.(hiddenColumnsNote(hidden, options.width), { evenQuiet: true });
  }
  const wholeUrls = shown.filter((i) => grid.columns[i]!.wholeUrl === true);
  if (wholeUrls.length > 0 && lineWidth(widths) > options.width) {
    return [...caption, ...(await drawWithUrlsBelow(grid, shown, widths, wholeUrls, wrapped, options)), ...sparklineLines(view, rows, options)];
  }
  const wraps = shown.map((i) => wrapped.includes(i));
  return [...caption, ...(await drawGrid(pickColumns(grid, shown), widths, options, wraps)), ...sparklineLines(view, rows, options)];
}

/**
 * A record's `field  value` lines. A value wider than the room beside its label wraps between words
 * onto lines indented under itself, so `posts get` reads whole at 80 columns; a word wider than the
 * room (a URL) gets a line of its own and runs on, so it still reads and copies whole. Numbers, ids and
 * dates are one word each and never broken.
 */
function recordLines(grid: Grid, options: RenderOptions): string[] {
  const labelWidth = grid.columns[0]?.natural ?? 0;
  const room = Math.max(TEXT_FLOOR, options.width - labelWidth - COLUMN_GAP);
  const indent = ' '.repeat(labelWidth + COLUMN_GAP);
  const lines: string[] = [];
  for (const [label, value] of grid.rows) {
    const labelText = label ? (label.style ?? plain)(label.text) + ' '.repeat(Math.max(0, labelWidth - displayWidth(label.text))) : '';
    const text = value?.text ?? '';
    const parts = value?.whole ? [text] : wrapToWidth(text, room);
    parts.forEach((part, k) => lines.push(`${k === 0 ? labelText + ' '.repeat(COLUMN_GAP) : indent}${part}`.trimEnd()));
  }
  return lines;
}

/** The grid with only the `shown` columns, in that order. */
function pickColumns(grid: Grid, shown: readonly number[]): Grid {
  const pick = <T>(cells: readonly T[]) => shown.map((i) => cells[i]!);
  return {
    ...(grid.header ? { header: pick(grid.header) } : {}),
    rows: grid.rows.map(pick),
    columns: pick(grid.columns),
  };
}

/**
 * A whole URL that would run past the edge goes on a line of its own under its row, indented: the
 * other columns stay one line each at the terminal's width, and the terminal wraps the URL alone, so
 * it still reads and copies as one URL (drawn mid-row, it broke the header and the next row apart).
 */
async function drawWithUrlsBelow(
  grid: Grid,
  shown: readonly number[],
  widths: readonly number[],
  wholeUrls: readonly number[],
  wrapped: readonly number[],
  options: RenderOptions,
): Promise<string[]> {
  const inline = shown.filter((i) => !wholeUrls.includes(i));
  const inlineWidths = inline.map((i) => widths[shown.indexOf(i)]!);
  const rowLines = await drawGridRows(pickColumns(grid, inline), inlineWidths, options, inline.map((i) => wrapped.includes(i)));
  const headerLines = grid.header ? 1 : 0;
  const out = rowLines.slice(0, headerLines).flat();
  grid.rows.forEach((row, r) => {
    // A wrapped name's continuation lines stay with its row, above the row's URL.
    out.push(...rowLines[headerLines + r]!);
    for (const i of wholeUrls) {
      const url = row[i]!.text;
      if (url !== '') out.push(`  ${url}`);
    }
  });
  return out;
}

/** Off a terminal: the @tsv rule with the table's columns; a single view as `field<TAB>value` lines. */
const pipedTable = tsvRendererFor({
  columns: tableColumns,
  header: (column) => withoutControls(column),
  cell: (value) => withoutControls(cellText(value)),
});

async function writeSingle(view: View, options: RenderOptions, writer: TextWriter): Promise<void> {
  const row = rowsOf(view)[0] ?? {};
  for (const field of tableColumns(view, options, [row])) {
    await writer.write(tsvLine([withoutControls(field), withoutControls(cellText(fieldValue(row, field)))]));
  }
}

/** On a terminal: laid out from every row, so a sink keeps its rows and prints at the end. */
const terminalTable = laidOutRenderer(terminalTableLines);

export const tableRenderer: TextRenderer = {
  async render(view, options, writer) {
    if (options.isTTY) return terminalTable.render(view, options, writer);
    if (view.single) return writeSingle(view, options, writer);
    return pipedTable.render(view, options, writer);
  },

  openSink(spec, options, writer) {
    return (options.isTTY ? terminalTable : pipedTable).openSink(spec, options, writer);
  },
};
