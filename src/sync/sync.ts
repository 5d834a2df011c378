/**
 * `sync`'s engine: a folder of hive-style Parquet partitions kept up to date week by week.
 *
 *   DIR/rankings/week=202647/part-0.parquet     one file per weekly stream and week
 *   DIR/people/part-0.parquet                   one file per reference table
 *   DIR/_newsstats_sync.json                    what has landed (state.ts)
 *
 * Each partition is written to a temporary file beside it and renamed into place, then recorded in
 * the state, which is itself replaced atomically. A run killed at any point (SIGKILL included) leaves
 * at most a temporary file, which the next run removes, and partitions it may write again: since the
 * same rows give the same bytes, the resumed folder is byte-identical to one never interrupted.
 */
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { NewsStatsClient } from '../api/client.js';
import { openAtomicFile } from '../output/atomic.js';
import { openParquetWriter } from '../output/parquet.js';
import { OutputWriteError } from '../output/write-error.js';
import { isSystemError } from '../shared/system-error.js';
import { isoWeekOf } from '../shared/weeks.js';
import { isPartitionFailure } from './failures.js';
import { needsCurrentWeek, planTasks, type PlanOptions, type Task } from './plan.js';
import { StreamReader, queryRecord, type StreamQuery } from './read.js';
import { STATE_FILE, checkQuery, emptyState, parseState, stateText, withSnapshotDone, withWeekDone, type SyncState } from './state.js';
import { STREAMS } from './streams.js';

export interface SyncOptions extends PlanOptions, StreamQuery {
  client: NewsStatsClient<'lossless'>;
  dir: string;
  /** The local clock, to tell whether a week may have been completed since the state was written. */
  now?: Date;
  /** Told before the first partition (how many) and as each lands or fails. */
  onPlan?: (tasks: readonly Task[]) => void;
  onTask?: (task: Task, error?: unknown) => void;
}

export interface SyncSummary {
  /** Partitions written by this run. */
  written: Task[];
  /** Partitions that failed after retries; what landed before and after them stays. */
  failed: Array<{ task: Task; error: unknown }>;
  requests: number;
  currentWeek?: number;
}

/** The file of a partition, relative to the folder. */
export function partitionPath(task: Pick<Task, 'stream' | 'week'>): string {
  return task.week === undefined ? join(task.stream, 'part-0.parquet') : join(task.stream, `week=${task.week}`, 'part-0.parquet');
}

/** Temporary files of the atomic writer (`.NAME.PID.RANDOM.tmp`) that a killed run left. */
const LEFTOVER = /^\..+\.\d+\.[0-9a-f]+\.tmp$/;

async function removeLeftovers(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  await Promise.all(entries.filter((entry) => entry.isFile() && LEFTOVER.test(entry.name)).map((entry) => rm(join(entry.parentPath, entry.name), { force: true })));
}

async function loadState(dir: string, query: SyncState['query']): Promise<SyncState> {
  const path = join(dir, STATE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyState(query);
    throw error;
  }
  const state = parseState(text, path);
  checkQuery(state, query, dir);
  return state;
}

/** Writes a file atomically; a failure of the file system is an OutputWriteError naming it (exit 6). */
async function writeAtomically(path: string, write: (out: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    const file = await openAtomicFile(path);
    try {
      await write(file.stream);
      await file.commit();
    } finally {
      await file.abort();
    }
  } catch (error) {
    throw isSystemError(error) ? new OutputWriteError(path, error) : error;
  }
}

async function saveState(dir: string, state: SyncState): Promise<void> {
  const text = stateText(state);
  await writeAtomically(join(dir, STATE_FILE), async (out) => {
    out.write(text);
  });
}

export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  const { client, dir } = options;
  await mkdir(dir, { recursive: true });
  await removeLeftovers(dir);
  let state = await loadState(dir, queryRecord(options));
  const reader = new StreamReader(client, options, options.streams);

  const localWeek = isoWeekOf(options.now ?? new Date());
  let currentWeek = state.currentWeek;
  if (needsCurrentWeek(state, localWeek, options)) {
    reader.requests += 1;
    currentWeek = Number(String((await client.weeks.current()).currentWeek));
    if (currentWeek !== state.currentWeek) {
      state = { ...state, currentWeek };
      await saveState(dir, state);
    }
  }
  const tasks = planTasks(state, currentWeek!, options);
  options.onPlan?.(tasks);

  const summary: SyncSummary = { written: [], failed: [], requests: 0, currentWeek };
  for (const task of tasks) {
    const path = join(dir, partitionPath(task));
    try {
      await writeAtomically(path, async (out) => {
        const writer = openParquetWriter(out, () => STREAMS[task.stream].columns);
        if (task.week === undefined) await reader.reference(task.stream, (row) => writer.write(row));
        else await reader.weekly(task.stream, task.week, (row) => writer.write(row));
        await writer.end();
      });
    } catch (error) {
      if (!isPartitionFailure(error)) throw error;
      summary.failed.push({ task, error });
      options.onTask?.(task, error);
      continue;
    }
    if (task.week === undefined) state = withSnapshotDone(state, task.stream);
    else if (!task.partial) state = withWeekDone(state, task.stream, task.week);
    await saveState(dir, state);
    summary.written.push(task);
    options.onTask?.(task);
  }
  summary.requests = reader.requests;
  return summary;
}
