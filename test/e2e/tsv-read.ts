/**
 * Reads TSV as newsstats writes it (jq's @tsv): one record a line, fields split on tabs, then
 * `\t`, `\n`, `\r` and `\\` turned back into the characters. A CSV parser would not do: @tsv does
 * not quote, so a field may hold a `"`.
 */
const UNESCAPED: Readonly<Record<string, string>> = { t: '\t', n: '\n', r: '\r', '\\': '\\' };

export function readTsv(text: string): string[][] {
  if (text === '') return [];
  const unescape = (field: string) => field.replace(/\\(.)/g, (escape, character: string) => UNESCAPED[character] ?? escape);
  return text.replace(/\n$/, '').split('\n').map((line) => line.split('\t').map(unescape));
}

/** The records as objects keyed by the header row. */
export function tsvRecords(text: string): Array<Record<string, string>> {
  const [header = [], ...rows] = readTsv(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}
