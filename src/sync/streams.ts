/**
 * The streams `sync` and `tap` share: what each holds, its columns and types, its key, and the week a
 * row belongs to. One table, read by both front-ends: the Parquet schema of a partition, the JSON
 * Schema of a Singer catalog entry and the fields of a record all come from here (so a lake and a
 * tap's target hold the same columns under the same key), the column types from the contract's field
 * kinds.
 */
import { countrySchema, fieldsOf, personCountryRowSchema, personLinkSchema, personSchema, personStatsSchema, sourceSchema } from '../api/types.js';
import { parquetColumns, type ParquetColumn } from '../output/parquet.js';
import type { Row } from '../output/view.js';
import { timestampMillis } from '../shared/timestamp.js';
import { isoWeekOfTime } from '../shared/weeks.js';

export const STREAM_NAMES = ['rankings', 'country_stats', 'links', 'people', 'countries', 'sources'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/**
 * The column of every stream holding, as one JSON object, the fields a row's record carried that the
 * contract does not name (the service's additive changes), or null when there were none. A leading
 * `_` as Singer's own metadata columns have: no contract field (camelCase) can take its name.
 */
export const EXTRA_COLUMN = '_extra';

export interface StreamSpec {
  name: StreamName;
  /** Weekly streams are partitioned by ISO week; reference tables by the week their snapshot was taken. */
  weekly: boolean;
  /**
   * Columns of a partition and of a Singer record, in order: `week` first (a weekly stream's row's week;
   * a reference table's, the week its snapshot was taken), then the contract's fields, then
   * EXTRA_COLUMN. `required` on the week and the key: never null.
   */
  columns: readonly ParquetColumn[];
  /** What identifies a row across the whole stream (Singer's key_properties; the lake merges by it). */
  keyProperties: readonly string[];
}

const WEEK_COLUMN: ParquetColumn = { name: 'week', kind: 'INT32', required: true };
const EXTRA: ParquetColumn = { name: EXTRA_COLUMN, kind: 'JSON' };

function spec(name: StreamName, weekly: boolean, fields: readonly string[], keyProperties: readonly string[]): StreamSpec {
  const columns = parquetColumns(fields, [], keyProperties);
  return { name, weekly, columns: [WEEK_COLUMN, ...columns, EXTRA], keyProperties };
}

/** The person of a week's ranking that country rows were read for: their rank and name that week. */
const PERSON_LEAD = ['rank', 'fullName'];

export const STREAMS: Readonly<Record<StreamName, StreamSpec>> = {
  rankings: spec('rankings', true, fieldsOf(personStatsSchema), ['week', 'personHash']),
  country_stats: spec('country_stats', true, [...PERSON_LEAD, 'personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)], ['week', 'personHash', 'countryId']),
  // A link is one person's mention in one article, whichever week's ranking found the person: it lives
  // in its mentionDate's week (rowWeek), once, so neither the week nor the finder's rank is in its key.
  links: spec('links', true, ['fullName', ...fieldsOf(personLinkSchema)], ['personHash', 'articleHash']),
  people: spec('people', false, fieldsOf(personSchema), ['personHash']),
  countries: spec('countries', false, fieldsOf(countrySchema), ['countryId']),
  sources: spec('sources', false, fieldsOf(sourceSchema), ['sourceId']),
};

/**
 * The `week` of a link the service sent without a mentionDate (the contract lets it be null): such a
 * link has no week of its own, and filing it under each week whose ranking found it would put one row
 * in many places, so it lives in `links/week=0/`, once.
 */
export const UNDATED_WEEK = 0;

/**
 * The week a weekly stream's row belongs to: for links, its mentionDate's (UNDATED_WEEK without one);
 * for the others, the week fetched.
 */
export function rowWeek(stream: StreamName, row: Row, fetchedWeek: number): number {
  if (stream !== 'links') return fetchedWeek;
  // Counted from the text without a Date (a links row's week was two Dates and more of garbage).
  const time = typeof row.mentionDate === 'string' ? timestampMillis(row.mentionDate) : Number.NaN;
  return Number.isNaN(time) ? UNDATED_WEEK : isoWeekOfTime(time);
}

/**
 * The fields of a row that have a column. Not `week`: a row's week is given apart (the partition's),
 * never taken from the row, so a field the service adds under that name is a new field like any other
 * and reaches EXTRA_COLUMN (as a known name it was dropped: the column holds the partition's week).
 */
const KNOWN_FIELDS: Readonly<Record<StreamName, ReadonlySet<string>>> = Object.fromEntries(
  STREAM_NAMES.map((stream) => [stream, new Set(STREAMS[stream].columns.map((column) => column.name).filter((name) => name !== EXTRA_COLUMN && name !== WEEK_COLUMN.name))]),
) as unknown as Record<StreamName, ReadonlySet<string>>;

/**
 * On a row made by ledRow: the record's own fields that its lead took the name of. A symbol, so no
 * field the service sends can be it, and no loop over the row's fields meets it.
 */
const SHADOWED_FIELDS = Symbol('the record\'s fields its lead shadows');

type LedRow = Row & { [SHADOWED_FIELDS]?: Row };

/**
 * A row led by fields the lake fills from elsewhere (a country row's person, rank and weeks, from the
 * ranking and the request), the lead's values winning: a field the service adds to the record under
 * one of those names (a country's own `rank`) is a new field like any other, kept for EXTRA_COLUMN,
 * and never takes the column's place (it made the person's rank the country's).
 */
export function ledRow(lead: Row, record: Row): Row {
  const row: LedRow = { ...lead, ...record };
  let shadowed: Row | undefined;
  for (const name in lead) {
    if (!Object.hasOwn(record, name) || record[name] === undefined) continue;
    (shadowed ??= {})[name] = record[name];
    row[name] = lead[name];
  }
  if (shadowed !== undefined) row[SHADOWED_FIELDS] = shadowed;
  return row;
}

/** The row as the lake and the tap hold it: its `week`, and what no column names gathered in EXTRA_COLUMN. */
export function streamRow(stream: StreamName, row: Row, week: number): Row {
  const known = KNOWN_FIELDS[stream];
  let extra: Row | null = null;
  // for...in over the row's own keys (a key other code made enumerable on Object.prototype is none of
  // the row's): Object.entries made an array a field.
  for (const name in row) {
    const value = row[name];
    if (known.has(name) || value === undefined || !Object.hasOwn(row, name)) continue;
    (extra ??= {})[name] = value;
  }
  const shadowed = (row as LedRow)[SHADOWED_FIELDS];
  if (shadowed !== undefined) extra = { ...shadowed, ...extra };
  return { ...row, week, [EXTRA_COLUMN]: extra };
}

/**
 * The row as a partition's writer takes it, the week given apart (the partition's, the same in every
 * row: openParquetWriter's constants): the row itself when each of its fields has a column (an
 * EXTRA_COLUMN of null), else streamRow's copy. A copy of every row was a tenth of the Parquet writing.
 */
export function partitionRow(stream: StreamName, row: Row, week: number): Row {
  const known = KNOWN_FIELDS[stream];
  if ((row as LedRow)[SHADOWED_FIELDS] !== undefined) return streamRow(stream, row, week);
  for (const name in row) if (!known.has(name) && row[name] !== undefined && Object.hasOwn(row, name)) return streamRow(stream, row, week);
  return row;
}

export class StreamListError extends Error {
  override name = 'StreamListError';
}

/** A comma-separated list of stream names, in the canonical order, each once. */
export function parseStreamList(text: string | readonly string[]): StreamName[] {
  const names = (typeof text === 'string' ? text.split(',') : text).map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(STREAM_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new StreamListError(`unknown stream ${unknown.map((name) => `"${name}"`).join(', ')}; the streams are ${STREAM_NAMES.join(', ')}`);
  if (names.length === 0) throw new StreamListError(`no stream named; the streams are ${STREAM_NAMES.join(', ')}`);
  return STREAM_NAMES.filter((name) => names.includes(name));
}
