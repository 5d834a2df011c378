/**
 * `sync`'s engine: a lake of hive-style Parquet partitions, every one under `week=YYYYWW`, so a
 * whole-lake read (`read_parquet('lake/** /*.parquet', hive_partitioning = true, union_by_name = true)`)
 * works:
 *
 *   rankings/week=202647/part-0.parquet        the week's ranking
 *   country_stats/week=202647/part-0.parquet   the country rows of the week's top people
 *   links/week=202647/part-0.parquet           every link seen whose mentionDate is in that week, once
 *   people/week=202648/part-0.parquet          a reference table's snapshot, by the week it was taken
 *   _newsstats_sync.json                       what has landed (state.ts)
 *   _newsstats/links/week=202647.ndjson        the links rows by partition, to merge new ones by key
 *   _newsstats/links/index.json                each link's partition week, so a link that moves leaves
 *                                              its old partition
 *   _newsstats/links/merging.json              a merge under way: its partitions and the links it moves
 *
 * The destination (destinations/) publishes each file whole; the state is written only after the
 * files it records have landed. The partitions carry no time of writing and the same rows give the same
 * bytes, so a killed run resumed ends with the partitions of a run never interrupted; the state says
 * when each partition was taken.
 */
import type { NewsStatsClient } from '../api/client.js';
import { ResponseShapeError } from '../api/errors.js';
import { ValueOutOfRangeError } from '../output/errors.js';
import { ROW_GROUP_ROWS, openParquetWriter } from '../output/parquet.js';
import type { Row } from '../output/view.js';
import { isoWeekOf, weeksBetween } from '../shared/weeks.js';
import { STORE_FOLDER, type Destination, type Scratch } from './destinations/destination.js';
import { isPartitionFailure } from './failures.js';
import { MAX_WEEKS_AHEAD, needsCurrentWeek, plannedRequests, planTasks, serviceWeekProblem, type PlanOptions, type Task } from './plan.js';
import { StreamReader, queryRecord, type StreamQuery } from './read.js';
import { STATE_FILE, StateError, checkQuery, emptyState, parseState, partialWeeks, stateText, takenText, withPartialCleared, withPartialListed, withPartitionAbsent, withPartitionTaken, withSnapshotDone, withSnapshotUndone, withWeekDone, withWeekUndone, weeksDone, type SyncState } from './state.js';
import { STREAMS, STREAM_NAMES, partitionRow, rowWeek, type StreamName } from './streams.js';
import { NEWLINE, linkKey, storeLines, storeRow, writeIndexText } from './links-store.js';

export interface SyncOptions extends PlanOptions, StreamQuery {
  /** The service; a plan, which sends nothing, needs none (`sync --plan` runs without a key). */
  client: NewsStatsClient<'lossless'> | undefined;
  lake: Destination;
  /** The local clock, to tell whether a week may have been completed since the state was written. */
  now?: Date;
  /**
   * Ask each week's top for their links, as sync did before links were asked once a person a run
   * (LinksOnce, read.ts): the same lake for more requests (NEWSSTATS_SYNC_LINKS_EVERY_WEEK=1).
   */
  linksEveryWeek?: boolean;
  /** Say what would be fetched and written, and send nothing. */
  plan?: boolean;
  /** Told before the first partition (how many fetches) and as each lands or fails. */
  onPlan?: (tasks: readonly Task[]) => void;
  onTask?: (task: Task, error?: unknown) => void;
  /**
   * The account to fill in as the run goes (emptySyncSummary()), the caller's: a run stopped by a
   * signal or an error still says what it planned, wrote and sent (`sync --summary`), not only one
   * that returns.
   */
  summary?: SyncSummary;
}

/** A file of the lake: a stream's partition. */
export interface Partition {
  stream: StreamName;
  week: number;
  /** Holds a week that was not complete when taken. */
  partial?: boolean;
}

export interface SyncSummary {
  /** What the run fetches (or would, with plan), in order. */
  planned: Task[];
  /** The requests the plan costs at most. */
  plannedRequests: number;
  /** Partitions written by this run. */
  written: Partition[];
  /** Fetches that failed after retries; what landed before and after them stays. */
  failed: Array<{ task: Task; error: unknown }>;
  requests: number;
  currentWeek?: number;
  /** With plan: the current week is the local clock's (or the state's), not asked. */
  assumedCurrentWeek?: boolean;
  /** With plan: a run would ask the service for its current week first (one request, in plannedRequests). */
  asksCurrentWeek?: boolean;
}

/** An account of a run before it has planned anything. */
export function emptySyncSummary(): SyncSummary {
  return { planned: [], plannedRequests: 0, written: [], failed: [], requests: 0 };
}

/** The file of a partition, relative to the lake. */
export function partitionPath(partition: Pick<Partition, 'stream' | 'week'>): string {
  return `${partition.stream}/week=${partition.week}/part-0.parquet`;
}

/** The merge store of a links partition: its rows as JSON lines, every digit as sent. */
function linksStorePath(week: number): string {
  return `${STORE_FOLDER}/links/week=${week}.ndjson`;
}

