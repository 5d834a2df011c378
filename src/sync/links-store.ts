/**
 * The text of the links merge store (sync.ts): each partition's rows as JSON lines, every digit as
 * sent, and the index of each link's partition week. Read and written as bytes and a line at a time,
 * so that a sync's whole run of links is never one string or one array of parsed rows.
 */
import { LosslessNumber } from 'lossless-json';
import type { Row } from '../output/view.js';
import { parseJson } from '../shared/exact-json/parse.js';
import { StateError } from './state.js';

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

/**
 * A line of a merge store as the row it holds, every number a LosslessNumber of the digits sent.
 * `where` names the store: a line that is not a JSON object (a store edited, or cut short by an
 * object store that writes in place) is a StateError with the way out, where the parser's
 * SyntaxError named neither the file nor what to do.
 */
export function storeRow(line: Buffer, where: string): Row {
  let row: unknown;
  try {
    row = parseJson(line.toString('utf8'), 'lossless');
  } catch {
    row = undefined;
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row) || row instanceof LosslessNumber) {
    throw new StateError(`${where} holds a line that is not a links row (a JSON object): remove the file and run again, which empties its partition and fetches every week's links anew`);
  }
  return row as Row;
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
