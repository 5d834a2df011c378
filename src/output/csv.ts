/**
 * CSV (RFC 4180 with `\n` line ends), UTF-8 (a BOM only with --bom, written by the output entry).
 * TSV has its own rule, jq's @tsv (tsv.ts).
 *
 * CSV is written by csv-stringify's stream, imported on first use so that no other format loads it.
 * Its defaults are the quoting rules below (a bare CR is quoted since 6.9, hence the pin). It is
 * handed cell texts only, so the formula guard and the exact digits of numbers stay ours.
 *
 * - A field is quoted when it holds the delimiter, a quote, CR or LF; quotes inside are doubled.
 * - null, absent and the empty string all print as an empty unquoted field: CSV has one empty.
 * - Columns: the --fields selection, else the view's fields followed by any keys the rows have
 *   that the contract does not list (a field the API added later is exported, not dropped), in the
 *   order first seen. Buffered output scans every row for such keys; a streaming sink writes its
 *   header with the first row, so it can only add the first row's extra keys.
 */
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { csvCellText, guardFormula } from './flatten.js';
import { withoutControls } from '../shared/printable.js';
import { fieldValue, fieldsWithRowKeys, rowsOf, type TextRenderer, type RenderOptions, type Row, type RowSink } from './view.js';
import type { TextWriter } from './writer.js';

/** What a text becomes on its way out: unchanged in a file or pipe, without controls on a terminal. */
type Outgoing = (text: string) => string;
const unchanged: Outgoing = (text) => text;

/**
 * CSV on a terminal is read by a person, not a parser: every text, the API's keys included, loses its
 * control characters and bidi overrides there (an OSC title, a CSI colour), as a table's cells do.
 */
export function outgoingText(options: Pick<RenderOptions, 'isTTY'>): Outgoing {
  return options.isTTY ? withoutControls : unchanged;
}

/** The header: names past the contract's come from the API's keys, so they are guarded too. */
function headerTexts(columns: readonly string[], outgoing: Outgoing): string[] {
  return columns.map((column) => outgoing(guardFormula(column)));
}

/** The cell texts of one row, in column order. */
function rowTexts(row: Row, columns: readonly string[], outgoing: Outgoing): string[] {
  return columns.map((column) => outgoing(csvCellText(fieldValue(row, column))));
}

interface CsvRecordStream {
  /** Queues one record; resolves when csv-stringify can take more. */
  write(texts: readonly string[]): Promise<void>;
  /** Ends the records and resolves once every byte has reached the writer. */
  end(): Promise<void>;
}

/**
 * csv-stringify's Transform piped into the writer. Backpressure runs the whole way: a slow writer
 * fills the pipe, csv-stringify stops taking records, and write() waits. A failed writer (a closed
 * pipe) ends the pipeline, and the next write() or end() throws its error.
 */
async function openCsvRecordStream(writer: TextWriter, flushEachChunk: boolean): Promise<CsvRecordStream> {
  const { stringify } = await import('csv-stringify');
  // The defaults are RFC 4180 with `\n`; `encoding` makes the Transform hand on strings, not Buffers.
  const stringifier = stringify({ encoding: 'utf8' });
  const forward = (text: string, callback: (error?: Error | null) => void) => {
    writer.write(text).then(() => {
      if (flushEachChunk) writer.flushSoon();
      callback();
    }, callback);
  };
  const toWriter = new Writable({
    decodeStrings: false,
    write: (chunk: string, _encoding, callback) => forward(chunk, callback),
    // Records that queued while the writer was busy go on as one string: one promise, not one each.
    writev: (chunks, callback) => forward(chunks.map(({ chunk }) => chunk as string).join(''), callback),
  });
  const finished = pipeline(stringifier, toWriter);
  // Awaited by write() and end(); this handler only keeps a failure between rows from being unhandled.
  finished.catch(() => {});
  return {
    async write(texts) {
      if (!stringifier.write(texts)) await Promise.race([once(stringifier, 'drain'), finished]);
    },
    async end() {
      stringifier.end();
      await finished;
    },
  };
}

export const csvRenderer: TextRenderer = {
  async render(view, options, writer) {
    const rows = rowsOf(view);
    const columns = options.fields ?? fieldsWithRowKeys(view.fields, rows);
    const outgoing = outgoingText(options);
    const records = await openCsvRecordStream(writer, false);
    if (options.header) await records.write(headerTexts(columns, outgoing));
    for (const row of rows) await records.write(rowTexts(row, columns, outgoing));
    await records.end();
  },

  openSink(spec, options, writer): RowSink {
    const outgoing = outgoingText(options);
    let started: Promise<{ columns: readonly string[]; records: CsvRecordStream }> | undefined;
    const startWith = async (firstRow: Row | undefined) => {
      const columns = options.fields ?? fieldsWithRowKeys(spec.fields, firstRow ? [firstRow] : []);
      const records = await openCsvRecordStream(writer, true);
      if (options.header) await records.write(headerTexts(columns, outgoing));
      return { columns, records };
    };
    return {
      async write(row) {
        started ??= startWith(row);
        const { columns, records } = await started;
        await records.write(rowTexts(row, columns, outgoing));
      },
      async end() {
        started ??= startWith(undefined);
        await (await started).records.end();
        await writer.flush();
      },
    };
  },
};

