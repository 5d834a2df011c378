/**
 * What a lake (or a tap's state) records as complete: per stream, the query that decides its contents,
 * the weeks whose partitions have landed and when each partition was taken; and the service's current
 * week as last asked. Written atomically after each partition lands, never before, so what it lists is
 * always in the lake.
 *
 * The file is an input like any other (docs/design.md, threat model): read with a size bound, a BOM
 * skipped, and every field checked for its type, so a wrong one is one line naming it (exit 2), never
 * a TypeError, and never saved back in another shape.
 */
import { isValidWeek } from '../shared/weeks.js';
import { STREAMS, STREAM_NAMES, UNDATED_WEEK, type StreamName } from './streams.js';

export const STATE_VERSION = 2;

/** The file `sync` keeps in its folder. A leading `_`: Spark, Hive and DuckDB's globs pass it over. */
export const STATE_FILE = '_newsstats_sync.json';

/** No real state comes near this (520 weeks of six streams with their times is about 200 KB). */
export const MAX_STATE_BYTES = 4 * 1024 * 1024;

export type QueryRecord = Readonly<Record<string, string | number | boolean>>;

export interface StreamState {
  /** What decides this stream's contents (depth, top, links limit, ranking filters). */
  query?: QueryRecord;
  /** Completed weeks whose partition has landed (for links: whose people's links were merged), ascending. */
  weeks?: number[];
  /** A reference table's snapshot has landed. */
  snapshot?: boolean;
  /** Each partition in the lake, by week, and when it was taken (UTC, to the second); links' undated rows under "0". */
  taken?: Record<string, string>;
  /** Partitions written from a week that was not complete then (--include-current): replaced once it is. */
  partial?: number[];
}

export interface SyncState {
  version: typeof STATE_VERSION;
  /** The run's whole query; each stream records its own part of it (streamQuery) when it lands. */
  query: QueryRecord;
  /** The service's current week when last asked. */
  currentWeek?: number;
  streams: Partial<Record<StreamName, StreamState>>;
}

export class StateError extends Error {
  override name = 'StateError';
}

export function emptyState(query: QueryRecord): SyncState {
  return { version: STATE_VERSION, query, streams: {} };
}

/** The sizes that decide each weekly stream's rows; every weekly stream shares the ranking filters. */
const OWN_KEYS: Readonly<Partial<Record<StreamName, readonly string[]>>> = {
  rankings: ['depth'],
  country_stats: ['top'],
  links: ['top', 'linksLimit'],
};
const SIZE_KEYS = new Set(['depth', 'top', 'linksLimit']);

/** The part of a run's query that decides one stream's contents: a reference table's is empty. */
export function streamQuery(stream: StreamName, query: QueryRecord): QueryRecord {
  if (!STREAMS[stream].weekly) return {};
  const own = new Set(OWN_KEYS[stream] ?? []);
  return Object.fromEntries(Object.keys(query).sort().filter((key) => own.has(key) || !SIZE_KEYS.has(key)).map((key) => [key, query[key]!]));
}

function sortedObject<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]!]));
}

