/**
 * The text of the links merge store (sync.ts): each partition's rows as JSON lines, every digit as
 * sent, and the index of each link's partition week. Read and written as bytes and a line at a time,
 * so that a sync's whole run of links is never one string or one array of parsed rows.
 */
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import type { Row } from '../output/view.js';
import { parseJson, printsAsWritten } from '../shared/exact-json/parse.js';

export const NEWLINE = Buffer.from('\n');

/** What identifies a links row across partitions and runs: its personHash, then its articleHash's digits. */
export function linkKey(row: Row): string {
  return `${String(row.personHash)}\u0000${String(row.articleHash)}`;
}

/** The lines of a merge store's bytes, each a view of them, without its newline. */
export function storeLines(bytes: Buffer | undefined): Buffer[] {
  const lines: Buffer[] = [];
  for (let start = 0; bytes !== undefined && start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end === -1 ? bytes.length : end;
    if (stop > start) lines.push(bytes.subarray(start, stop));
    start = stop + 1;
  }
  return lines;
}

/** A line of a merge store as the row it holds, every number a LosslessNumber of the digits sent. */
export function storeRow(line: Buffer): Row {
  return parseJson(line.toString('utf8'), 'lossless') as Row;
}

/**
 * True when JSON.parse reads this row's store line back as the row, but for its articleHash: every
 * other number prints as written and no key is `__proto__` (which heldRow's walk would assign as
 * the prototype). So nearly every link: ids within 2^53, a sentiment written as JavaScript writes it.
 */
export function readsBackByJsonParse(row: Row): boolean {
  for (const key in row) {
    if (key === 'articleHash' && isLosslessNumber(row[key])) continue;
    if (!numbersPrintAsWritten(key, row[key])) return false;
  }
  return true;
}

// Loops, not every() over Object.keys(): this runs for each link a sync fetches.
function numbersPrintAsWritten(key: string, value: unknown): boolean {
  if (key === '__proto__' || typeof value === 'bigint') return false;
  if (typeof value !== 'object' || value === null) return true;
  if (isLosslessNumber(value)) return printsAsWritten(value.value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (!numbersPrintAsWritten('', value[index])) return false;
    return true;
  }
  const record = value as Record<string, unknown>;
  for (const name in record) if (!numbersPrintAsWritten(name, record[name])) return false;
  return true;
}

/**
 * A line of a row readsBackByJsonParse said yes to, as storeRow would read it: JSON.parse, each number
 * a LosslessNumber of its text (the same digits, as they print as written), the articleHash's
 * digits taken from its key (linkKey's). storeRow's pass over the text for numbers JSON.parse would
 * change, and its marking of them, was a third of a sync's links merge.
 */
export function heldRow(text: string, key: string): Row {
  const row = withLosslessNumbers(JSON.parse(text)) as Row;
  if (isLosslessNumber(row.articleHash)) row.articleHash = new LosslessNumber(key.slice(key.lastIndexOf('\u0000') + 1));
  return row;
}

function withLosslessNumbers(value: unknown): unknown {
  if (typeof value === 'number') return new LosslessNumber(String(value));
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = withLosslessNumbers(value[index]);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'number' || (typeof item === 'object' && item !== null)) record[key] = withLosslessNumbers(item);
  }
  return value;
}

/** Keys of the links index written to the file at a time. */
const INDEX_ENTRIES_A_WRITE = 512;

/**
 * The links index as JSON text, `{"key":week,...}` in key order, a few hundred entries a write: the
 * same bytes as JSON.stringify of one object (no key is an array index, which would be put first),
 * without building the object and its text whole (5,355 keys, 2-5 MiB of a sync's peak).
 */
export function writeIndexText(index: ReadonlyMap<string, number>, out: NodeJS.WritableStream): void {
  const keys = [...index.keys()].sort();
  for (let start = 0; start < keys.length || start === 0; start += INDEX_ENTRIES_A_WRITE) {
    const entries = keys.slice(start, start + INDEX_ENTRIES_A_WRITE).map((key) => `${JSON.stringify(key)}:${index.get(key)!}`);
    out.write(`${start === 0 ? '{' : ','}${entries.join(',')}${start + INDEX_ENTRIES_A_WRITE >= keys.length ? '}\n' : ''}`);
  }
}
