/**
 * CSV (RFC 4180 with `\n` line ends), UTF-8 (a BOM only with --bom, written by the output entry).
 * TSV has its own rule, jq's @tsv (tsv.ts).
 *
 * CSV is written by csv-stringify's synchronous API, a batch of records at a time, imported on first
 * use so that no other format loads it.
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
import { setImmediate as nextTurn } from 'node:timers/promises';
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

/**
 * Records handed to csv-stringify's synchronous API at once. After each full batch the writer gives
 * the event loop a turn (docs/performance.md, "Export memory"): V8 runs its collector's tasks (a
 * young collection, the end of a full collection's marking) only between callbacks, and an export's
 * rows, awaited one by one but resolved through promises alone, ran for whole answers without one.
 * On Node 24 and 26 no young collection runs while a full one marks, so everything csv-stringify
 * allocated (about 26 KiB a 19-field record) stayed until the marking was finished.
 */
const RECORDS_PER_BATCH = 16;

interface CsvRecordBatches {
  /** Queues one record; writes the batch once it is full, else after the current burst of records. */
  add(texts: readonly string[]): Promise<void>;
  /** Writes whatever is queued; resolves once the writer has taken it. */
  flush(): Promise<void>;
}

/**
 * csv-stringify's synchronous API, a batch of records at a time, into the writer. A batch left
 * unfilled is written once the current burst of records is over (setImmediate, after pending I/O),
 * so rows that stream in page by page reach the reader a page at a time; with `flushEachBurst` the
 * writer is flushed then too. Backpressure: add() waits while a full batch is written, and the
 * writer waits on a full stream. A failed writer (a closed pipe) fails the add() whose batch it
 * was writing; a batch written after a burst fails the add() that fills the next batch, or flush().
 */
async function openCsvRecordBatches(writer: TextWriter, flushEachBurst: boolean): Promise<CsvRecordBatches> {
  const { stringify } = await import('csv-stringify/sync');
  let batch: Array<readonly string[]> = [];
  let endOfBurst: NodeJS.Immediate | undefined;
  let writing: Promise<void> = Promise.resolve();
  let turning = false;
  const writeBatch = async (records: Array<readonly string[]>, flush: boolean) => {
    // The defaults are RFC 4180 with `\n`.
    if (records.length > 0) await writer.write(stringify(records));
    if (flush) await writer.flush();
  };
  const takeBatch = (flush: boolean) => {
    if (endOfBurst) clearImmediate(endOfBurst);
    endOfBurst = undefined;
    const records = batch;
    batch = [];
    writing = writing.then(() => writeBatch(records, flush));
    return writing;
  };
  const atEndOfBurst = () => {
    endOfBurst ??= setImmediate(() => {
      endOfBurst = undefined;
      // The writer's own turn between batches is no end of the burst: look again after it.
      if (turning) return atEndOfBurst();
      // Its failure reaches the next takeBatch(), chained on `writing`.
      takeBatch(flushEachBurst).catch(() => {});
    });
  };
  return {
    async add(texts) {
      batch.push(texts);
      if (batch.length < RECORDS_PER_BATCH) return atEndOfBurst();
      await takeBatch(false);
      // What the batch left in the writer goes out when the burst ends, as a partial batch would.
      if (flushEachBurst) atEndOfBurst();
      turning = true;
      try {
        await nextTurn();
      } finally {
        turning = false;
      }
    },
    async flush() {
      if (batch.length > 0) return takeBatch(false);
      return writing;
    },
  };
}

export const csvRenderer: TextRenderer = {
  async render(view, options, writer) {
    const rows = rowsOf(view);
    const columns = options.fields ?? fieldsWithRowKeys(view.fields, rows);
    const outgoing = outgoingText(options);
    const records = await openCsvRecordBatches(writer, false);
    if (options.header) await records.add(headerTexts(columns, outgoing));
    for (const row of rows) await records.add(rowTexts(row, columns, outgoing));
    await records.flush();
  },

  openSink(spec, options, writer): RowSink {
    const outgoing = outgoingText(options);
    let started: Promise<{ columns: readonly string[]; records: CsvRecordBatches }> | undefined;
    const startWith = async (firstRow: Row | undefined) => {
      const columns = options.fields ?? fieldsWithRowKeys(spec.fields, firstRow ? [firstRow] : []);
      const records = await openCsvRecordBatches(writer, true);
      if (options.header) await records.add(headerTexts(columns, outgoing));
      return { columns, records };
    };
    return {
      async write(row) {
        started ??= startWith(row);
        const { columns, records } = await started;
        await records.add(rowTexts(row, columns, outgoing));
      },
      async end() {
        started ??= startWith(undefined);
        await (await started).records.flush();
        await writer.flush();
      },
    };
  },
};

