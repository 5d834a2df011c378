/**
 * The links merge store's text (#33 item 6): written a line and a few hundred index entries at a time
 * to keep a sync's peak down, it must stay the bytes the whole-object writing made, and read back to
 * the same rows with every digit, so a lake written before the change merges as it did.
 */
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { storeLines, storeRow, writeIndexText } from '../../../src/sync/links-store.js';

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
    expect(lines.map((line) => stringify(storeRow(line)))).toEqual(rows.map((row) => stringify(parse(row))));
    expect(storeLines(undefined)).toEqual([]);
  });
});
