/**
 * The Singer front-end of the sync engine (https://github.com/singer-io/getting-started, SPEC.md):
 * the same streams (streams.ts), the same plan (plan.ts) and the same reader (read.ts) as `sync`, with
 * messages on stdout instead of Parquet files.
 *
 *   SCHEMA  once per selected stream, before its records: JSON Schema from the stream's columns,
 *           key_properties, bookmark_properties ["week"] for weekly streams
 *   RECORD  one per row, in the lake's columns (streams.ts): its `week` (a link's, its mentionDate's; a
 *           reference table's, the week taken), the contract's fields, `_extra` (fields the contract
 *           does not name, or null); numbers keep every digit (articleHash is a
 *           JSON integer); timestamps are RFC 3339 in UTC (the contract's text with a `Z`)
 *   STATE   after each week of a stream and each reference table:
 *           {"bookmarks": {"rankings": {"week": 202646}, ...}}, the last week complete in order
 *
 * A tap's state is a high-water mark per stream: weeks up to the bookmark are done, so a tap started
 * with its last STATE fetches only later weeks. Weekly streams are INCREMENTAL on `week`; reference
 * tables FULL_TABLE, emitted with each run that has weeks to fetch and on the first.
 */
import type { NewsStatsClient } from '../api/client.js';
import { ResponseShapeError } from '../api/errors.js';
import type { RequestEvent } from '../api/options.js';
import type { ParquetColumn } from '../output/parquet.js';
import { singerSchemaOfField } from '../schema/singer.js';
import type { Row } from '../output/view.js';
import { addWeeks, isValidWeek, isoWeekOfTime, listWeeks } from '../shared/weeks.js';
import { isPartitionFailure } from './failures.js';
import { planTasks, serviceWeekProblem, type Task } from './plan.js';
import { StreamReader, queryRecord, type StreamQuery } from './read.js';
import { emptyState, withSnapshotDone, withWeekDone, type SyncState } from './state.js';
import { EXTRA_COLUMN, STREAMS, STREAM_NAMES, rowWeek, streamRow, type StreamName } from './streams.js';

export type JsonSchema = Record<string, unknown>;

/**
 * A column's JSON Schema. Every field may be null (the contract's tolerant reader: "optional or
 * partial fields can be null"), array items included, except a key property: a row whose key is null
 * is never sent (runTap skips it with a warning), so a target may make its keys NOT NULL.
 */
export function columnJsonSchema(column: ParquetColumn, key = false): JsonSchema {
  if (column.name === EXTRA_COLUMN) {
    return { type: ['null', 'object'], description: 'Fields the service sent that the contract does not name, as sent (null when none).' };
  }
  // A field of the contract: its schema's (src/schema/singer.ts), described, a key never null.
  const fromSchema = singerSchemaOfField(column.name, { key });
  if (fromSchema !== undefined) return fromSchema;
  const type = (name: string): string | string[] => (key ? name : ['null', name]);
  switch (column.kind) {
    case 'INT32':
    case 'DECIMAL':
      return { type: type('integer') };
    case 'DOUBLE':
      return { type: type('number') };
    case 'TIMESTAMP':
      return { type: type('string'), format: 'date-time' };
    case 'BOOLEAN':
      return { type: type('boolean') };
    case 'UTF8':
      return { type: type('string') };
    case 'JSON':
      return { type: type('array') };
  }
}

/** The columns of a stream's records: the lake's (streams.ts), `week` first. */
function recordColumns(stream: StreamName): readonly ParquetColumn[] {
  return STREAMS[stream].columns;
}

/** Fields every record carries whatever a catalog says (inclusion automatic): the key, and the week. */
function automaticFields(stream: StreamName): readonly string[] {
  return recordColumns(stream).filter((column) => column.required === true).map((column) => column.name);
}

/** The stream's JSON Schema, of the fields given (default: all). */
export function streamJsonSchema(stream: StreamName, fields?: ReadonlySet<string>): JsonSchema {
  const columns = recordColumns(stream).filter((column) => fields === undefined || fields.has(column.name));
  return {
    type: 'object',
    properties: Object.fromEntries(columns.map((column) => [column.name, columnJsonSchema(column, column.required === true)])),
    required: [...automaticFields(stream)],
  };
}