/**
 * The week of every link in the lake, by key, so that a link whose mentionDate changes leaves its old
 * partition (one row in one place); keys sorted, so the same links give the same bytes.
 */
const LINKS_INDEX = `${STORE_FOLDER}/links/index.json`;

/**
 * A links merge under way (`{"weeks":[...],"moves":{"key":[old,new],...}}`): the partitions it writes
 * again, and the links it moves from one partition to another with their old week and their new one.
 * Written before the merge changes anything, emptied (`{}`) once all of it has landed, so a run stopped
 * in between leaves the next one what it needs to finish it (#finishMerge): a partition written from
 * its merge store again (the store is written first, and is what a partition is made from), and each
 * moving link kept in one partition.
 */
const LINKS_MERGING = `${STORE_FOLDER}/links/merging.json`;
const NO_MERGE = '{}\n';

interface LinksMerge {
  weeks: number[];
  moves: Map<string, readonly [number, number]>;
}

/** A merge as LINKS_MERGING holds it, the moves' keys sorted. */
function mergingText(merge: LinksMerge): string {
  const keys = [...merge.moves.keys()].sort();
  const moves = keys.map((key) => `${JSON.stringify(key)}:[${merge.moves.get(key)!.join(',')}]`).join(',');
  return `{"weeks":[${merge.weeks.join(',')}],"moves":{${moves}}}\n`;
}

/** LINKS_MERGING's text as the merge it holds; what is not such a file is a StateError naming it. */
function parseMerging(text: string, where: string): LinksMerge {
  // Text that is not JSON was read as "no merge", so a merge it named was never finished. A folder's
  // journal is written whole; an empty one is a write cut short by a store that writes objects in
  // place (s3rver). Which partitions the merge was changing is then unknown: the way out fetches the
  // links anew (a partition and its store gone, the next run forgets its week, #forgetLost).
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const what = text.trim() === '' ? 'empty: a write to it was cut short (a store that writes objects in place as they arrive, such as s3rver, keeps half a write)' : 'not JSON';
    throw new StateError(`${where} is ${what}, so which links partitions a merge was changing is unknown: remove the links folders (links/ and _newsstats/links/) and run again, which fetches every week's links anew`);
  }
  const isWeek = (week: unknown): week is number => Number.isSafeInteger(week);
  const isMove = (weeks: unknown) => Array.isArray(weeks) && weeks.length === 2 && weeks.every(isWeek);
  const { weeks = [], moves = {} } = (typeof value === 'object' && value !== null ? value : { weeks: undefined }) as { weeks?: unknown; moves?: unknown };
  if (!Array.isArray(weeks) || !weeks.every(isWeek) || typeof moves !== 'object' || moves === null || Array.isArray(moves) || !Object.values(moves).every(isMove)) {
    throw new StateError(`${where} is not a links merge (its weeks, and links moving between them): remove it, and check the links partitions against their merge stores`);
  }
  return { weeks, moves: new Map(Object.entries(moves as Record<string, [number, number]>)) };
}

/** Whether these pieces, one after another, are these bytes. */
function sameBytes(chunks: readonly Buffer[], bytes: Buffer): boolean {
  let at = 0;
  for (const chunk of chunks) {
    if (at + chunk.length > bytes.length || !chunk.equals(bytes.subarray(at, at + chunk.length))) return false;
    at += chunk.length;
  }
  return at === bytes.length;
}

/** Records that a link leaves a links partition (by week, the keys leaving it). */
function leave(leaving: Map<number, Set<string>>, week: number, key: string): void {
  let keys = leaving.get(week);
  if (!keys) leaving.set(week, (keys = new Set()));
  keys.add(key);
}

/** The scratch file of the links fetched and not yet merged, under a temporary name beside this one. */
const LINKS_HELD = `${STORE_FOLDER}/links/held.ndjson`;

/** The state is written at most this often while partitions land (and always at the end). */
const STATE_INTERVAL_MS = 1000;

/** Links rows beyond which the run merges what it holds into the lake before fetching more. */
const LINKS_BUFFER_ROWS = 20_000;

export async function runSync(options: SyncOptions): Promise<SyncSummary> {
  // A plan reads the state, if any, and nothing else: no folder made, no lock taken, nothing written.
  if (!options.plan) await options.lake.open();
  const run = new LakeRun(options);
  try {
    return await run.run();
  } finally {
    run.dispose();
    await options.lake.close();
  }
}