/** The state as text: keys in a fixed order, so equal states are equal bytes. */
export function stateText(state: SyncState): string {
  const streams = Object.fromEntries(Object.keys(state.streams).sort().map((name) => {
    const stream = state.streams[name as StreamName]!;
    const entry: StreamState = {};
    if (stream.query) entry.query = sortedObject(stream.query);
    if (stream.weeks) entry.weeks = stream.weeks;
    if (stream.partial && stream.partial.length > 0) entry.partial = stream.partial;
    if (stream.snapshot) entry.snapshot = true;
    if (stream.taken) entry.taken = sortedObject(stream.taken);
    return [name, entry];
  }));
  return JSON.stringify({ version: state.version, ...(state.currentWeek !== undefined && { currentWeek: state.currentWeek }), streams }, null, 2) + '\n';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TAKEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Reads a state's text; a file of another shape is an error naming it and the field, never started over. */
export function parseState(text: string, where: string): SyncState {
  // No run writes an empty state: a write to it was cut short, by a store that writes an object in
  // place as its PUT arrives (s3rver does; S3 keeps the object before).
  if (text.trim() === '') {
    throw new StateError(`${where} is empty: a write to it was cut short (a store that writes objects in place as they arrive, such as s3rver, keeps half a write); remove it and run again, which fetches the lake's weeks into the same files`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new StateError(`${where} is not JSON: remove it to start over, or fix it`);
  }
  if (!isPlainObject(value)) throw new StateError(`${where} is not a newsstats sync state (not a JSON object)`);
  const wrong = (field: string, what: string) => new StateError(`${where}: ${field} is not ${what}: remove the file to start over, or fix it`);
  if (value.version === 1) throw new StateError(`${where} was written by an older newsstats (state version 1: links by sync week, reference tables unpartitioned); sync into a new folder`);
  if (value.version !== STATE_VERSION) throw wrong('version', `${STATE_VERSION}`);
  const isWeek = (week: unknown): week is number => typeof week === 'number' && isValidWeek(week);
  if (value.currentWeek !== undefined && !isWeek(value.currentWeek)) throw wrong('currentWeek', 'a week (YYYYWW)');
  if (!isPlainObject(value.streams)) throw wrong('streams', 'an object');
  const streams: SyncState['streams'] = {};
  for (const [name, raw] of Object.entries(value.streams)) {
    if (!(STREAM_NAMES as readonly string[]).includes(name)) throw wrong(`streams.${name}`, `a stream (the streams are ${STREAM_NAMES.join(', ')})`);
    if (!isPlainObject(raw)) throw wrong(`streams.${name}`, 'an object');
    const stream: StreamState = {};
    if (raw.query !== undefined) {
      if (!isPlainObject(raw.query)) throw wrong(`streams.${name}.query`, 'an object');
      for (const [key, item] of Object.entries(raw.query)) {
        if (!['string', 'number', 'boolean'].includes(typeof item)) throw wrong(`streams.${name}.query.${key}`, 'a string, number or boolean');
      }
      stream.query = raw.query as QueryRecord;
    }
    for (const field of ['weeks', 'partial'] as const) {
      if (raw[field] === undefined) continue;
      if (!Array.isArray(raw[field]) || !raw[field].every(isWeek)) throw wrong(`streams.${name}.${field}`, 'a list of weeks (YYYYWW)');
      stream[field] = [...new Set(raw[field])].sort((a, b) => a - b);
    }
    if (raw.snapshot !== undefined) {
      if (typeof raw.snapshot !== 'boolean') throw wrong(`streams.${name}.snapshot`, 'true or false');
      stream.snapshot = raw.snapshot;
    }
    if (raw.taken !== undefined) {
      if (!isPlainObject(raw.taken)) throw wrong(`streams.${name}.taken`, 'an object');
      for (const [week, time] of Object.entries(raw.taken)) {
        const partition = name === 'links' && week === String(UNDATED_WEEK) ? true : isWeek(Number(week));
        if (!partition || typeof time !== 'string' || !TAKEN.test(time)) throw wrong(`streams.${name}.taken.${week}`, 'a week and a UTC time (YYYY-MM-DDTHH:MM:SSZ)');
      }
      stream.taken = raw.taken as Record<string, string>;
    }
    streams[name as StreamName] = stream;
  }
  return { version: STATE_VERSION, query: {}, ...(value.currentWeek !== undefined && { currentWeek: value.currentWeek }), streams };
}

/**
 * Each selected stream already in the lake must have been made with the same query: a stream's
 * partitions all answer one. A stream not in the lake yet takes this run's query.
 */
export function checkQuery(state: SyncState, query: QueryRecord, streams: readonly StreamName[], where: string): void {
  const problems: string[] = [];
  for (const stream of streams) {
    const recorded = state.streams[stream]?.query;
    if (recorded === undefined || state.streams[stream]?.taken === undefined) continue;
    const wanted = streamQuery(stream, query);
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(wanted)])].sort();
    const differs = keys.filter((key) => recorded[key] !== wanted[key]);
    if (differs.length > 0) problems.push(`${stream} with ${differs.map((key) => `${key} ${JSON.stringify(recorded[key] ?? null)} (now ${JSON.stringify(wanted[key] ?? null)})`).join(', ')}`);
  }
  if (problems.length > 0) {
    throw new StateError(`${where} holds ${problems.join('; ')}: give the same options, leave those streams out (--streams), or sync into a new folder`);
  }
}

