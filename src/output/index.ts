/**
 * The one entry to output (docs/design.md "Output"). Commands hand over a View and never format;
 * renderers never fetch.
 *
 * Every format, text and binary, is a Renderer (view.ts), dispatched through one table (RENDERERS)
 * whose entries import their module on first use, so a run pays only for its own format: JSON
 * output never loads the table or chart code, nor exceljs.
 *
 *   renderView(view, options, out)        everything at once (most commands)
 *   openRowSink(out, options, spec)       row by row, for exports that page through the API
 *   openAtomicFile(path)                  --output FILE: temp file renamed into place on commit
 *   installEpipeGuard(process.stdout)     `| head` ends the process quietly with exit 0
 *
 * Neither renderView nor a sink ends `out`: stdout must stay open, and an atomic file is ended by
 * its commit().
 */
import { closest } from '../shared/suggest.js';
import { FieldError } from './errors.js';
import type { OutputFormat } from './formats.js';
import { fieldsWithRowKeys, rowsOf, type Renderer, type RenderOptions, type RowSink, type RowSinkSpec, type TextRenderer, type View } from './view.js';
import { STANDARD_COLUMNS } from './text.js';
import { TextWriter } from './writer.js';

export { FieldError, OutputUsageError } from './errors.js';
export { isSpecialTarget, openAtomicFile, type AtomicFile } from './atomic.js';
export { BINARY_FORMATS, OUTPUT_FORMATS, formatFromPath, isOutputFormat, outputExtensions, type OutputFormat } from './formats.js';
export { installEpipeGuard } from './pipe.js';
export { rowsOf } from './view.js';
export type { RenderOptions, Row, RowSink, RowSinkSpec, View, ViewSpec } from './view.js';

/** A field whose last word is close to `name`: `nmae` and `name` are fullName's, `country` fromCountryName's. */
function byLastWord(name: string, valid: readonly string[]): string | undefined {
  const lastWords = valid.map((field) => /[A-Z]?[a-z0-9]+$/.exec(field)?.[0] ?? field);
  const [word] = closest(name, lastWords, 1);
  return word === undefined ? undefined : valid[lastWords.indexOf(word)];
}

/**
 * --fields checked against the valid fields: names trimmed, empty names and repeats dropped, the
 * user's order kept. Throws FieldError naming every unknown field and listing the valid ones.
 *
 * A run checks its --fields once. Against the fields a view declares, by the caller before any
 * request (the CLI's output plan), so renderView and openRowSink take them as checked. A view that
 * declares none (the raw api command: its rows may carry any field) is checked here against the keys
 * its rows have, since only the data can tell.
 */
export function selectFields(requested: readonly string[], valid: readonly string[]): string[] {
  const selected = [...new Set(requested.map((name) => name.trim()).filter((name) => name !== ''))];
  if (selected.length === 0) {
    throw new FieldError(`--fields needs at least one field. Valid fields: ${valid.join(', ')}`, [], valid);
  }
  const validSet = new Set(valid);
  const unknown = selected.filter((name) => !validSet.has(name));
  if (unknown.length > 0) {
    // The same name in another case first, else a close one (`nmae` is `name`'s slip: fullName has none).
    const hints = unknown
      .map((name) => valid.find((field) => field.toLowerCase() === name.toLowerCase()) ?? closest(name, valid, 1)[0] ?? byLastWord(name, valid))
      .filter((field): field is string => field !== undefined);
    const didYouMean = hints.length > 0 ? ` (did you mean ${hints.join(', ')}?)` : '';
    const noun = unknown.length === 1 ? 'field' : 'fields';
    throw new FieldError(
      `unknown ${noun} ${unknown.map((name) => `"${name}"`).join(', ')}${didYouMean}. Valid fields: ${valid.join(', ')}`,
      unknown,
      valid,
    );
  }
  return selected;
}

/** U+FEFF first: how Excel on Windows tells a UTF-8 CSV from one in the local code page (--bom). */
const BYTE_ORDER_MARK = '\ufeff';

/**
 * A text format as a Renderer: its text goes through a TextWriter over `out`, after the byte-order
 * mark when --bom asked for one (the plan allows it with csv only).
 */
function asRenderer(text: TextRenderer): Renderer {
  const writerFor = async (out: NodeJS.WritableStream, options: RenderOptions) => {
    const writer = new TextWriter(out);
    if (options.bom) await writer.write(BYTE_ORDER_MARK);
    return writer;
  };
  return {
    async render(view, options, out) {
      const writer = await writerFor(out, options);
      await text.render(view, options, writer);
      await writer.flush();
    },
    async openSink(spec, options, out) {
      return text.openSink(spec, options, await writerFor(out, options));
    },
  };
}

