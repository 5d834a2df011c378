/**
 * What a synced folder (or a tap's state) records as complete: per stream, the weeks whose partitions
 * have landed, and whether a reference table's snapshot has; the query those were made with; and the
 * service's current week as last asked. Written atomically after each partition lands, never before,
 * so what it lists is always on disk. No time of writing in it: an interrupted run resumed ends with
 * the same bytes as one that never stopped.
 */
import type { StreamName } from './streams.js';

export const STATE_VERSION = 1;

/** The file `sync` keeps in its folder. A leading `_`: Spark, Hive and DuckDB's globs pass it over. */
export const STATE_FILE = '_newsstats_sync.json';

export interface StreamState {
  /** Completed weeks whose partition has landed, ascending. */
  weeks?: number[];
  /** A reference table's snapshot has landed. */
  snapshot?: boolean;
}

export interface SyncState {
  version: typeof STATE_VERSION;
  /** What decides a partition's contents (depth, top, filters): a folder holds one query. */
  query: Readonly<Record<string, string | number | boolean>>;
  /** The service's current week when last asked. */
  currentWeek?: number;
  streams: Partial<Record<StreamName, StreamState>>;
}

export class StateError extends Error {
  override name = 'StateError';
}

export function emptyState(query: SyncState['query']): SyncState {
  return { version: STATE_VERSION, query, streams: {} };
}

/** The state as text: keys in a fixed order, so equal states are equal bytes. */
export function stateText(state: SyncState): string {
  const streams = Object.fromEntries(Object.keys(state.streams).sort().map((name) => [name, state.streams[name as StreamName]]));
  const query = Object.fromEntries(Object.keys(state.query).sort().map((key) => [key, state.query[key]]));
  return JSON.stringify({ version: state.version, query, ...(state.currentWeek !== undefined && { currentWeek: state.currentWeek }), streams }, null, 2) + '\n';
}

/** Reads a state's text; a file of another shape is an error naming it, never silently started over. */
export function parseState(text: string, where: string): SyncState {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new StateError(`${where} is not JSON: remove it to start over, or fix it`);
  }
  const state = value as Partial<SyncState> | null;
  if (!state || typeof state !== 'object' || state.version !== STATE_VERSION || typeof state.streams !== 'object' || typeof state.query !== 'object') {
    throw new StateError(`${where} is not a newsstats sync state of version ${STATE_VERSION}`);
  }
  return state as SyncState;
}

/** The same query, or an error naming what differs: a folder's partitions must all answer one query. */
export function checkQuery(state: SyncState, query: SyncState['query'], where: string): void {
  const keys = [...new Set([...Object.keys(state.query), ...Object.keys(query)])].sort();
  const differs = keys.filter((key) => state.query[key] !== query[key]);
  if (differs.length > 0) {
    const shown = differs.map((key) => `${key} ${JSON.stringify(state.query[key] ?? null)} (now ${JSON.stringify(query[key] ?? null)})`).join(', ');
    throw new StateError(`${where} was synced with another query: ${shown}; sync into a new folder, or give the same options`);
  }
}

export function weeksDone(state: SyncState, stream: StreamName): ReadonlySet<number> {
  return new Set(state.streams[stream]?.weeks ?? []);
}

/** Records a landed partition (a new state: the old one stays as it was). */
export function withWeekDone(state: SyncState, stream: StreamName, week: number): SyncState {
  const weeks = [...new Set([...(state.streams[stream]?.weeks ?? []), week])].sort((a, b) => a - b);
  return { ...state, streams: { ...state.streams, [stream]: { ...state.streams[stream], weeks } } };
}

export function withSnapshotDone(state: SyncState, stream: StreamName): SyncState {
  return { ...state, streams: { ...state.streams, [stream]: { ...state.streams[stream], snapshot: true } } };
}