export function weeksDone(state: SyncState, stream: StreamName): ReadonlySet<number> {
  return new Set(state.streams[stream]?.weeks ?? []);
}

function withStream(state: SyncState, stream: StreamName, change: (old: StreamState) => StreamState): SyncState {
  const old = state.streams[stream] ?? {};
  return { ...state, streams: { ...state.streams, [stream]: { ...change(old), query: old.query ?? streamQuery(stream, state.query) } } };
}

/** Records a landed partition (a new state: the old one stays as it was). */
export function withWeekDone(state: SyncState, stream: StreamName, week: number): SyncState {
  return withStream(state, stream, (old) => {
    const weeks = old.weeks ?? [];
    if (weeks.includes(week)) return old;
    return { ...old, weeks: [...weeks, week].sort((a, b) => a - b) };
  });
}

/**
 * Records that a week's partition must be fetched again: a refreshed links week, until its merge has
 * landed (sync.ts, LakeRun.run).
 */
export function withWeekUndone(state: SyncState, stream: StreamName, week: number): SyncState {
  if (!(state.streams[stream]?.weeks ?? []).includes(week)) return state;
  return withStream(state, stream, (old) => ({ ...old, weeks: (old.weeks ?? []).filter((item) => item !== week) }));
}

export function withSnapshotDone(state: SyncState, stream: StreamName): SyncState {
  return withStream(state, stream, (old) => ({ ...old, snapshot: true }));
}

/** Records that a reference table has no snapshot in the lake (the last one went missing): the next run takes one. */
export function withSnapshotUndone(state: SyncState, stream: StreamName): SyncState {
  if (state.streams[stream]?.snapshot !== true) return state;
  return withStream(state, stream, ({ snapshot: _snapshot, ...old }) => old);
}

/** The time a partition was taken, as the state records it: UTC to the second. */
export function takenText(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Records when a partition was written, and whether it holds a week that was not complete then. */
export function withPartitionTaken(state: SyncState, stream: StreamName, week: number, taken: string, partial: boolean): SyncState {
  return withStream(state, stream, (old) => {
    const others = (old.partial ?? []).filter((item) => item !== week);
    return { ...old, taken: { ...old.taken, [String(week)]: taken }, partial: partial ? [...others, week].sort((a, b) => a - b) : others };
  });
}

/**
 * Lists a partition as partial before it is written; when it was taken is recorded once it has landed
 * (withPartitionTaken). A run stopped after it landed, before the state said so, leaves a partial week
 * that a later run still knows to replace; one stopped before it landed records no partition the lake
 * does not hold.
 */
export function withPartialListed(state: SyncState, stream: StreamName, week: number): SyncState {
  if ((state.streams[stream]?.partial ?? []).includes(week)) return state;
  return withStream(state, stream, (old) => ({ ...old, partial: [...(old.partial ?? []), week].sort((a, b) => a - b) }));
}

/** Forgets a partition that is not in the lake: listed as partial by a merge stopped before it landed. */
export function withPartitionAbsent(state: SyncState, stream: StreamName, week: number): SyncState {
  const old = state.streams[stream];
  if (old === undefined || (old.taken?.[String(week)] === undefined && !(old.partial ?? []).includes(week))) return state;
  return withStream(state, stream, ({ taken: { [String(week)]: _absent, ...taken } = {}, ...rest }) => ({ ...rest, taken, partial: (rest.partial ?? []).filter((item) => item !== week) }));
}

/**
 * Records that a partial partition's week has since been read whole: for links, whose partition W
 * holds every link seen with a mentionDate in W, once the people of W's complete ranking have been
 * read, even when none of their links fell in W (the partition then stays as it was, and is complete).
 */
export function withPartialCleared(state: SyncState, stream: StreamName, week: number): SyncState {
  if (!(state.streams[stream]?.partial ?? []).includes(week)) return state;
  return withStream(state, stream, (old) => ({ ...old, partial: (old.partial ?? []).filter((item) => item !== week) }));
}

/** Whether a stream holds rows taken before its week was complete, by partition. */
export function partialWeeks(state: SyncState, stream: StreamName): readonly number[] {
  return STREAMS[stream].weekly ? state.streams[stream]?.partial ?? [] : [];
}