/** Every format's renderer, loaded on first use: the one table the entry dispatches through. */
const RENDERERS: Readonly<Record<OutputFormat, () => Promise<Renderer>>> = {
  json: async () => asRenderer((await import('./json.js')).jsonRenderer),
  ndjson: async () => asRenderer((await import('./json.js')).ndjsonRenderer),
  csv: async () => asRenderer((await import('./csv.js')).csvRenderer),
  tsv: async () => asRenderer((await import('./tsv.js')).tsvRenderer),
  table: async () => asRenderer((await import('./table.js')).tableRenderer),
  chart: async () => asRenderer((await import('./chart.js')).chartRenderer),
  xlsx: async () => (await import('./xlsx.js')).xlsxRenderer,
  parquet: async () => (await import('./parquet.js')).parquetRenderer,
};

/** A terminal that reports no usable width is laid out as the customary 80 columns. */
const FALLBACK_WIDTH = STANDARD_COLUMNS;

/** Options as renderers get them: a usable width, and --fields checked where only the data can tell. */
function resolveOptions(options: RenderOptions, fieldsFromData: readonly string[] | undefined): RenderOptions {
  return {
    ...options,
    width: Number.isFinite(options.width) && options.width > 0 ? Math.floor(options.width) : FALLBACK_WIDTH,
    ...(options.fields && fieldsFromData ? { fields: selectFields(options.fields, fieldsFromData) } : {}),
  };
}

/** Renders a whole view to `out`, waiting on backpressure; resolves once all is handed to `out`. */
export async function renderView(view: View, options: RenderOptions, out: NodeJS.WritableStream): Promise<void> {
  // A view that declares no fields (the raw api command) has its rows' keys as fields, in first-seen order.
  const fieldsFromData = view.fields.length === 0 ? fieldsWithRowKeys([], rowsOf(view)) : undefined;
  const shaped = fieldsFromData ? { ...view, fields: fieldsFromData } : view;
  const resolved = resolveOptions(options, fieldsFromData);
  if (resolved.jq !== undefined) return renderThroughJq(resolved.jq, resolved, out, (into, json) => renderView(shaped, json, into));
  await (await RENDERERS[resolved.format]()).render(shaped, resolved, out);
}

/**
 * A sink for rows that arrive over time. json writes `[` ... `]` element by element (the same bytes
 * renderView would), ndjson/csv/tsv a line a row; table and chart need every row to lay out, so
 * they print at end(). Output is flushed after each burst of writes, so rows show up page by page.
 * A spec that declares no fields has no rows yet to check --fields against: FieldError at once,
 * before anything is written.
 */
export async function openRowSink(
  out: NodeJS.WritableStream,
  options: RenderOptions,
  spec: RowSinkSpec,
): Promise<RowSink> {
  const resolved = resolveOptions(options, spec.fields.length === 0 ? [] : undefined);
  if (resolved.jq !== undefined) return openJqSink(resolved.jq, resolved, out, spec);
  const sink = await (await RENDERERS[resolved.format]()).openSink(spec, resolved, out);
  let ended = false;
  return {
    write(row) {
      if (ended) return Promise.reject(new Error('row sink already ended'));
      return sink.write(row);
    },
    end() {
      if (ended) return Promise.resolve();
      ended = true;
      return sink.end();
    },
  };
}

/** A stream keeping what is written to it, for the JSON text --jq filters. */
function memoryStream(): { stream: NodeJS.WritableStream; text: () => string } {
  const parts: string[] = [];
  const stream = {
    destroyed: false,
    writableNeedDrain: false,
    write(chunk: string) {
      parts.push(chunk);
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WritableStream, text: () => parts.join('') };
}

/** The JSON a run would print, then jq's results over it: json with --jq prints what the filter gives. */
async function renderThroughJq(
  expression: string,
  options: RenderOptions,
  out: NodeJS.WritableStream,
  renderJson: (into: NodeJS.WritableStream, json: RenderOptions) => Promise<void>,
): Promise<void> {
  const memory = memoryStream();
  await renderJson(memory.stream, { ...options, format: 'json', jq: undefined, bom: false });
  const { applyJq } = await import('./jq.js');
  const writer = new TextWriter(out);
  await writer.write(await applyJq(memory.text(), expression, { isTTY: options.isTTY }));
  await writer.flush();
}

/** Rows gathered as JSON and filtered at end(): jq needs the whole value. */
async function openJqSink(expression: string, options: RenderOptions, out: NodeJS.WritableStream, spec: RowSinkSpec): Promise<RowSink> {
  const memory = memoryStream();
  const json = { ...options, format: 'json' as const, jq: undefined, bom: false };
  const sink = await openRowSink(memory.stream, json, spec);
  return {
    write: (row) => sink.write(row),
    async end() {
      await sink.end();
      await renderThroughJq(expression, options, out, async (into) => void into.write(memory.text()));
    },
  };
}
