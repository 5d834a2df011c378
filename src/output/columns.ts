/**
 * What a terminal table knows about a column: its kind, which decides whether it may be cut, and
 * its short header. Written once here, by field name: the contract uses one name for one meaning
 * across resources (personHash, mentionDate, sourceName ...), so a view declares only its columns'
 * order of importance (View.tableFields) and every view reads a field the same way.
 *
 * CSV, TSV, JSON and NDJSON never look at this: they keep the API's names and values.
 */
export type ColumnKind = 'rank' | 'identifier' | 'name' | 'number' | 'date' | 'text' | 'url';

const KIND_BY_FIELD: Readonly<Record<string, ColumnKind>> = {
  rank: 'rank',
  personHash: 'identifier',
  slug: 'identifier',
  sourceId: 'identifier',
  articleHash: 'identifier',
  postId: 'identifier',
  countryId: 'identifier',
  fromCountryId: 'identifier',
  countryIso: 'identifier',
  week: 'identifier',
  startWeek: 'identifier',
  endWeek: 'identifier',
  currentWeek: 'identifier',
  last4StartWeek: 'identifier',
  fullName: 'name',
  name: 'name',
  countryName: 'name',
  fromCountryName: 'name',
  sourceName: 'name',
  birthDate: 'date',
  mentionDate: 'date',
  lastCheckedDate: 'date',
  createdAt: 'date',
  updatedAt: 'date',
  publishedAt: 'date',
  url: 'url',
  articleUrl: 'url',
  sourceUrl: 'url',
};

/** A field's kind; a field not listed is a number when every value is one, else free text. */
export function columnKind(field: string, allNumeric: boolean): ColumnKind {
  return KIND_BY_FIELD[field] ?? (allNumeric ? 'number' : 'text');
}

/**
 * Kinds whose text is never shortened: a cut number, hash or date is wrong data, not a layout. A URL
 * is cut only as a terminal hyperlink, which still opens whole (table.ts makes it an identifier
 * where the terminal draws none).
 */
export function isNeverCut(kind: ColumnKind): boolean {
  return kind !== 'name' && kind !== 'text' && kind !== 'url';
}

/** Kinds a table never hides for lack of room: what the next command needs (ids) and where a row stands. */
export function isNeverHidden(kind: ColumnKind): boolean {
  return kind === 'identifier' || kind === 'rank';
}

const HEADER_BY_FIELD: Readonly<Record<string, string>> = {
  rank: '#',
  fullName: 'NAME',
  mentionCount: 'MENTIONS',
  fromCountryName: 'FROM',
  countryName: 'COUNTRY',
  countryIso: 'ISO',
  birthDate: 'BORN',
  mentionDate: 'DATE',
  sourceName: 'SOURCE',
  articleTitle: 'TITLE',
  localDominance: 'DOMINANCE',
  globalDominance: 'DOMINANCE',
  globalSentiment: 'SENTIMENT',
  globalReach: 'REACH',
  globalPower: 'POWER',
  lastCheckedDate: 'CHECKED',
  createdAt: 'CREATED',
  articleUrl: 'URL',
  // Beside MENTIONS or DOMINANCE in people movers, which says whose change it is.
  mentionChange: 'CHANGE',
  dominanceChange: 'CHANGE',
  sourceUrl: 'SOURCE URL',
};

/** The header a terminal shows: short and upper-case, `personHash` as `PERSON HASH`. */
export function columnHeader(field: string): string {
  return HEADER_BY_FIELD[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase();
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z?$/;

/** A date cell as people read it: the day of a contract timestamp (`2002-03-20T00:00:00`). */
export function dateText(text: string): string {
  return TIMESTAMP.exec(text)?.[1] ?? text;
}
