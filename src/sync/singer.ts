/**
 * The Singer front-end of the sync engine (https://github.com/singer-io/getting-started, SPEC.md):
 * the same streams (streams.ts), the same plan (plan.ts) and the same reader (read.ts) as `sync`, with
 * messages on stdout instead of Parquet files.
 *
 *   SCHEMA  once per selected stream, before its records: JSON Schema from the stream's columns,
 *           key_properties, bookmark_properties ["week"] for weekly streams
 *   RECORD  one per row; weekly rows carry their `week`; numbers keep every digit (articleHash is a
 *           JSON integer); timestamps are RFC 3339 in UTC (the contract's text with a `Z`)
 *   STATE   after each week of a stream and each reference table:
 *           {"bookmarks": {"rankings": {"week": 202646}, ...}}, the last week complete in order
 *
 * A tap's state is a high-water mark per stream: weeks up to the bookmark are done, so a tap started
 * with its last STATE fetches only later weeks. Weekly streams are INCREMENTAL on `week`; reference
 * tables FULL_TABLE, emitted with each run that has weeks to fetch and on the first.
 */
import type { NewsStatsClient } from '../api/client.js';
import type { ParquetColumn } from '../output/parquet.js';
import { singerSchemaOfField } from '../schema/singer.js';
import type { Row } from '../output/view.js';
import { addWeeks, listWeeks } from '../weeks.js';
import { isPartitionFailure } from './failures.js';
import { planTasks, type Task } from './plan.js';
import { StreamReader, queryRecord, type StreamQuery } from './read.js';
import { emptyState, withSnapshotDone, withWeekDone, type SyncState } from './state.js';
import { STREAMS, STREAM_NAMES, type StreamName } from './streams.js';

export type JsonSchema = Record<string, unknown>;

/** A column's JSON Schema: every field may be null (the contract's tolerant reader). */
export function columnJsonSchema(column: ParquetColumn): JsonSchema {
  const fromSchema = singerSchemaOfField(column.name, { key: column.required === true });
  if (fromSchema !== undefined) return fromSchema;
  switch (column.kind) {
    case 'INT32':
    case 'DECIMAL':
      return { type: ['null', 'integer'] };
    case 'DOUBLE':
      return { type: ['null', 'number'] };
    case 'TIMESTAMP':
      return { type: ['null', 'string'], format: 'date-time' };
    case 'BOOLEAN':
      return { type: ['null', 'boolean'] };
    case 'UTF8':
      return { type: ['null', 'string'] };
    case 'JSON':
      return {};
  }
}

const WEEK_COLUMN: ParquetColumn = { name: 'week', kind: 'INT32' };

/** The columns of a stream's records: `week` first for weekly streams. */
function recordColumns(stream: StreamName): readonly ParquetColumn[] {
  const spec = STREAMS[stream];
  return spec.weekly ? [WEEK_COLUMN, ...spec.columns] : spec.columns;
}

export function streamJsonSchema(stream: StreamName): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(recordColumns(stream).map((column) => [column.name, columnJsonSchema(column)])),
  };
}

/** The catalog `tap --discover` prints: every stream, selected, with Singer's metadata. */
export function discoverCatalog(): { streams: JsonSchema[] } {
  return {
    streams: STREAM_NAMES.map((stream) => {
      const spec = STREAMS[stream];
      return {
        tap_stream_id: stream,
        stream,
        key_properties: spec.keyProperties,
        ...(spec.weekly && { replication_key: 'week' }),
        replication_method: spec.weekly ? 'INCREMENTAL' : 'FULL_TABLE',
        schema: streamJsonSchema(stream),
        metadata: [
          {
            breadcrumb: [],
            metadata: {
              selected: true,
              inclusion: 'available',
              'table-key-properties': spec.keyProperties,
              'forced-replication-method': spec.weekly ? 'INCREMENTAL' : 'FULL_TABLE',
              ...(spec.weekly && { 'valid-replication-keys': ['week'], 'replication-key': 'week' }),
            },
          },
          ...recordColumns(stream).map((column) => ({
            breadcrumb: ['properties', column.name],
            metadata: { inclusion: spec.keyProperties.includes(column.name) ? 'automatic' : 'available' },
          })),
        ],
      };
    }),
  };
}