/** How each stream replicates: weekly streams by week, reference tables whole. */
function replicationMethod(stream: StreamName): 'INCREMENTAL' | 'FULL_TABLE' {
  return STREAMS[stream].weekly ? 'INCREMENTAL' : 'FULL_TABLE';
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
        replication_method: replicationMethod(stream),
        schema: streamJsonSchema(stream),
        metadata: [
          {
            breadcrumb: [],
            metadata: {
              selected: true,
              inclusion: 'available',
              'table-key-properties': spec.keyProperties,
              'forced-replication-method': replicationMethod(stream),
              ...(spec.weekly && { 'valid-replication-keys': ['week'], 'replication-key': 'week' }),
            },
          },
          ...recordColumns(stream).map((column) => ({
            breadcrumb: ['properties', column.name],
            metadata: column.required === true ? { inclusion: 'automatic' } : { inclusion: 'available', 'selected-by-default': true },
          })),
        ],
      };
    }),
  };
}

export class SingerInputError extends Error {
  override name = 'SingerInputError';
}

/** What a catalog selects: the streams, and per stream the fields sent (keys always among them). */
export interface CatalogSelection {
  streams: StreamName[];
  fields: Partial<Record<StreamName, ReadonlySet<string>>>;
  /** Things the catalog asked that the tap does otherwise, each a line for stderr. */
  notes: string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value === 'string' ? 'a string' : `a ${typeof value}`} (${JSON.stringify(value)})`;
}

function expectBoolean(value: unknown, where: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new SingerInputError(`catalog ${where} must be true or false, not ${describe(value)}`);
  return value;
}

/**
 * Reads a Singer catalog as the spec and Meltano's select rules write it: a stream is fetched when its
 * top-level metadata (breadcrumb []) says `selected: true` (or the legacy `selected` on the entry); a
 * field is sent unless its breadcrumb ["properties", NAME] says `selected: false`, and a key
 * (inclusion automatic) is sent whatever it says. A replication method or key other than the stream's
 * own is refused: weekly streams replicate INCREMENTAL on `week`, reference tables FULL_TABLE.
 * Anything of the wrong type is a SingerInputError naming where it is (the CLI's exit 2).
 */
export function parseCatalog(catalog: unknown): CatalogSelection {
  if (!isObject(catalog)) throw new SingerInputError(`the catalog must be a JSON object, not ${describe(catalog)}`);
  const entries = catalog.streams;
  if (!Array.isArray(entries)) throw new SingerInputError(`the catalog has no "streams" array (it is ${describe(entries)})`);
  const selection: CatalogSelection = { streams: [], fields: {}, notes: [] };
  const selected = new Set<StreamName>();
  entries.forEach((entry: unknown, index) => {
    const at = `streams[${index}]`;
    if (!isObject(entry)) throw new SingerInputError(`catalog ${at} must be an object, not ${describe(entry)}`);
    const id = entry.tap_stream_id ?? entry.stream;
    if (typeof id !== 'string') throw new SingerInputError(`catalog ${at}.tap_stream_id must be a stream name, not ${describe(id)}`);
    const metadata = entry.metadata ?? [];
    if (!Array.isArray(metadata)) throw new SingerInputError(`catalog ${at}.metadata must be an array, not ${describe(metadata)}`);
    let top: Record<string, unknown> = {};
    const fieldMetadata = new Map<string, Record<string, unknown>>();
    metadata.forEach((item: unknown, position) => {
      const where = `${at}.metadata[${position}]`;
      if (!isObject(item)) throw new SingerInputError(`catalog ${where} must be an object, not ${describe(item)}`);
      const { breadcrumb, metadata: values = {} } = item;
      if (!Array.isArray(breadcrumb) || !breadcrumb.every((part) => typeof part === 'string')) throw new SingerInputError(`catalog ${where}.breadcrumb must be an array of strings, not ${describe(breadcrumb)}`);
      if (!isObject(values)) throw new SingerInputError(`catalog ${where}.metadata must be an object, not ${describe(values)}`);
      expectBoolean(values.selected, `${where}.metadata.selected`);
      if (breadcrumb.length === 0) top = values;
      else if (breadcrumb.length === 2 && breadcrumb[0] === 'properties') fieldMetadata.set(breadcrumb[1]!, values);
      // Deeper breadcrumbs (nested properties) select within a field the tap sends whole: nothing to do.
    });
    const isSelected = expectBoolean(top.selected, `${at} (breadcrumb []) metadata.selected`) ?? expectBoolean(entry.selected, `${at}.selected`) ?? false;
    if (!isSelected) return;
    if (!(STREAM_NAMES as readonly string[]).includes(id)) throw new SingerInputError(`the catalog selects an unknown stream "${id}"; the streams are ${STREAM_NAMES.join(', ')}`);
    const stream = id as StreamName;
    const method = top['replication-method'] ?? entry.replication_method;
    if (method !== undefined && method !== replicationMethod(stream)) {
      throw new SingerInputError(`catalog ${at}: ${stream} replicates ${replicationMethod(stream)} only, not ${describe(method)}${STREAMS[stream].weekly ? ' (INCREMENTAL on week; to read every week again, run without its state bookmark)' : ' (a reference table is sent whole, with ACTIVATE_VERSION)'}`);
    }
    const key = top['replication-key'] ?? entry.replication_key;
    if (key !== undefined && (!STREAMS[stream].weekly || key !== 'week')) {
      throw new SingerInputError(`catalog ${at}: ${stream} ${STREAMS[stream].weekly ? 'has the replication key "week" only' : 'has no replication key (FULL_TABLE)'}, not ${describe(key)}`);
    }
    const columns = recordColumns(stream).map((column) => column.name);
    const unknown = [...fieldMetadata.keys()].filter((name) => !columns.includes(name));
    if (unknown.length > 0) throw new SingerInputError(`catalog ${at}: ${stream} has no field ${unknown.map((name) => `"${name}"`).join(', ')}`);
    const keys = automaticFields(stream);
    const fields = new Set<string>();
    for (const name of columns) {
      const values = fieldMetadata.get(name) ?? {};
      const wanted = (values.selected as boolean | undefined) ?? (values['selected-by-default'] as boolean | undefined) ?? true;
      if (keys.includes(name)) {
        if (!wanted) selection.notes.push(`tap: ${stream}.${name} is a key (inclusion automatic): sent although the catalog deselects it`);
        fields.add(name);
      } else if (wanted) fields.add(name);
    }
    selected.add(stream);
    if (fields.size < columns.length) selection.fields[stream] = fields;
  });
  selection.streams = STREAM_NAMES.filter((name) => selected.has(name));
  return selection;
}

/** A stream's bookmark in the tap's state: the last week done (reference tables: taken) and its table version. */
export interface Bookmark {
  week?: number;
  /** A reference table's version (ACTIVATE_VERSION): the one its last complete copy carried. */
  version?: number;
}

export interface Bookmarks {
  bookmarks?: Partial<Record<string, Bookmark>>;
}

/**
 * Checks a Singer state's shape: `{"bookmarks": {STREAM: {"week": YYYYWW, "version": N}}}`, each week a
 * real ISO week. Anything else is a SingerInputError naming the field (exit 2), never a TypeError.
 * Streams it does not know are left alone (a state may hold other things).
 */
export function checkState(value: unknown): Bookmarks {
  if (value === undefined) return {};
  if (!isObject(value)) throw new SingerInputError(`the state must be a JSON object ({"bookmarks": {...}}), not ${describe(value)}`);
  const bookmarks = value.bookmarks;
  if (bookmarks === undefined || bookmarks === null) return {};
  if (!isObject(bookmarks)) throw new SingerInputError(`the state's "bookmarks" must be an object, not ${describe(bookmarks)}`);
  for (const stream of STREAM_NAMES) {
    const bookmark = bookmarks[stream];
    if (bookmark === undefined) continue;
    if (!isObject(bookmark)) throw new SingerInputError(`the state's bookmarks.${stream} must be an object ({"week": YYYYWW}), not ${describe(bookmark)}`);
    if (bookmark.week !== undefined && (typeof bookmark.week !== 'number' || !isValidWeek(bookmark.week))) {
      throw new SingerInputError(`the state's bookmarks.${stream}.week is not a week: ${describe(bookmark.week)}; write YYYYWW, an ISO week such as 202647`);
    }
    if (bookmark.version !== undefined && (typeof bookmark.version !== 'number' || !Number.isSafeInteger(bookmark.version) || bookmark.version < 0)) {
      throw new SingerInputError(`the state's bookmarks.${stream}.version must be a whole number, not ${describe(bookmark.version)}`);
    }
  }
  return value;
}