class LakeRun {
  readonly #lake: Destination;
  #fetching: StreamReader | undefined;
  #state: SyncState;
  /**
   * Links rows fetched and not yet merged into the lake, by partition week, by key: each the number of
   * its merge store line (compact JSON, UTF-8, what the store is written from) in #held. Held as parsed
   * rows, the whole run's links stayed in V8's old generation and their store text was made at the
   * merge, all at once; held as lines in the process, they were 4.4 MB of a 25-week sync's peak and
   * grew with the run (docs/performance.md, "sync", "The peak").
   */
  #links = new Map<number, Map<string, number>>();
  /** Where the lake keeps the lines of #links (LINKS_HELD), made at the first links fetched. */
  #held: Scratch | undefined;
  /** Each held line's position, length and key in #held, by its number (numbered as appended, so positions ascend). */
  #heldAt: number[] = [];
  #heldLength: number[] = [];
  #heldKeys: string[] = [];
  /** The partition week of each key in #links. */
  #linkWeeks = new Map<string, number>();
  #linksRows = 0;
  /** The partition week of every link in the lake (LINKS_INDEX), read at the first merge. */
  #index: Map<string, number> | undefined;
  /** #index was built from the merge stores (a lake from before the index): written at the next merge. */
  #indexUnwritten = false;
  /**
   * The people whose links this run holds (in #links or merged into the lake): a later week's top
   * does not ask for them again (LinksOnce). Only the lake's run uses it; `--refresh` and the next
   * run ask again, so links still change as the service's answers do.
   */
  readonly #linksHeld = new Set<string>();
  /** The weeks whose links are in #links: recorded as done once merged. */
  #linksWeeks: Task[] = [];
  #currentWeek = 0;
  readonly #summary: SyncSummary;

  constructor(private readonly options: SyncOptions) {
    this.#lake = options.lake;
    this.#summary = options.summary ?? emptySyncSummary();
    this.#state = emptyState(queryRecord(options));
  }