/** The streams a catalog selects (stream-level metadata `selected: true`, or the legacy `selected`). */
export function selectedStreams(catalog: unknown): StreamName[] {
  const entries = (catalog as { streams?: unknown } | null)?.streams;
  if (!Array.isArray(entries)) throw new SingerInputError('the catalog has no "streams" array');
  const selected = new Set<string>();
  for (const entry of entries as Array<Record<string, unknown>>) {
    const name = String(entry.tap_stream_id ?? entry.stream ?? '');
    const top = (entry.metadata as Array<{ breadcrumb?: unknown[]; metadata?: Record<string, unknown> }> | undefined)?.find((item) => Array.isArray(item.breadcrumb) && item.breadcrumb.length === 0);
    if (top?.metadata?.selected === true || entry.selected === true) selected.add(name);
  }
  const unknown = [...selected].filter((name) => !(STREAM_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new SingerInputError(`the catalog selects unknown streams: ${unknown.join(', ')}`);
  return STREAM_NAMES.filter((name) => selected.has(name));
}

export class SingerInputError extends Error {
  override name = 'SingerInputError';
}

export interface Bookmarks {
  bookmarks?: Partial<Record<string, { week?: number }>>;
}

/** A Singer state as the engine's: every week from the start to a stream's bookmark is done. */
export function stateFromBookmarks(value: unknown, startWeek: number, query: SyncState['query']): SyncState {
  if (value !== undefined && (typeof value !== 'object' || value === null)) throw new SingerInputError('the state is not a JSON object');
  const bookmarks = (value as Bookmarks | undefined)?.bookmarks ?? {};
  let state = emptyState(query);
  for (const stream of STREAM_NAMES) {
    const week = bookmarks[stream]?.week;
    if (week === undefined) continue;
    if (!Number.isInteger(week)) throw new SingerInputError(`the state's bookmark of ${stream} is not a week: ${JSON.stringify(week)}`);
    if (!STREAMS[stream].weekly) state = withSnapshotDone(state, stream);
    else if (week >= startWeek) for (const done of listWeeks(startWeek, week)) state = withWeekDone(state, stream, done);
  }
  return state;
}

/**
 * The state message's value: per weekly stream, the last week done with every week before it; per
 * reference table, the last completed week when its snapshot was last taken (`snapshots`; as `sync`,
 * a tap takes a new one with each run that has weeks to fetch, and on the first).
 */
export function bookmarksOf(state: SyncState, startWeek: number, snapshots: Readonly<Record<string, number>>, previous: Bookmarks['bookmarks'] = {}): Required<Bookmarks> {
  const bookmarks: Record<string, { week: number }> = {};
  for (const stream of STREAM_NAMES) {
    if (!STREAMS[stream].weekly) {
      if (snapshots[stream] !== undefined) bookmarks[stream] = { week: snapshots[stream] };
      continue;
    }
    const done = new Set(state.streams[stream]?.weeks ?? []);
    let week = addWeeks(startWeek, -1);
    while (done.has(addWeeks(week, 1))) week = addWeeks(week, 1);
    const before = previous[stream]?.week;
    if (done.size > 0 || before !== undefined) bookmarks[stream] = { week: Math.max(week, before ?? week) };
  }
  return { bookmarks };
}

/** Appends `Z` to the contract's offset-less UTC timestamps: RFC 3339, as Singer's date-time asks. */
function rfc3339(value: unknown): unknown {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(value) ? `${value}Z` : value;
}

function record(stream: StreamName, row: Row, week: number | undefined): Row {
  const out: Row = {};
  for (const column of recordColumns(stream)) {
    const value = column.name === 'week' && week !== undefined ? week : row[column.name];
    out[column.name] = column.kind === 'TIMESTAMP' ? rfc3339(value ?? null) : (value ?? null);
  }
  return out;
}

export interface TapOptions extends StreamQuery {
  client: NewsStatsClient<'lossless'>;
  streams: readonly StreamName[];
  startWeek?: number;
  /** The state the tap was given (its last STATE message's value). */
  state?: unknown;
  /** Writes one message; resolves when the output can take more. */
  write: (message: Row) => Promise<void>;
}

export interface TapSummary {
  written: Task[];
  failed: Array<{ task: Task; error: unknown }>;
  requests: number;
}

/** Runs the tap: SCHEMA for every selected stream, then RECORDs and STATEs task by task. */
export async function runTap(options: TapOptions): Promise<TapSummary> {
  const { client, write } = options;
  const reader = new StreamReader(client, options, options.streams);
  reader.requests += 1;
  const currentWeek = Number(String((await client.weeks.current()).currentWeek));
  const lastCompleted = addWeeks(currentWeek, -1);
  const startWeek = options.startWeek ?? addWeeks(lastCompleted, -11);
  const previous = (options.state as Bookmarks | undefined)?.bookmarks;
  let state = stateFromBookmarks(options.state, startWeek, queryRecord(options));
  const snapshots: Record<string, number> = {};
  for (const stream of STREAM_NAMES) {
    const week = previous?.[stream]?.week;
    if (!STREAMS[stream].weekly && week !== undefined) snapshots[stream] = week;
  }
  const tasks = planTasks(state, currentWeek, { streams: options.streams, since: startWeek });

  for (const stream of options.streams) {
    await write({ type: 'SCHEMA', stream, schema: streamJsonSchema(stream), key_properties: STREAMS[stream].keyProperties, ...(STREAMS[stream].weekly && { bookmark_properties: ['week'] }) });
  }
  const summary: TapSummary = { written: [], failed: [], requests: 0 };
  // A stream whose week failed stops there: its bookmark must not pass a week it does not hold.
  const stopped = new Set<StreamName>();
  for (const task of tasks) {
    if (stopped.has(task.stream)) continue;
    try {
      const emit = (row: Row) => write({ type: 'RECORD', stream: task.stream, record: record(task.stream, row, task.week) });
      if (task.week === undefined) await reader.reference(task.stream, emit);
      else await reader.weekly(task.stream, task.week, emit);
    } catch (error) {
      if (!isPartitionFailure(error)) throw error;
      summary.failed.push({ task, error });
      stopped.add(task.stream);
      continue;
    }
    if (task.week === undefined) {
      state = withSnapshotDone(state, task.stream);
      snapshots[task.stream] = lastCompleted;
    } else state = withWeekDone(state, task.stream, task.week);
    summary.written.push(task);
    await write({ type: 'STATE', value: bookmarksOf(state, startWeek, snapshots, previous) });
  }
  if (tasks.length === 0) await write({ type: 'STATE', value: bookmarksOf(state, startWeek, snapshots, previous) });
  summary.requests = reader.requests;
  return summary;
}
