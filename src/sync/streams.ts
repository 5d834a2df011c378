/**
 * The streams `sync` and `tap` share: what each holds, its columns and types, its key. One table, read
 * by both front-ends: the Parquet schema of a partition, the JSON Schema of a Singer catalog entry and
 * the fields of a record all come from here, and the column types from the contract's field kinds.
 */
import { countrySchema, fieldsOf, personCountryRowSchema, personLinkSchema, personSchema, personStatsSchema, sourceSchema } from '../api/types.js';
import { parquetColumns, type ParquetColumn } from '../output/parquet.js';

export const STREAM_NAMES = ['rankings', 'country_stats', 'links', 'people', 'countries', 'sources'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

export interface StreamSpec {
  name: StreamName;
  /** Weekly streams are partitioned by ISO week; reference tables are one snapshot. */
  weekly: boolean;
  /** Columns of a partition, in order; weekly streams' `week` lives in the partition path, not here. */
  columns: readonly ParquetColumn[];
  /** What identifies a row (Singer's key_properties; `week` first for weekly streams). */
  keyProperties: readonly string[];
}

function spec(name: StreamName, weekly: boolean, fields: readonly string[], keyProperties: readonly string[]): StreamSpec {
  return { name, weekly, columns: parquetColumns(fields, []), keyProperties };
}

/** The people of a ranking that per-person streams start from: the columns they lead with. */
const PERSON_LEAD = ['rank', 'fullName'];

export const STREAMS: Readonly<Record<StreamName, StreamSpec>> = {
  rankings: spec('rankings', true, fieldsOf(personStatsSchema), ['week', 'personHash']),
  country_stats: spec('country_stats', true, [...PERSON_LEAD, 'personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)], ['week', 'personHash', 'countryId']),
  links: spec('links', true, [...PERSON_LEAD, ...fieldsOf(personLinkSchema)], ['week', 'personHash', 'articleHash']),
  people: spec('people', false, fieldsOf(personSchema), ['personHash']),
  countries: spec('countries', false, fieldsOf(countrySchema), ['countryId']),
  sources: spec('sources', false, fieldsOf(sourceSchema), ['sourceId']),
};

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
