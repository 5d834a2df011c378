/**
 * The links merge store's text (#33 item 6): written a line and a few hundred index entries at a time
 * to keep a sync's peak down, it must stay the bytes the whole-object writing made, and read back to
 * the same rows with every digit, so a lake written before the change merges as it did.
 */
import { Writable } from 'node:stream';
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { openParquetWriter } from '../../../src/output/parquet.js';
import type { Row } from '../../../src/output/view.js';
import { stringify as exactStringify } from '../../../src/shared/exact-json/stringify.js';
import { storeLines, storeRow, writeIndexText } from '../../../src/sync/links-store.js';
import { partitionRow, STREAMS } from '../../../src/sync/streams.js';

function indexText(index: Map<string, number>): string {
  let text = '';
  writeIndexText(index, { write: (chunk: string) => ((text += chunk), true) } as unknown as NodeJS.WritableStream);
  return text;
}

describe('the links merge store', () => {
  it('writes the index as the same bytes as JSON.stringify of the whole object, at every size around a write', () => {
    for (const size of [0, 1, 511, 512, 513, 1024, 1300]) {
      const index = new Map<string, number>();
      // Inserted out of order, with keys needing escapes: the text is in key order.
      for (let item = size - 1; item >= 0; item -= 1) index.set(`person-"${item}"\u0000${1_000_000_000_000_000_000 + item}`, 202600 + (item % 47));
      const whole = JSON.stringify(Object.fromEntries([...index.keys()].sort().map((key) => [key, index.get(key)!]))) + '\n';
      expect(indexText(index), `${size} keys`).toBe(whole);
    }
  });

  it('reads lines back as the rows written, every digit kept, a missing last newline and empty lines alike', () => {
    const rows = ['{"personHash":"p-1","articleHash":12345678901234567890123,"sentiment":0.10,"fullName":"आदित्य"}', '{"personHash":"p-2","articleHash":7,"otherPeople":["x"]}'];
    const bytes = Buffer.from(`${rows[0]}\n\n${rows[1]}`);
    const lines = storeLines(bytes);
    expect(lines.map((line) => line.toString('utf8'))).toEqual(rows);
    expect(lines.map((line) => stringify(storeRow(line, 'store')))).toEqual(rows.map((row) => stringify(parse(row))));
    expect(storeLines(undefined)).toEqual([]);
  });

  it('names a line that is not a links row by its store, with the way out, not as a bare SyntaxError', () => {
    for (const line of ['{"half":', '7', '[1]', 'null']) {
      expect(() => storeRow(Buffer.from(line), 'lake/_newsstats/links/week=202647.ndjson'), line).toThrow(
        "lake/_newsstats/links/week=202647.ndjson holds a line that is not a links row (a JSON object): remove the file and run again, which empties its partition and fetches every week's links anew",
      );
    }
  });
});

/** The links partition file the Parquet writer makes of these rows, as the sync hands them over. */
async function linksFile(rows: readonly Row[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(Buffer.from(chunk)), done()) });
  const writer = openParquetWriter(out, () => STREAMS.links.columns, { week: 202640 });
  for (const row of rows) await writer.write(partitionRow('links', row, 202640));
  await writer.end();
  return Buffer.concat(chunks);
}

describe('a held link read back at the merge', () => {
  const big = (digits: string) => new LosslessNumber(digits);
  const link = { fullName: 'आदित्य "A" शर्मा', personHash: 'p-1', articleHash: big('13810190138644744780000001'), mentionDate: '2026-10-01T18:39:12', sentiment: big('0.351'), sourceId: big('87'), otherPeople: ['p-2', 'p-3'] };
  // Rows as the reader makes them (lossless-parsed answers).
  const rows: Array<[string, Row]> = [
    ['a link as the sandbox sends it', link],
    ['small and odd numbers', { ...link, articleHash: big('7'), sentiment: big('-1e-7'), sourceId: big('0') }],
    ['text that looks like JSON, escapes and \\u0000', { ...link, fullName: 'tab\there, new\nline, back\\slash, "\\u0000", \u0000nul, 👩🏽‍🔬', snippet: '"\\u0000123"' }],
    ['unknown fields, nested', { ...link, extra: { list: [1, big('2.5'), { deep: big('-3') }], text: 'x' } }],
    ['a __proto__ key, data as any other', { ...link, ...(JSON.parse('{"__proto__":{"x":1}}') as Row) }],
    ['a sentiment JSON.parse would write otherwise', { ...link, sentiment: big('0.10') }],
    ['a sourceId beyond 2^53', { ...link, sourceId: big('9007199254740993') }],
    ['a number beyond 2^53 in an unknown field', { ...link, extra: [{ id: big('18446744073709551617') }] }],
  ];
  for (const [name, row] of rows) {
    it(`${name}: its store line reads back to the same line and the same Parquet file`, async () => {
      const reader = parse(exactStringify(row)) as Row;
      const line = exactStringify(reader);
      expect(line).toBe(stringify(reader));
      const held = storeRow(Buffer.from(line), 'store');
      expect(exactStringify(held)).toBe(line);
      expect(isLosslessNumber(held.articleHash)).toBe(true);
      expect((await linksFile([held])).equals(await linksFile([reader]))).toBe(true);
    });
  }
});