  async run(): Promise<SyncSummary> {
    const { options } = this;
    const query = queryRecord(options);
    const text = options.plan ? await this.#lake.peekState() : await this.#lake.readState();
    if (text !== undefined) this.#state = { ...parseState(text, `${this.#lake.where}/${STATE_FILE}`), query };
    checkQuery(this.#state, query, options.streams, this.#lake.where);

    this.#currentWeek = await this.#currentWeekOf(isoWeekOf(options.now ?? new Date()));
    const lostLinks = await this.#forgetLost();
    const tasks = planTasks(this.#state, this.#currentWeek, options);
    const summary = this.#summary;
    summary.planned = tasks;
    summary.plannedRequests = plannedRequests(tasks, options.top) + (summary.asksCurrentWeek === true ? 1 : 0);
    summary.currentWeek = this.#currentWeek;
    options.onPlan?.(tasks);
    if (options.plan) return summary;

    // A refreshed week's links move between partitions when the service dates them anew: out of the old
    // one, into the new, two writes no single file makes whole. Until its merge has landed the week is
    // recorded as not merged, so a run stopped between them (SIGKILL, a full disk) leaves it to the next
    // run, which fetches it again and finishes the move, rather than a link in neither partition.
    const refreshed = options.refresh;
    if (refreshed !== undefined && weeksDone(this.#state, 'links').has(refreshed) && tasks.some((task) => task.stream === 'links' && task.week === refreshed && !task.partial)) {
      this.#state = withWeekUndone(this.#state, 'links', refreshed);
      await this.#saveState(true);
    }

    await this.#finishMerge();
    if (lostLinks.fromStore.length > 0 || lostLinks.emptied.length > 0) {
      const taken = takenText(new Date());
      // The weeks to fetch again recorded before a store is emptied: an empty store is no lost one, and
      // a run stopped in between would leave the next one nothing to fetch, the links gone for good.
      if (lostLinks.emptied.length > 0) await this.#saveState(true);
      // Emptied, not left as it was: rows in no merge store and in the index under this week stayed
      // there when the links moved to another week (the move takes them out of this partition's store,
      // and there was none), each then in two partitions for good.
      for (const week of lostLinks.emptied) if (await this.#rewriteLinks(week, new Map(), undefined, taken)) this.#counted({ stream: 'links', week });
      for (const week of lostLinks.fromStore) if (await this.#rewriteLinks(week, undefined, undefined, taken)) this.#counted({ stream: 'links', week, ...(partialWeeks(this.#state, 'links').includes(week) && { partial: true }) });
      await this.#saveState(true);
    }

    for (const task of tasks) {
      try {
        if (task.stream === 'links') await this.#fetchLinks(task);
        else await this.#writePartition(task);
      } catch (error) {
        if (!isPartitionFailure(error)) throw error;
        summary.failed.push({ task, error });
        options.onTask?.(task, error);
        continue;
      }
      if (task.stream !== 'links') options.onTask?.(task);
    }
    await this.#mergeLinks();
    if (this.#unsaved) await this.#saveState(true);
    // Writes after the last state (the journal a finished merge empties) landed too, or the run failed.
    await this.#lake.settle();
    return summary;
  }

  /**
   * Partitions the state records that the lake no longer holds (deleted by hand, expired by a bucket's
   * lifecycle rule, dropped by a store that had acknowledged them): forgotten, so this run fetches and
   * writes them again. Before, the state was trusted alone, and the lake lacked them for good. A
   * links partition whose merge store is there is written again from it (fromStore); a merge store
   * gone takes its rows with it, out of its partition too (emptied), so the links of every week are
   * fetched again.
   */
  async #forgetLost(): Promise<{ fromStore: number[]; emptied: number[] }> {
    const recorded: Array<{ stream: StreamName; week: number; path: string }> = [];
    for (const stream of STREAM_NAMES) {
      for (const week of Object.keys(this.#state.streams[stream]?.taken ?? {}).map(Number)) {
        recorded.push({ stream, week, path: partitionPath({ stream, week }) });
        if (stream === 'links') recorded.push({ stream, week, path: linksStorePath(week) });
      }
    }
    if (recorded.length === 0) return { fromStore: [], emptied: [] };
    const missing = await this.#lake.missing(recorded.map(({ path }) => path));
    let state = this.#state;
    const rewrite: number[] = [];
    const emptied: number[] = [];
    for (const { stream, week, path } of recorded) {
      if (!missing.has(path)) continue;
      if (stream !== 'links') {
        state = withWeekUndone(withPartitionAbsent(state, stream, week), stream, week);
        if (!STREAMS[stream].weekly && Object.keys(state.streams[stream]?.taken ?? {}).length === 0) state = withSnapshotUndone(state, stream);
      } else if (path === linksStorePath(week)) {
        state = withPartitionAbsent(state, 'links', week);
        if (!missing.has(partitionPath({ stream: 'links', week }))) emptied.push(week);
        for (const done of weeksDone(state, 'links')) state = withWeekUndone(state, 'links', done);
      } else if (!missing.has(linksStorePath(week))) {
        rewrite.push(week);
      }
    }
    // Saved by the run's end though it writes nothing else: the state says what the lake holds, also
    // of the weeks outside this run's range, which stay unfetched until a run's range holds them.
    if (state !== this.#state && !this.options.plan) this.#unsaved = true;
    this.#state = state;
    if (this.options.plan) return { fromStore: [], emptied: [] };
    return { fromStore: rewrite.filter((week) => state.streams.links?.taken?.[String(week)] !== undefined), emptied };
  }

  /** The service, for a run that fetches: a plan never gets here (runSync's options may have none). */
  #client(): NewsStatsClient<'lossless'> {
    if (this.options.client === undefined) throw new Error('a sync that fetches needs a client; only a plan runs without one');
    return this.options.client;
  }

  /** What fetches the streams' answers, made at the first fetch. */
  get #reader(): StreamReader {
    return (this.#fetching ??= new StreamReader(this.#client(), this.options, this.options.streams, this.#summary));
  }

  dispose(): void {
    this.#held?.dispose();
  }

  /**
   * The service's current week: asked only when the local clock may have passed the one the state
   * knows; with plan never asked (the state's or the clock's). An answer far from the clock, or behind
   * the last one seen, is refused for this run and not stored (exit 5).
   */
  async #currentWeekOf(localWeek: number): Promise<number> {
    const known = this.#state.currentWeek;
    // A week the state holds but the clock cannot have reached was never right: it decides nothing.
    const trusted = known !== undefined && weeksBetween(localWeek, known) <= MAX_WEEKS_AHEAD ? known : undefined;
    const state = { ...this.#state, currentWeek: trusted };
    if (this.options.plan) {
      this.#summary.assumedCurrentWeek = true;
      this.#summary.asksCurrentWeek = needsCurrentWeek(state, localWeek, this.options);
      return trusted !== undefined && trusted >= localWeek ? trusted : localWeek;
    }
    if (!needsCurrentWeek(state, localWeek, this.options)) return trusted!;
    this.#summary.requests += 1;
    const answer = Number(String((await this.#client().weeks.current()).currentWeek));
    const problem = serviceWeekProblem(answer, localWeek, trusted);
    if (problem !== undefined) {
      throw new ResponseShapeError({ status: 200, method: 'GET', url: '/api/data/weeks/current' }, `${problem}: not trusted, so nothing was fetched or recorded (check the local clock, or run again later)`);
    }
    if (answer !== known) {
      this.#state = { ...this.#state, currentWeek: answer };
      await this.#saveState(true);
    }
    return answer;
  }

  #savedAt = 0;
  #unsaved = false;

  /**
   * Writes the state, at most once a second unless `now`: each write waits for every file before it to
   * be durable, and a killed run loses at most a second of records (those partitions are written again,
   * the same bytes). The run's end always writes it.
   */
  async #saveState(now = false): Promise<void> {
    if (!now && performance.now() - this.#savedAt < STATE_INTERVAL_MS) {
      this.#unsaved = true;
      return;
    }
    await this.#lake.writeState(stateText(this.#state));
    this.#savedAt = performance.now();
    this.#unsaved = false;
  }

  /**
   * Writes one partition, in the stream's columns (streams.ts). The week is a column of every file as
   * well as its path (INT32, the same in every partition), so a reader without hive partitioning still
   * has it; the week and the stream's keys are REQUIRED; fields the contract does not name go to
   * EXTRA_COLUMN. A value its column cannot hold (more than 38 digits) is exit 5 naming stream, week,
   * row and field (docs/types.md).
   */
  async #writeRows(partition: Partition, fill: (write: (row: Row) => Promise<void>) => Promise<void>): Promise<void> {
    const { stream } = partition;
    const columns = STREAMS[stream].columns;
    try {
      await this.#lake.write(partitionPath(partition), async (out) => {
        const writer = openParquetWriter(out, () => columns, { week: partition.week });
        await fill((row) => writer.write(partitionRow(stream, row, partition.week)));
        await writer.end();
      });
    } catch (error) {
      throw error instanceof ValueOutOfRangeError ? error.in(`${partition.stream} week ${partition.week}`) : error;
    }
  }

  /**
   * A partition written this run, counted (the run's line, --summary's `written`) once its file is
   * handed to the lake, and taken back should that write fail: files are on their way together, and
   * one whose PUT failed was reported as written though the lake never held it.
   */
  #counted(partition: Partition): void {
    const written = this.#summary.written;
    written.push(partition);
    this.#lake.landing(partitionPath(partition))?.catch(() => {
      const at = written.indexOf(partition);
      if (at >= 0) written.splice(at, 1);
    });
  }

  /** A partition of rankings, country stats or a reference table: fetched, written whole, recorded. */
  async #writePartition(task: Task): Promise<void> {
    const weekly = task.week !== undefined;
    const partition: Partition = { stream: task.stream, week: task.week ?? this.#currentWeek, ...(task.partial && { partial: true }) };
    if (task.partial) {
      // Recorded as partial before it lands: a run stopped once it has landed, before the state says
      // so, must not leave a partial week in the lake that no later run knows to replace.
      this.#state = withPartialListed(this.#state, task.stream, partition.week);
      await this.#saveState(true);
    }
    await this.#writeRows(partition, (write) => (weekly ? this.#reader.weekly(task.stream, task.week!, write) : this.#reader.reference(task.stream, write)));
    // Counted at once: a signal during the state's write below still reports it.
    this.#counted(partition);
    let state = withPartitionTaken(this.#state, task.stream, partition.week, takenText(new Date()), task.partial === true);
    if (!weekly) state = withSnapshotDone(state, task.stream);
    else if (!task.partial) state = withWeekDone(state, task.stream, task.week!);
    this.#state = state;
    await this.#saveState();
  }

  /** One week's people's links, held by the partition week they belong to until merged. */
  async #fetchLinks(task: Task): Promise<void> {
    // The JSON renderer's chunk, as `-f json` loads it: a static import would split the exact
    // stringify out of it, one more module for every `-f json` run (test/build/startup-modules.test.ts).
    const { compactJsonText } = await import('../output/json.js');
    const rows: Row[] = [];
    const asked: string[] = [];
    await this.#reader.weekly('links', task.week!, async (row) => {
      rows.push(row);
    }, this.options.linksEveryWeek ? undefined : { held: this.#linksHeld, asked });
    // The week's rows are the run's now: its people need not be asked again.
    for (const person of asked) this.#linksHeld.add(person);
    // Each partition week's new lines side by side in the scratch file, so the merge reads a week's in
    // a few pieces, not a line at a time; and made one text a week, one buffer of it, not one a line.
    const byWeek = new Map<number, { keys: string[]; text: string }>();
    for (let index = 0; index < rows.length; index += 1) {
      const row = rows[index]!;
      const week = rowWeek('links', row, task.week!);
      let lines = byWeek.get(week);
      if (!lines) byWeek.set(week, (lines = { keys: [], text: '' }));
      lines.keys.push(linkKey(row));
      lines.text += `${compactJsonText(row)}\n`;
    }
    rows.length = 0;
    const held = (this.#held ??= await this.#lake.scratch(LINKS_HELD));
    const chunks = [...byWeek.values()].map(({ text }) => Buffer.from(text));
    let position = held.append(chunks);
    let chunk = 0;
    for (const [week, { keys }] of byWeek) {
      const bytes = chunks[chunk++]!;
      let partition = this.#links.get(week);
      if (!partition) this.#links.set(week, (partition = new Map<string, number>()));
      // JSON text holds no newline byte but each line's end: compact JSON escapes a newline in a string.
      for (let index = 0, start = 0; index < keys.length; index += 1) {
        const key = keys[index]!;
        const end = bytes.indexOf(0x0a, start);
        // The newest answer for a key wins, in the week it names now.
        const before = this.#linkWeeks.get(key);
        if (before !== undefined && before !== week) this.#links.get(before)!.delete(key);
        else if (before === undefined) this.#linksRows += 1;
        this.#linkWeeks.set(key, week);
        partition.set(key, this.#heldAt.length);
        this.#heldAt.push(position + start);
        this.#heldLength.push(end - start);
        this.#heldKeys.push(key);
        start = end + 1;
      }
      position += bytes.length;
    }
    this.#linksWeeks.push(task);
    if (this.#linksRows >= LINKS_BUFFER_ROWS) await this.#mergeLinks();
  }

  /**
   * The partition week of every link in the lake: LINKS_INDEX, or, in a lake written before it, built
   * once from the merge store of every links partition the state records.
   */
  async #linksIndex(): Promise<Map<string, number>> {
    if (this.#index) return this.#index;
    const index = new Map<string, number>();
    const text = await this.#lake.read(LINKS_INDEX);
    if (text !== undefined) {
      let value: unknown;
      try {
        value = JSON.parse(text.toString('utf8'));
      } catch {
        value = undefined;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((week) => Number.isSafeInteger(week))) {
        throw new StateError(`${this.#lake.where}/${LINKS_INDEX} is not an index of links (key to week): remove it, and the next run builds it again`);
      }
      for (const [key, week] of Object.entries(value as Record<string, number>)) index.set(key, week);
    } else {
      for (const week of Object.keys(this.#state.streams.links?.taken ?? {}).map(Number)) {
        const where = this.#storeName(week);
        for (const line of storeLines(await this.#lake.read(linksStorePath(week)))) index.set(linkKey(storeRow(line, where)), week);
      }
      this.#indexUnwritten = true;
    }
    return (this.#index = index);
  }

  /** A week's merge store as errors name it: the lake's address and the store's path. */
  #storeName(week: number): string {
    return `${this.#lake.where}/${linksStorePath(week)}`;
  }

  /**
   * The held lines of these numbers (ascending, so in the order they lie in the scratch file), each a
   * view of one read of it: lines that lie side by side there are read together (a 25-week sync's
   * merge reads about 800 pieces).
   */
  #heldLines(numbers: Uint32Array): Buffer[] {
    const at = this.#heldAt;
    const length = this.#heldLength;
    const lines = new Array<Buffer>(numbers.length);
    for (let first = 0; first < numbers.length; ) {
      const start = at[numbers[first]!]!;
      let stop = start + length[numbers[first]!]! + 1;
      let next = first + 1;
      while (next < numbers.length && at[numbers[next]!] === stop) stop += length[numbers[next++]!]! + 1;
      const bytes = this.#held!.read(start, stop - start);
      for (let index = first; index < next; index += 1) {
        const offset = at[numbers[index]!]! - start;
        lines[index] = bytes.subarray(offset, offset + length[numbers[index]!]!);
      }
      first = next;
    }
    return lines;
  }

  /**
   * One links partition written again from its merge store: with the held links of `gains` (key to
   * held line number) in, the keys of `losses` out. A partition only left by links keeps what it was:
   * complete, or partial. False when there was nothing to write: no store, and nothing to add; or,
   * with `unlessUnchanged`, a recorded partition whose store already holds exactly these rows.
   */
  async #rewriteLinks(week: number, gains: ReadonlyMap<string, number> | undefined, losses: ReadonlySet<string> | undefined, taken: string, unlessUnchanged = false, reading?: Promise<Buffer | undefined>): Promise<boolean> {
    const storePath = linksStorePath(week);
    const stored = await (reading ?? this.#lake.read(storePath));
    // Nothing to add to a partition that never landed (a stopped merge's new one): nothing to write.
    if (stored === undefined && gains === undefined) return false;
    const merged = new Map<string, Buffer>();
    // A stored line is parsed for its key; its row is kept for the writer, which would otherwise parse
    // it again (half of a daily run's parsing), as long as the writer holds that many rows itself (a
    // row group) before writing them out.
    const storedLines = storeLines(stored);
    // Named once: storeRow takes it for every line, and a merge parses thousands.
    const where = this.#storeName(week);
    const storedRows = storedLines.length <= ROW_GROUP_ROWS ? new Map<string, Row>() : undefined;
    for (const line of storedLines) {
      const row = storeRow(line, where);
      const key = linkKey(row);
      merged.set(key, line);
      storedRows?.set(key, row);
    }
    for (const key of losses ?? []) merged.delete(key);
    const heldNumbers = Uint32Array.from(gains?.values() ?? []).sort();
    const heldLines = this.#heldLines(heldNumbers);
    for (let index = 0; index < heldNumbers.length; index += 1) {
      const key = this.#heldKeys[heldNumbers[index]!]!;
      const line = heldLines[index]!;
      // A link fetched again as the store holds it, byte for byte, is the row parsed above.
      if (storedRows !== undefined && merged.get(key)?.equals(line) !== true) storedRows.delete(key);
      merged.set(key, line);
    }
    const keys = [...merged.keys()].sort();
    const lines = keys.map((key) => merged.get(key)!);
    const chunks: Buffer[] = [];
    for (const line of lines) chunks.push(line, NEWLINE);
    const partial = this.#links.has(week) ? week >= this.#currentWeek : partialWeeks(this.#state, 'links').includes(week);
    // The links of one week's top reach back over most of a grown lake's partitions, nearly all of them
    // rows it holds already: written again, a two-year lake's daily run rewrote 62 of its 104 links
    // partitions unchanged (docs/performance.md, "sync", "A lake at two years"). A recorded partition
    // is its store's rows (a stopped merge's are made so by #finishMerge, a lost one's by #forgetLost,
    // before any merge), so a store that would come out the same leaves both files as they are.
    if (unlessUnchanged && stored !== undefined && this.#state.streams.links?.taken?.[String(week)] !== undefined && sameBytes(chunks, stored)) {
      this.#state = withPartitionTaken(this.#state, 'links', week, taken, partial);
      return false;
    }
    await this.#lake.write(storePath, chunks);
    // A new line parsed as the writer takes it: it lives only while the writer holds it.
    await this.#writeRows({ stream: 'links', week }, async (write) => {
      for (let index = 0; index < lines.length; index += 1) await write(storedRows?.get(keys[index]!) ?? storeRow(lines[index]!, where));
    });
    this.#state = withPartitionTaken(this.#state, 'links', week, taken, partial);
    return true;
  }

  /**
   * The merge stores of `weeks`, to be taken in that order: each read asked for as many weeks ahead as
   * the lake wants (Destination.readsAhead), so an object store's round trips overlap. undefined for a
   * lake that reads on demand.
   */
  #storesAhead(weeks: readonly number[]): (week: number) => Promise<Buffer | undefined> | undefined {
    const depth = this.#lake.readsAhead;
    if (depth === 0) return () => undefined;
    const reads = new Map<number, Promise<Buffer | undefined>>();
    let next = 0;
    const fill = () => {
      for (; next < weeks.length && reads.size < depth; next += 1) {
        const read = this.#lake.read(linksStorePath(weeks[next]!));
        // A failure is met when its week's turn comes; one never reached (the run failed first) is dropped.
        read.catch(() => undefined);
        reads.set(weeks[next]!, read);
      }
    };
    return (week) => {
      fill();
      const read = reads.get(week);
      reads.delete(week);
      fill();
      return read;
    };
  }

  /**
   * Finishes a merge a stopped run left (LINKS_MERGING): each partition it was writing is written again
   * from its merge store, and each link it was moving stays only in the partition the index names (its
   * old one or its new one), or, when that partition never received it, in the one that did. Before
   * anything else a run does, so no later run meets a link in two partitions or a partition behind its
   * store, whatever weeks it fetches.
   */
  async #finishMerge(): Promise<void> {
    const text = await this.#lake.read(LINKS_MERGING);
    if (text === undefined) return;
    const merge = parseMerging(text.toString('utf8'), `${this.#lake.where}/${LINKS_MERGING}`);
    if (merge.weeks.length === 0 && merge.moves.size === 0) return;
    const index = await this.#linksIndex();
    const storeKeys = new Map<number, Set<string>>();
    const holds = async (week: number, key: string): Promise<boolean> => {
      let keys = storeKeys.get(week);
      if (!keys) {
        keys = new Set();
        const where = this.#storeName(week);
        for (const line of storeLines(await this.#lake.read(linksStorePath(week)))) keys.add(linkKey(storeRow(line, where)));
        storeKeys.set(week, keys);
      }
      return keys.has(key);
    };
    const leaving = new Map<number, Set<string>>(merge.weeks.map((week) => [week, new Set<string>()]));
    let reindexed = false;
    for (const [key, weeks] of merge.moves) {
      const named = index.get(key) ?? weeks[0];
      // The index may name a week whose partition never received the link: a new link enters the index
      // before its partition, and a run stopped in between leaves it there; a later run that moved it
      // from that week and stopped before the index said so has it only in its new partition. Taken
      // out of that one, it would be in none.
      const holding: number[] = [];
      for (const week of weeks) if (await holds(week, key)) holding.push(week);
      const kept = holding.length === 0 || holding.includes(named) ? named : holding.at(-1)!;
      if (kept !== named) {
        index.set(key, kept);
        reindexed = true;
      }
      for (const week of weeks) {
        if (week === kept) continue;
        leave(leaving, week, key);
      }
    }
    if (reindexed) {
      await this.#lake.write(LINKS_INDEX, async (out) => writeIndexText(index, out));
      this.#indexUnwritten = false;
      // The index names each link's partition before any link leaves one (writeState waits for it).
      await this.#saveState(true);
    }
    const taken = takenText(new Date());
    const weeks = [...leaving.keys()].sort((a, b) => a - b);
    // Which of the merge's partitions the lake holds, asked once (an object store lists the whole lake
    // to say), and only when a week turns out to have no store. The loop writes no week's partition
    // before it has asked about that week, so one answer, taken at the first week that asks, holds for
    // every week after it.
    let absent: Set<string> | undefined;
    const partitionLanded = async (week: number): Promise<boolean> => {
      absent ??= await this.#lake.missing(weeks.map((each) => partitionPath({ stream: 'links', week: each })));
      return !absent.has(partitionPath({ stream: 'links', week }));
    };
    for (const week of weeks) {
      // A partition and its store are published side by side, and either may land first: a partition
      // whose store never landed holds rows no store has, which stayed there, each then twice in the
      // lake, when their links moved to another week. Emptied, as a lost store's is (#forgetLost); its
      // week was not recorded as merged, so its links are fetched again.
      const rewritten = (await this.#rewriteLinks(week, undefined, leaving.get(week), taken))
        || ((await partitionLanded(week)) && (await this.#rewriteLinks(week, new Map(), undefined, taken)));
      if (!rewritten) {
        // A partition the stopped merge never wrote (no store): listed as partial before it was to land.
        this.#state = withPartitionAbsent(this.#state, 'links', week);
        continue;
      }
      const partial = partialWeeks(this.#state, 'links').includes(week);
      this.#counted({ stream: 'links', week, ...(partial && { partial: true }) });
    }
    await this.#saveState(true);
    await this.#lake.write(LINKS_MERGING, [Buffer.from(NO_MERGE)]);
  }

  /**
   * Merges the links held into their partitions: each partition's rows so far (from the store) and the
   * new ones, one row a key, in key order, so the bytes do not depend on the order weeks were fetched.
   * Only then are the weeks that found them recorded.
   *
   * A link whose mentionDate now names another week moves: into its new partition, out of its old one,
   * and its week in the index, files no single write makes whole; and each partition is two files, its
   * merge store and the Parquet made from it. So a link is never taken out of a partition before it is
   * in its new one and the index says so, and the merge is written down (LINKS_MERGING) before any
   * partition changes: a run stopped anywhere in between (SIGKILL, a full disk) leaves each link in its
   * old partition, its new one, or both, and the next run, whatever it fetches, first writes the
   * merge's partitions again from their stores and keeps each moving link only in the partition the
   * index names (#finishMerge). New links enter the index before their partitions, so a stopped merge
   * never leaves a link in the lake that the index does not know.
   */
  async #mergeLinks(): Promise<void> {
    if (this.#linksWeeks.length === 0) return;
    const taken = takenText(new Date());
    const index = await this.#linksIndex();
    const leaving = new Map<number, Set<string>>();
    const moving = new Map<string, readonly [number, number]>();
    // forEach, not for-of over entries: no [key, week] array a link while the loop is not optimised.
    let indexed = false;
    this.#linkWeeks.forEach((week, key) => {
      const before = index.get(key);
      if (before === undefined) {
        index.set(key, week);
        indexed = true;
      }
      if (before === undefined || before === week) return;
      leave(leaving, before, key);
      moving.set(key, [before, week]);
    });
    const weeks = [...new Set([...this.#links.keys(), ...leaving.keys()])].sort((a, b) => a - b);
    // Partitions of weeks not yet complete are recorded as partial before they change (#writePartition).
    for (const week of this.#links.keys()) if (week >= this.#currentWeek) this.#state = withPartialListed(this.#state, 'links', week);
    await this.#lake.write(LINKS_MERGING, [Buffer.from(mergingText({ weeks, moves: moving }))]);
    // The whole index (every link of the lake) written again only when a link is new to it.
    if (indexed || this.#indexUnwritten) await this.#lake.write(LINKS_INDEX, async (out) => writeIndexText(index, out));
    this.#indexUnwritten = false;
    // The merge written down and the index landed before any partition changes (writeState waits for both).
    await this.#saveState(true);
    const written = new Set<number>();
    const gaining = [...this.#links.keys()].sort((a, b) => a - b);
    const storeOfGaining = this.#storesAhead(gaining);
    for (const week of gaining) {
      if (await this.#rewriteLinks(week, this.#links.get(week), undefined, taken, true, storeOfGaining(week))) written.add(week);
    }
    if (moving.size > 0) {
      moving.forEach(([, week], key) => index.set(key, week));
      await this.#lake.write(LINKS_INDEX, async (out) => writeIndexText(index, out));
      // Every link in its new partition, and the index saying so, before any leaves its old one.
      await this.#saveState(true);
      const losing = [...leaving.keys()].sort((a, b) => a - b);
      const storeOfLosing = this.#storesAhead(losing);
      for (const week of losing) {
        if (await this.#rewriteLinks(week, undefined, leaving.get(week), taken, true, storeOfLosing(week))) written.add(week);
      }
    }
    // Every partition landed before the merge is marked done.
    await this.#saveState(true);
    await this.#lake.write(LINKS_MERGING, [Buffer.from(NO_MERGE)]);
    for (const week of [...written].sort((a, b) => a - b)) {
      const partial = partialWeeks(this.#state, 'links').includes(week);
      this.#summary.written.push({ stream: 'links', week, ...(partial && { partial: true }) });
    }
    for (const task of this.#linksWeeks) {
      if (!task.partial) this.#state = withPartialCleared(withWeekDone(this.#state, 'links', task.week!), 'links', task.week!);
    }
    await this.#saveState();
    for (const task of this.#linksWeeks) this.options.onTask?.(task);
    this.#links = new Map();
    this.#heldAt = [];
    this.#heldLength = [];
    this.#heldKeys = [];
    this.#linkWeeks = new Map();
    this.#linksRows = 0;
    this.#linksWeeks = [];
  }
}
