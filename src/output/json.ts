/**
 * JSON (pretty, two spaces) and NDJSON (one compact value a line), through lossless-json so that
 * LosslessNumber and bigint values print the exact digits the API sent.
 *
 * Without --fields both print the API's value (`view.data`), unknown and null fields kept. With
 * --fields they print the rows projected to the selected keys, in that order; a selected key that
 * a row lacks prints as null, so every object has the same keys (what jq and spreadsheets want).
 */
import { stringify } from '../shared/exact-json/stringify.js';
import { fieldValue, rowsOf, type TextRenderer, type Row, type RowSink, type View } from './view.js';
import type { TextWriter } from './writer.js';

/**
 * Compact JSON text of a value, every digit as sent: lossless-json's bytes, about twice as fast as
 * its own walk. Sync's links store takes it from here with a dynamic import, which keeps the exact
 * stringify inside this renderer's chunk of the build (a static import from elsewhere would split
 * it into a module of its own, one more for every JSON command).
 */
export function compactJsonText(value: unknown): string {
  return stringify(value);
}

const INDENT = '  ';

/** JSON text of a value, every number exact; undefined (no JSON representation) prints as null. */
function jsonText(value: unknown, pretty: boolean): string {
  return escapeUnsafeCharacters(wellFormed(stringify(value, pretty ? INDENT : undefined)));
}

/** An escape sequence of JSON text: a lone surrogate's `\udXXX`, or any other `\` and the character after it. */
const ESCAPE = /\\(?:ud[89a-f][0-9a-f]{2}|[^])/g;

/**
 * The text with each lone surrogate (in a key or a value) as U+FFFD, so the output is I-JSON (RFC
 * 7493) that jq and every other parser read, as CSV and TSV already are. JSON.stringify writes a
 * paired surrogate as the character itself and a lone one as a `\udXXX` escape, so every such
 * escape is a lone surrogate; walking escape by escape keeps an escaped backslash before `ud800`
 * (`\\ud800`, plain text) from being mistaken for one.
 */
function wellFormed(text: string): string {
  if (!text.includes('\\ud')) return text;
  return text.replace(ESCAPE, (escape) => (escape.length === 6 ? '\uFFFD' : escape));
}

// C1 controls (U+0080-U+009F: U+009B is a CSI on its own in many terminals), DEL, and the bidi
// controls that reorder what follows (U+061C, U+200E-F, U+202A-E, U+2066-9). JSON.stringify writes
// them raw; JSON lands on terminals (`newsstats ... -f json`, `| jq`, `| less -R`), so they are written
// as \u escapes, which every JSON reader turns back into the same string. Outside strings JSON text
// is ASCII, so a pass over the whole text only ever touches string contents.
const UNSAFE_IN_JSON = /[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with the characters above as \u escapes: the same JSON value, safe on a terminal. */
export function escapeUnsafeCharacters(text: string): string {
  UNSAFE_IN_JSON.lastIndex = 0;
  if (!UNSAFE_IN_JSON.test(text)) return text;
  return text.replace(UNSAFE_IN_JSON, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A row reduced to `fields`, in that order; absent fields become null. */
export function projectRow(row: Row, fields: readonly string[]): Row {
  const projected: Row = {};
  for (const field of fields) projected[field] = fieldValue(row, field) ?? null;
  return projected;
}

/** The value json/ndjson print: the API's value, or the projected rows with --fields. */
function printedValue(view: View, fields: readonly string[] | undefined): unknown {
  if (!fields) return view.data;
  const rows = rowsOf(view);
  if (view.single) return rows[0] === undefined ? null : projectRow(rows[0], fields);
  return rows.map((row) => projectRow(row, fields));
}

/**
 * Writes a pretty JSON array element by element, byte for byte what stringify(array, null, 2)
 * gives, without building the whole text in memory. The sink and renderView share it, so a
 * streamed export and a buffered one are identical.
 */
class PrettyArrayWriter {
  private count = 0;

  constructor(private readonly writer: TextWriter) {}

  async element(value: unknown): Promise<void> {
    // JSON strings hold no raw line breaks, so every '\n' in the text is layout and can be indented.
    const indented = INDENT + jsonText(value, true).replaceAll('\n', `\n${INDENT}`);
    await this.writer.write((this.count === 0 ? '[\n' : ',\n') + indented);
    this.count += 1;
  }

  async end(): Promise<void> {
    await this.writer.write(this.count === 0 ? '[]\n' : '\n]\n');
  }
}

function selectedOrWhole(fields: readonly string[] | undefined): (row: Row) => unknown {
  return fields ? (row) => projectRow(row, fields) : (row) => row;
}

export const jsonRenderer: TextRenderer = {
  async render(view, options, writer) {
    const value = printedValue(view, options.fields);
    if (!Array.isArray(value)) {
      await writer.write(jsonText(value, true) + '\n');
      return;
    }
    const array = new PrettyArrayWriter(writer);
    for (const element of value) await array.element(element);
    await array.end();
  },

  openSink(_spec, options, writer): RowSink {
    const array = new PrettyArrayWriter(writer);
    const printed = selectedOrWhole(options.fields);
    return {
      async write(row) {
        await array.element(printed(row));
        writer.flushSoon();
      },
      async end() {
        await array.end();
        await writer.flush();
      },
    };
  },
};

export const ndjsonRenderer: TextRenderer = {
  async render(view, options, writer) {
    const value = printedValue(view, options.fields);
    for (const element of Array.isArray(value) ? value : [value]) {
      await writer.write(jsonText(element, false) + '\n');
    }
  },

  openSink(_spec, options, writer): RowSink {
    const printed = selectedOrWhole(options.fields);
    return {
      async write(row) {
        await writer.write(jsonText(printed(row), false) + '\n');
        writer.flushSoon();
      },
      async end() {
        await writer.flush();
      },
    };
  },
};
