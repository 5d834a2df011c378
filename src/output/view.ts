/**
 * The shapes shared by the output entry and its renderers. No runtime dependencies, so the entry
 * can import it without loading any renderer.
 */
import type { OutputFormat } from './formats.js';
import type { TextWriter } from './writer.js';

export type Row = Record<string, unknown>;

/**
 * Bars compare rows (a ranking); a line follows one value through ordered rows (a person's weeks).
 */
export interface ChartSpec {
  label: string;
  value: string;
  style?: 'bars' | 'line';
  /** Bars of a change: growth green, decline red (people movers). */
  diverging?: boolean;
  /** Printed in place of the value where a row has none (a mover's `new` or `out`). */
  fallback?: string;
  /** A field that, where true, puts movement.ts's mark before the value (a mover that fell out of the top N: `left -38`). */
  markedBy?: string;
  /** Lines only: one line per distinct value of this field, with a legend (several people's trends). */
  series?: string;
  /** The field naming each series in the legend (default: the series field). */
  seriesName?: string;
}

/** What a command returns; see docs/design.md "Output". */
export interface View {
  /** What json / ndjson print when --fields is not given: the API's value. */
  data: unknown;
  /** The tabular view. Default: `data` when an array, `[data]` when an object. */
  rows?: readonly Row[];
  /**
   * Every field a row can have, in contract order: validates --fields, orders CSV columns. Empty where
   * only the data can tell (the raw api command): its rows' keys are the fields.
   */
  fields: readonly string[];
  /** Default table columns (a subset of fields). */
  tableFields?: readonly string[];
  /** One object: tables print it as field/value pairs, json with --fields prints one object. */
  single?: boolean;
  /** What --format chart draws: the label field, the numeric value field, and how (default bars). */
  chart?: ChartSpec;
  /** Numeric fields drawn as a sparkline under a terminal table (e.g. mentions per week). */
  sparklines?: readonly string[];
  /** What the rows are, printed above a terminal table only (`Top 50 people by mentions · ...`). */
  caption?: string;
  /**
   * Columns a narrow terminal never hides, besides ids and ranks (which it never hides anyway): the
   * metric the rows are sorted by, a verb's point (people links' URL).
   */
  keep?: readonly string[];
  /** The line on stderr when a terminal table has no rows (`no people match "x"`). */
  empty?: string;
  /**
   * The count the other numbers are measured over (a trend's `mentions`): in a row where it is 0,
   * sparklines and charts draw the others as gaps, since a week with no mentions has no sentiment.
   */
  countField?: string;
}

/** What a command's output looks like, known before any request so --fields is checked up front: a View without its data. */
export type ViewSpec = Omit<View, 'data' | 'rows'>;

/** What a streaming sink needs to know up front: a View without its data. */
export type RowSinkSpec = Omit<View, 'data' | 'rows' | 'single'>;

export interface RenderOptions {
  format: OutputFormat;
  /**
   * --fields in the user's order, checked against the view's declared fields by the caller (selectFields,
   * before any request); for a view that declares none, checked by the entry against its rows' keys.
   */
  fields?: readonly string[];
  /** false for --no-header (csv, tsv, table). */
  header: boolean;
  /** ANSI colour allowed (a terminal, NO_COLOR unset). */
  color: boolean;
  /** Colours the terminal takes when `color` (default 24-bit): 16, 256 or 24-bit. */
  colorDepth?: 4 | 8 | 24;
  /** The output is a terminal: tables get borders and truncation, else tab-separated lines. */
  isTTY: boolean;
  /** Terminal columns, for table and chart. */
  width: number;
  /** The terminal can draw box lines, `…` and block elements; else ASCII. */
  unicode: boolean;
  /** --bom: a UTF-8 byte-order mark before the first byte (csv only; the plan refuses it elsewhere). */
  bom?: boolean;
  /** --jq: a jq expression the JSON output is filtered through (json only; the plan sees to it). */
  jq?: string;
  /** The terminal draws OSC 8 hyperlinks (hyperlink.ts): a URL cut to fit is still opened whole. */
  hyperlinks?: boolean;
  /** A line for the person at the terminal (stderr): hidden columns, an empty result; some even under --quiet. */
  notice?: (text: string, options?: { evenQuiet?: boolean }) => void;
}

export interface RowSink {
  /** Writes one row (or buffers it, for table and chart); resolves when the output can take more. */
  write(row: Row): Promise<void>;
  /** Writes whatever is left (closing `]`, a buffered table) and flushes. Does not end the stream. */
  end(): Promise<void>;
}

/**
 * What every format provides to the entry, text and binary alike: a whole view at once, or a sink for
 * rows that arrive over time. Both write bytes or text to `out` and never end it (stdout must stay
 * open; an atomic file is ended by its commit). `options.fields` arrive checked and de-duplicated, in
 * the user's order (see "Output" in docs/design.md for where --fields is checked).
 */
export interface Renderer {
  render(view: View, options: RenderOptions, out: NodeJS.WritableStream): Promise<void>;
  openSink(spec: RowSinkSpec, options: RenderOptions, out: NodeJS.WritableStream): Promise<RowSink>;
}

/**
 * What a text format (json, ndjson, csv, tsv, table, chart) implements: it writes text into a
 * TextWriter, which joins small writes into chunks and waits on backpressure. The entry lifts it into
 * a Renderer (index.ts, asRenderer); binary formats (xlsx, parquet) write their bytes to `out` themselves.
 */
export interface TextRenderer {
  render(view: View, options: RenderOptions, writer: TextWriter): Promise<void>;
  openSink(spec: RowSinkSpec, options: RenderOptions, writer: TextWriter): RowSink;
}

export function isRecord(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows of a view: its own, else the data when an array, else the data object as one row. */
export function rowsOf(view: View): readonly Row[] {
  if (view.rows) return view.rows;
  if (Array.isArray(view.data)) return view.data as readonly Row[];
  return isRecord(view.data) ? [view.data] : [];
}

/** `fields` followed by the keys of `rows` not among them, in first-seen order. */
export function fieldsWithRowKeys(fields: readonly string[], rows: Iterable<Row>): string[] {
  const all = new Set(fields);
  for (const row of rows) {
    if (!isRecord(row)) continue;
    for (const key of Object.keys(row)) all.add(key);
  }
  return [...all];
}

/** A row's value for a field; rows that are not objects (a bug upstream) read as empty. */
export function fieldValue(row: Row, field: string): unknown {
  return isRecord(row) ? row[field] : undefined;
}

/** A value to draw (sparklines, charts): none where the view's countField is 0 for the row. */
export function drawnValue(view: Pick<View, 'countField'>, row: Row, field: string): unknown {
  const count = view.countField;
  if (count !== undefined && field !== count && String(fieldValue(row, count) ?? '') === '0') return undefined;
  return fieldValue(row, field);
}

/**
 * A renderer for formats laid out from every row at once (table, chart): `layout` gives the lines,
 * and its sink keeps the rows it is given and prints at end().
 */
export function laidOutRenderer(layout: (view: View, options: RenderOptions) => string[] | Promise<string[]>): TextRenderer {
  const render = async (view: View, options: RenderOptions, writer: TextWriter) => {
    for (const line of await layout(view, options)) await writer.write(line + '\n');
  };
  return {
    render,
    openSink(spec, options, writer) {
      const rows: Row[] = [];
      return {
        async write(row) {
          rows.push(row);
        },
        async end() {
          await render({ ...spec, data: rows, rows }, options, writer);
          await writer.flush();
        },
      };
    },
  };
}