/**
 * A Singer state as the engine's: every week from the start to a stream's bookmark is done. Linear in
 * the weeks between start and the last completed week, whatever the bookmark says: a bookmark in the
 * far future marks the weeks up to the last completed one, never the weeks beyond.
 */
export function stateFromBookmarks(value: Bookmarks, startWeek: number, lastCompleted: number, query: SyncState['query']): SyncState {
  const bookmarks = value.bookmarks ?? {};
  const state = emptyState(query);
  for (const stream of STREAM_NAMES) {
    const week = bookmarks[stream]?.week;
    if (week === undefined) continue;
    if (!STREAMS[stream].weekly) state.streams[stream] = { snapshot: true };
    else if (week >= startWeek && startWeek <= lastCompleted) state.streams[stream] = { weeks: listWeeks(startWeek, Math.min(week, lastCompleted)) };
  }
  return state;
}

/**
 * The state message's value: per weekly stream, the last week done with every week before it; per
 * reference table, the last completed week when its snapshot was last taken and its table version.
 */
export function bookmarksOf(state: SyncState, startWeek: number, snapshots: Readonly<Record<string, Bookmark>>, previous: Bookmarks['bookmarks'] = {}): Required<Bookmarks> {
  const bookmarks: Record<string, Bookmark> = {};
  for (const stream of STREAM_NAMES) {
    if (!STREAMS[stream].weekly) {
      if (snapshots[stream] !== undefined) bookmarks[stream] = snapshots[stream];
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

/** A row as its RECORD carries it: the lake's columns (streams.ts), of the fields selected. */
function record(stream: StreamName, row: Row, week: number, fields: ReadonlySet<string> | undefined): Row {
  const full = streamRow(stream, row, week);
  const out: Row = {};
  for (const column of recordColumns(stream)) {
    if (fields !== undefined && !fields.has(column.name)) continue;
    const value = full[column.name];
    out[column.name] = column.kind === 'TIMESTAMP' ? rfc3339(value ?? null) : (value ?? null);
  }
  return out;
}

/** A Singer METRIC's value (singer-python's metrics module: counters and timers, a `tags` object). */
export interface Metric {
  type: 'counter' | 'timer';
  metric: string;
  value: number;
  tags: Record<string, string | number>;
}

export interface TapOptions extends StreamQuery {
  client: NewsStatsClient<'lossless'>;
  streams: readonly StreamName[];
  /** Per stream, the fields to send (a catalog's field selection); absent: all. */
  fields?: CatalogSelection['fields'];
  startWeek?: number;
  /** The state the tap was given (its last STATE message's value), checked by checkState. */
  state?: Bookmarks;
  /** Writes one message; resolves when the output can take more. */
  write: (message: Row) => Promise<void>;
  /** A line for the orchestrator's log (stderr): rows skipped, and why. */
  log?: (line: string) => void;
  /** A Singer METRIC (the CLI writes it on stderr as `INFO METRIC: {...}`). */
  metric?: (metric: Metric) => void;
  /** Told of each STATE sent, with the partitions sent so far: what a stopped run has kept. */
  onState?: (value: Required<Bookmarks>, partitions: number) => void;
  /**
   * The local clock (milliseconds): a reference table's version is read from it, as singer-python's
   * taps do, and the service's current week is believed only near its week.
   */
  now?: () => number;
}

export interface TapSummary {
  written: Task[];
  failed: Array<{ task: Task; error: unknown }>;
  requests: number;
  records: number;
  /** Rows not sent: a key property null (a row no target can key), or a key already sent that week. */
  skipped: { nullKey: number; duplicate: number };
}

/** Why a row can't be sent: a key property that is null, named; undefined when it can. */
function nullKeyOf(stream: StreamName, out: Row): string | undefined {
  return STREAMS[stream].keyProperties.find((key) => out[key] === null || out[key] === undefined);
}

/**
 * Runs the tap: SCHEMA for every selected stream, then RECORDs and STATEs task by task.
 *
 * Weekly streams are INCREMENTAL on `week`. Reference tables are FULL_TABLE with table versions
 * (https://github.com/singer-io/getting-started/blob/master/docs/CONFIG_AND_STATE.md and the
 * ACTIVATE_VERSION message of singer-python): each copy's RECORDs carry `version`, and an
 * ACTIVATE_VERSION after the last one tells the target to drop rows of older versions, so a row the
 * service no longer lists disappears. The first copy is also activated before its records (as
 * tap-postgres does), so the table exists from the start. A reference table is taken once per
 * completed week: a run resumed in the same week does not send it again.
 */
export async function runTap(options: TapOptions): Promise<TapSummary> {
  const { client, write } = options;
  const log = options.log ?? (() => {});
  const metric = options.metric ?? (() => {});
  const now = options.now ?? Date.now;
  const summary: TapSummary = { written: [], failed: [], requests: 0, records: 0, skipped: { nullKey: 0, duplicate: 0 } };
  const reader = new StreamReader(client, options, options.streams, summary);
  summary.requests += 1;
  const currentWeek = Number(String((await client.weeks.current()).currentWeek));
  if (!isValidWeek(currentWeek)) throw new SingerInputError(`the service's current week ${currentWeek} is not a week`);
  // The sync's rule: a week far from the local clock is not believed. Believed, it would send empty
  // weeks that have not happened and a STATE past them, and a run from that state skips them for good.
  const unbelievable = serviceWeekProblem(currentWeek, isoWeekOfTime(now()), undefined);
  if (unbelievable !== undefined) {
    throw new ResponseShapeError({ status: 200, method: 'GET', url: '/api/data/weeks/current' }, `${unbelievable}: not trusted, so nothing was sent (check the local clock, or run again later)`);
  }
  const lastCompleted = addWeeks(currentWeek, -1);
  const startWeek = options.startWeek ?? addWeeks(lastCompleted, -11);
  const given = options.state ?? {};
  const previous = given.bookmarks ?? {};
  let state = stateFromBookmarks(given, startWeek, lastCompleted, queryRecord(options));
  const snapshots: Record<string, Bookmark> = {};
  for (const stream of STREAM_NAMES) {
    const bookmark = previous[stream];
    if (!STREAMS[stream].weekly && bookmark?.week !== undefined) snapshots[stream] = { ...bookmark };
  }
  // A reference table already taken since the last week completed is not sent again.
  const tasks = planTasks(state, currentWeek, { streams: options.streams, since: startWeek })
    .filter((task) => task.week !== undefined || (snapshots[task.stream]?.week ?? 0) < lastCompleted);

  for (const stream of options.streams) {
    await write({ type: 'SCHEMA', stream, schema: streamJsonSchema(stream, options.fields?.[stream]), key_properties: STREAMS[stream].keyProperties, ...(STREAMS[stream].weekly && { bookmark_properties: ['week'] }) });
  }
  const sendState = async () => {
    const value = bookmarksOf(state, startWeek, snapshots, previous);
    await write({ type: 'STATE', value });
    options.onState?.(value, summary.written.length);
  };
  // A stream whose week failed stops there: its bookmark must not pass a week it does not hold.
  const stopped = new Set<StreamName>();
  // The keys of a stream whose key has no week (links), sent this run: a person's links are listed
  // again for every week that ranks them, and each link is sent once, in its own week.
  const sentThisRun = new Map<StreamName, Set<string>>();
  for (const task of tasks) {
    if (stopped.has(task.stream)) continue;
    const { stream, week } = task;
    const fields = options.fields?.[stream];
    const where = week === undefined ? stream : `${stream} week ${week}`;
    const version = week === undefined ? now() : undefined;
    const keyed = !STREAMS[stream].keyProperties.includes('week') && week !== undefined;
    const sentBefore = keyed ? (sentThisRun.get(stream) ?? new Set<string>()) : new Set<string>();
    if (keyed) sentThisRun.set(stream, sentBefore);
    const keys = new Set<string>();
    const nullKeys = new Map<string, number>();
    let records = 0;
    let duplicates = 0;
    const started = performance.now();
    // As singer-python's job timer: one per partition, whether it succeeded or failed.
    const jobDuration = (status: 'succeeded' | 'failed'): Metric => ({ type: 'timer', metric: 'job_duration', value: Math.round(performance.now() - started) / 1000, tags: { job_type: 'partition', endpoint: stream, ...(week !== undefined && { week }), status } });
    try {
      if (version !== undefined && snapshots[stream]?.version === undefined) await write({ type: 'ACTIVATE_VERSION', stream, version });
      const emit = async (row: Row) => {
        const rowsWeek = week === undefined ? currentWeek : rowWeek(stream, row, week);
        const out = record(stream, row, rowsWeek, fields);
        const nullKey = nullKeyOf(stream, { ...row, week: rowsWeek });
        if (nullKey !== undefined) {
          nullKeys.set(nullKey, (nullKeys.get(nullKey) ?? 0) + 1);
          return;
        }
        const key = STREAMS[stream].keyProperties.map((name) => String(name === 'week' ? rowsWeek : row[name])).join('\u0000');
        if (keys.has(key)) {
          duplicates += 1;
          return;
        }
        keys.add(key);
        if (sentBefore.has(key)) return;
        if (keyed) sentBefore.add(key);
        records += 1;
        await write({ type: 'RECORD', stream, record: out, ...(version !== undefined && { version }) });
      };
      if (week === undefined) await reader.reference(stream, emit);
      else await reader.weekly(stream, week, emit);
      if (version !== undefined) await write({ type: 'ACTIVATE_VERSION', stream, version });
    } catch (error) {
      if (!isPartitionFailure(error)) throw error;
      metric(jobDuration('failed'));
      summary.failed.push({ task, error });
      stopped.add(stream);
      log(`tap: ${where} failed after retries (${error instanceof Error ? error.message : String(error)}); ${stream} stops before it`);
      continue;
    }
    for (const [key, count] of nullKeys) log(`tap: ${where}: ${count} row${count === 1 ? '' : 's'} skipped: their ${key}, a key property, is null`);
    if (duplicates > 0) log(`tap: ${where}: ${duplicates} row${duplicates === 1 ? '' : 's'} skipped, a key already sent for it (the first row of each key is kept)`);
    summary.records += records;
    summary.skipped.nullKey += [...nullKeys.values()].reduce((sum, count) => sum + count, 0);
    summary.skipped.duplicate += duplicates;
    metric({ type: 'counter', metric: 'record_count', value: records, tags: { endpoint: stream, ...(week !== undefined && { week }) } });
    metric(jobDuration('succeeded'));
    if (week === undefined) {
      state = withSnapshotDone(state, stream);
      snapshots[stream] = { week: lastCompleted, version: version! };
    } else state = withWeekDone(state, stream, week);
    summary.written.push(task);
    await sendState();
  }
  if (summary.written.length === 0) await sendState();
  return summary;
}

/**
 * Writes Singer METRIC messages as singer-python's taps do, one line each on stderr:
 * `INFO METRIC: {"type": "timer", "metric": "http_request_duration", "value": 0.012, "tags": {...}}`.
 * Meltano and other orchestrators read these lines from a tap's log.
 */
export class MetricWriter {
  #stopped = false;

  constructor(private readonly stderr: NodeJS.WritableStream) {}

  /**
   * No more metrics: the run is stopping, and its line saying what was kept is the last on stderr (a
   * request the stop cut off would otherwise report itself failed after it).
   */
  stop(): void {
    this.#stopped = true;
  }

  write(metric: Metric): void {
    if (this.#stopped) return;
    this.stderr.write(`INFO METRIC: ${JSON.stringify(metric)}\n`);
  }

  /** One attempt of the client: its duration, endpoint (identifiers in the path as their names) and status. */
  request(event: RequestEvent): void {
    this.write({
      type: 'timer',
      metric: 'http_request_duration',
      value: Math.round(event.ms) / 1000,
      tags: {
        endpoint: endpointOf(event.url),
        ...(event.status !== undefined && { http_status_code: event.status }),
        status: event.error === undefined && event.status !== undefined && event.status < 400 ? 'succeeded' : 'failed',
      },
    });
  }
}

/** A request's path as its endpoint: `/api/data/people/{personHash}/links`, no query. */
export function endpointOf(url: string): string {
  const path = url.split('?')[0]!;
  return path.replace(/^(\/api\/data\/(?:people|countries|sources))\/(?!top$|search$|slug$)([^/]+)/, (_, head: string) => `${head}/{${head.endsWith('people') ? 'personHash' : head.endsWith('countries') ? 'countryId' : 'sourceId'}}`);
}
