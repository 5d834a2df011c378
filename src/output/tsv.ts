/**
 * Tab-separated text as jq's `@tsv` writes it: no quoting; tab, newline, carriage return and
 * backslash written as `\t`, `\n`, `\r` and `\\`. So every record is one line and every field has
 * no tab, and `cut -f2`, awk and `while IFS=$'\t' read` get the text. pandas restores it with
 * `pd.read_csv(f, sep="\t", quoting=csv.QUOTE_NONE, escapechar="\\")` (docs/output.md).
 *
 * Two users of the one rule: `-f tsv` (this module's tsvRenderer) and the table printed when stdout
 * is not a terminal (table.ts). They differ only in the cells' text: `-f tsv` is a data file that
 * spreadsheets open, so string cells get CSV's formula guard (a leading `'` before `=`, `+`, `-`,
 * `@`; see flatten.ts); the piped table is for shell tools and prints the text as it is.
 *
 * Rows are written as they come: a streaming sink holds no rows, so a piped export's memory stays flat.
 */
import { csvCellText, guardFormula } from './flatten.js';
import { withoutControls } from '../shared/printable.js';
import { fieldValue, fieldsWithRowKeys, rowsOf, type TextRenderer, type Row, type RowSink, type View } from './view.js';
import type { RenderOptions } from './view.js';

const TSV_SPECIAL = /[\\\t\n\r]/g;
const TSV_ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field's text as jq's @tsv writes it. */
export function escapeTsv(text: string): string {
  return text.replace(TSV_SPECIAL, (character) => TSV_ESCAPES[character] ?? character);
}

/** One record line, `\n`-terminated. */
export function tsvLine(texts: readonly string[]): string {
  return texts.map(escapeTsv).join('\t') + '\n';
}

/** How a TSV variant chooses its columns and writes its cells. */
export interface TsvLayout {
  /** The columns, from the rows seen so far (all of them when buffered, the first when streaming). */
  columns(view: Pick<View, 'fields' | 'tableFields'>, options: RenderOptions, rows: readonly Row[]): readonly string[];
  header(column: string): string;
  cell(value: unknown): string;
}

/** A renderer for a TSV layout: buffered render() and a streaming sink give the same bytes. */
export function tsvRendererFor(layout: TsvLayout): TextRenderer {
  // On a terminal every text, the API's keys included, loses its control characters (see csv.ts).
  const outgoing = (options: RenderOptions) => (options.isTTY ? withoutControls : (text: string) => text);
  const lines = (options: RenderOptions) => {
    const safe = outgoing(options);
    return {
      headerLine: (columns: readonly string[]) => tsvLine(columns.map((column) => safe(layout.header(column)))),
      rowLine: (row: Row, columns: readonly string[]) => tsvLine(columns.map((column) => safe(layout.cell(fieldValue(row, column))))),
    };
  };
  return {
    async render(view, options, writer) {
      const { headerLine, rowLine } = lines(options);
      const rows = rowsOf(view);
      const columns = layout.columns(view, options, rows);
      if (options.header) await writer.write(headerLine(columns));
      for (const row of rows) await writer.write(rowLine(row, columns));
    },

    openSink(spec, options, writer): RowSink {
      const { headerLine, rowLine } = lines(options);
      let columns: readonly string[] | undefined;
      const startWith = async (firstRow: Row | undefined): Promise<readonly string[]> => {
        const chosen = layout.columns(spec, options, firstRow ? [firstRow] : []);
        columns = chosen;
        if (options.header) await writer.write(headerLine(chosen));
        return chosen;
      };
      return {
        async write(row) {
          const rowColumns = columns ?? (await startWith(row));
          await writer.write(rowLine(row, rowColumns));
          writer.flushSoon();
        },
        async end() {
          if (!columns) await startWith(undefined);
          await writer.flush();
        },
      };
    },
  };
}

/**
 * `-f tsv`: the --fields selection, else every field with the keys the rows add (as CSV), API
 * field names as the header, formula-guarded string cells.
 */
export const tsvRenderer = tsvRendererFor({
  columns: (view, options, rows) => options.fields ?? fieldsWithRowKeys(view.fields, rows),
  header: guardFormula,
  cell: csvCellText,
});
