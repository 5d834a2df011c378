/**
 * `newsstats sync DIR`: the CLI front-end of src/sync (the Singer tap is the other). Flags become the
 * engine's options; progress on a terminal, one summary line on stderr, exit 7 when some partitions
 * failed after retries (docs/sync.md).
 */
import { BOUNDS } from '../../api/types.js';
import { addWeeks, describeWeeks, parseWeek } from '../../shared/weeks.js';
import { concurrencyFlag } from '../flags/concurrency.js';
import type { Context } from '../run/spec.js';
import { IncompleteRunError, UsageError } from '../run/errors.js';
import { configured, integerFlag, parsedFlag, switchFlag, textFlag, weekArgument, withDefault } from '../flags/options.js';
import { rankingFlags, rankingParams, validateRanking, type RankingFlags } from '../flags/ranking.js';
import { verb, type NounVerbs } from '../run/spec.js';
import { checkOutputPath } from '../run/output-plan.js';
import { OutputWriteError } from '../../output/write-error.js';
import { isSystemError } from '../../shared/system-error.js';
import type { SyncSummary } from '../../sync/sync.js';
import type { Destination } from '../../sync/destinations/destination.js';
import type { CountrySource } from '../flags/country-match.js';

const { limit: _limit, ...rankingFilters } = rankingFlags();

/** How far sync and tap go by default: rankings of 200 people, details of the top 50. */
export const SYNC_DEFAULTS = { depth: 200, top: 50, linksLimit: 50 } as const;

/** People top's filters for the engine: the query less its weeks and limit, countries resolved. */
export async function syncFilters(ctx: Context, flags: RankingFlags, countries?: CountrySource) {
  const { startWeek: _start, endWeek: _end, limit: _limit, ...filters } = await rankingParams(ctx, flags, undefined, countries);
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

/**
 * Where `--plan` matches a country given by name: the countries list last cached, never the service (a
 * plan sends nothing). An id needs no list.
 */
function plannedCountries(ctx: Context): CountrySource {
  const way = 'give the country\'s id, or run `newsstats countries list` once: --plan matches names against the list it caches';
  return {
    countries: async () => (await ctx.deps.lastCachedCountries()) ?? Promise.reject(new UsageError('--plan sends nothing, and no countries list is cached to match the country\'s name against', way)),
    client: () => Promise.reject(new UsageError('--plan sends nothing, and the country named is not in the cached countries list', way)),
  };
}

/** The engine's own errors about the folder, its state or the plan are the user's to fix: exit 2. */
export function asUsageError(error: unknown): unknown {
  const name = error instanceof Error ? error.name : '';
  return ['StateError', 'PlanError', 'StreamListError', 'SingerInputError', 'LakeError'].includes(name) ? new UsageError((error as Error).message) : error;
}

function describeTask(task: { stream: string; week?: number }): string {
  return task.week === undefined ? task.stream : `${task.stream} week=${task.week}`;
}

/** The one line a signal leaves: what this run wrote is kept, and the next run fetches the rest. */
function interruptedLine(kept: number, lakeName: string): string {
  return `sync: interrupted: ${kept} ${kept === 1 ? 'partition' : 'partitions'} written this run ${kept === 1 ? 'is' : 'are'} kept in ${lakeName}; the next run fetches what is missing`;
}

/** `--plan`'s text: a line a fetch, then what it costs; nothing is sent. */
function planText(summary: SyncSummary, where: string, top: number): string {
  const lines = summary.planned.map((task) => {
    if (task.week === undefined) return `fetch ${task.stream} (1 request), write ${task.stream}/week=${summary.currentWeek}/part-0.parquet`;
    const requests = task.stream === 'rankings' ? 'the week\'s ranking'
      : task.stream === 'links' ? `up to ${top} requests after the week's ranking, none for a person whose links this run already has`
      : `up to ${top} requests after the week's ranking`;
    const writes = task.stream === 'links' ? 'merge into links/week=<mentionDate\'s week>/' : `write ${task.stream}/week=${task.week}/part-0.parquet`;
    return `fetch ${describeTask(task)}${task.partial ? ' (partial: the current week)' : ''} (${requests}), ${writes}`;
  });
  const asked = summary.asksCurrentWeek === true ? 'a run asks the service for it first: 1 of these requests' : 'not asked';
  const assumed = summary.assumedCurrentWeek ? ` (assumed from the state and the local clock; ${asked})` : '';
  lines.push(`plan: ${summary.planned.length} fetches, at most ${summary.plannedRequests} requests, current week ${summary.currentWeek}${assumed}, ${where}; nothing sent`);
  return lines.join('\n') + '\n';
}

/**
 * Refuses a --summary that names one of a local lake's own files (its state, its lock, a partition, a
 * merge store): the account, written as the run starts, would replace the lake's state with itself and
 * leave a lake no run can read. A file elsewhere in the lake's folder is the user's (exit 2).
 */
async function refuseSummaryInLake(summary: string, cwd: string, lakeWhere: string, streams: readonly string[]): Promise<void> {
  if (lakeWhere.includes('://')) return;
  const [{ realpath }, path] = await Promise.all([import('node:fs/promises'), import('node:path')]);
  // Compared as the file system resolves them: the lake may be a link, or named by another path.
  const lakeFolder = await realpath(lakeWhere).catch(() => undefined);
  if (lakeFolder === undefined) return;
  const target = path.resolve(cwd, summary);
  const inLake = path.relative(lakeFolder, path.join(await realpath(path.dirname(target)), path.basename(target)));
  if (inLake.startsWith('..') || path.isAbsolute(inLake)) return;
  const top = inLake.split(path.sep)[0]!;
  if (top.startsWith('_newsstats') || streams.includes(top)) {
    throw new UsageError(`--summary ${summary} is one of the lake's own files in ${lakeWhere}`, 'write the account outside the lake\'s stream folders and _newsstats files, e.g. --summary sync-summary.json');
  }
}

/** The machine-readable account of a run (`--summary FILE`), written whatever the outcome. */
function summaryJson(where: string, outcome: string, summary: SyncSummary, seconds: number, notes: readonly string[], error?: unknown): string {
  return JSON.stringify({
    lake: where,
    outcome,
    currentWeek: summary.currentWeek ?? null,
    requests: summary.requests,
    seconds,
    planned: summary.planned.map((task) => ({ stream: task.stream, week: task.week ?? null, partial: task.partial === true })),
    written: summary.written.map((partition) => ({ stream: partition.stream, week: partition.week, partial: partition.partial === true })),
    failed: summary.failed.map(({ task, error: failure }) => ({ stream: task.stream, week: task.week ?? null, error: failure instanceof Error ? failure.message : String(failure) })),
    notes,
    ...(error !== undefined && { error: error instanceof Error ? error.message : String(error) }),
  }, null, 2) + '\n';
}

const sync = verb({
  name: '',
  summary: 'Keep a lake of weekly Parquet partitions up to date, in a folder or s3://bucket/prefix: rankings, country stats, links, reference tables',
  args: ['<dir>'],
  flags: {
    since: parsedFlag('--since <week>', 'first week to hold, YYYYWW (default: the last 12 completed weeks, up to --until)', weekArgument(parseWeek)),
    until: configured(parsedFlag('--until <week>', 'last week to hold, YYYYWW, a completed one (default: the last completed week): backfill a range of weeks', weekArgument(parseWeek)), (option) => option.conflicts('includeCurrent')),
    streams: parsedFlag('--streams <list>', 'comma-separated: rankings, country_stats, links, people, countries, sources (default all)', (text) => text),
    depth: withDefault(integerFlag('--depth <n>', 'people in each weekly ranking', { min: 1, max: 10_000 }), SYNC_DEFAULTS.depth),
    top: withDefault(integerFlag('--top <n>', 'people per week whose country stats and links are read', { min: 1, max: 10_000 }), SYNC_DEFAULTS.top),
    linksLimit: withDefault(integerFlag('--links-limit <n>', 'links per person, asked once a run', BOUNDS.linksLimit), SYNC_DEFAULTS.linksLimit),
    refresh: parsedFlag('--refresh <week>', 'fetch this week again and rewrite its partitions', weekArgument(parseWeek)),
    includeCurrent: switchFlag('--include-current', 'also write the current, partial week (never recorded as done; the first run after it ends replaces it with the complete week)'),
    concurrency: concurrencyFlag,
    plan: switchFlag('--plan', 'say what would be fetched and written, with request counts, and send nothing'),
    dryRun: switchFlag('--dry-run', 'the same as --plan'),
    summary: textFlag('--summary <file>', 'write a JSON account of the run there (what was planned, written and failed), whatever the outcome'),
    ...rankingFilters,
  },
  examples: [
    'sync ./lake --streams rankings,people',
    'sync ./lake --since 202640 --streams rankings,country_stats --top 10',
    'sync ./lake --streams rankings --refresh 202645',
    'sync ./lake --since 202601 --until 202613',
    'sync ./lake --plan',
  ],
  prints: 'nothing',
  validate: ({ args: [dir], flags }) => {
    validateRanking(flags);
    if (flags.since !== undefined && flags.until !== undefined && flags.since > flags.until) throw new UsageError(`--since ${flags.since} is after --until ${flags.until}`);
    // --dry-run is --plan under the name other tools give it: one flag from here on.
    return { dir, flags: { ...flags, plan: flags.plan === true || flags.dryRun === true } };
  },
  async run(ctx: Context, { dir, flags }) {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    let lakeName = dir;
    // Filled in by the engine as the run goes: a run a signal or an error stops still accounts for
    // what it planned, wrote and sent, in its one line and in --summary. Made once the engine is loaded.
    let summary: SyncSummary | undefined = undefined;
    let lake: Destination | undefined;
    // Set when --summary names one of the lake's own files: then no account is written there at all.
    let summaryRefused = false;
    // The run's notes about the lake and its weeks, in --summary too: an orchestrator runs with -q,
    // which keeps them off stderr.
    const notes: string[] = [];
    const note = (line: string) => {
      notes.push(line);
      ctx.report.note(line);
    };
    const writeSummaryNow = async (outcome: string, error: unknown, account: SyncSummary) => {
      const [{ openAtomicFile }, path] = await Promise.all([import('../../output/atomic.js'), import('node:path')]);
      // Whole or not at all (a temporary file renamed over it): a full disk never leaves half an
      // account for an orchestrator to parse.
      try {
        const file = await openAtomicFile(path.resolve(ctx.io.cwd, flags.summary!));
        try {
          file.stream.write(summaryJson(lakeName, outcome, account, Number(seconds().toFixed(1)), notes, error));
          await file.commit();
        } finally {
          await file.abort();
        }
      } catch (failure) {
        throw isSystemError(failure) ? new OutputWriteError(flags.summary!, failure) : failure;
      }
    };
    // One account at a time, and none after a signal's: the run goes on for a moment between a signal
    // and the exit, and its own accounts (`running` as it starts, `ok` as it ends), written beside the
    // clean-up's, replaced it when renamed last, so a run that exited 143 was left saying `running` or `ok`.
    let summaryWrites = Promise.resolve();
    let summaryFinal = false;
    const writeSummary = (outcome: string, error?: unknown, account: SyncSummary | undefined = summary): Promise<void> => {
      if (flags.summary === undefined || summaryRefused || summaryFinal || account === undefined) return Promise.resolve();
      if (outcome === 'interrupted') summaryFinal = true;
      const write = summaryWrites.then(() => writeSummaryNow(outcome, error, account));
      summaryWrites = write.catch(() => undefined);
      return write;
    };
    // A signal ends the run through the lifecycle's clean-ups: one line says what the lake kept.
    // Registered before anything is awaited: main() listens for signals just before run() starts, and a
    // signal while the engine's modules loaded found no clean-up, so the run exited 143 saying nothing.
    ctx.lifecycle.onCleanup(async (reason) => {
      if (reason !== 'interrupted') return;
      await lake?.close().catch(() => undefined);
      // The line and the account say the same: the partitions landed by now (more may land before the
      // exit; the next run finds them, as it finds any partition it did not record).
      const account: SyncSummary = summary === undefined ? { planned: [], plannedRequests: 0, written: [], failed: [], requests: 0 } : { ...summary, written: summary.written.slice() };
      ctx.report.note(interruptedLine(account.written.length, lakeName), { evenQuiet: true });
      // Not where --summary is refused (checked as the run starts, as the run's own accounts are).
      const summaryPlaceable = flags.summary === undefined || (() => {
        try {
          checkOutputPath(flags.summary, ctx.io.cwd, '--summary');
          return true;
        } catch {
          return false;
        }
      })();
      if (summaryPlaceable) await writeSummary('interrupted', undefined, account).catch(() => undefined);
    });
    const [{ emptySyncSummary, runSync }, { parseStreamList, STREAM_NAMES }, { destinationOf }] = await Promise.all([import('../../sync/sync.js'), import('../../sync/streams.js'), import('../../sync/destinations/index.js')]);
    summary = emptySyncSummary();
    try {
      // A place the account cannot go is refused before any request, as --output's is (exit 6).
      if (flags.summary !== undefined) checkOutputPath(flags.summary, ctx.io.cwd, '--summary');
      const streams = parseStreamList(flags.streams ?? STREAM_NAMES.join(','));
      // An object store's requests are bounded by the same --timeout as the API's.
      lake = await destinationOf(dir, ctx.io.cwd, { timeoutMs: (await ctx.deps.settings()).timeout * 1000, warn: note });
      lakeName = lake.where;
      // A signal before the lake was known found no lake to close: closed now, it takes no lock (an
      // s3:// lock taken after the clean-up stayed when the process exited).
      if (ctx.lifecycle.interrupted) await lake.close();
      if (flags.summary !== undefined) {
        await refuseSummaryInLake(flags.summary, ctx.io.cwd, lake.where, STREAM_NAMES).catch((error: unknown) => {
          summaryRefused = true;
          throw error;
        });
      }
      // Replaced by the outcome at the end: a run killed outright (SIGKILL, a machine gone) leaves
      // `running`, never the account of an earlier run for the orchestrator to take as this one's.
      await writeSummary('running');
      // A plan sends nothing, so it needs no key (nor a base URL): no client is made for it.
      const client = flags.plan ? undefined : await ctx.deps.client({ concurrency: flags.concurrency, bulk: true });
      // Once the run's modules are loaded: those loaded under a flag off its default are compiled from
      // source, Node's own too, and dist/'s are cached only under the flags they were loaded under
      // (Lifecycle.tuneV8).
      await ctx.lifecycle.tuneHeapForBulk();
      let progress = { tick() {}, done() {} };
      await runSync({
        summary,
        client,
        lake,
        streams,
        plan: flags.plan,
        since: flags.since,
        until: flags.until,
        refresh: flags.refresh,
        includeCurrent: flags.includeCurrent === true,
        depth: flags.depth,
        top: flags.top,
        linksLimit: flags.linksLimit,
        concurrency: flags.concurrency,
        // The way back to asking each week's top for their links, should a service answer by week.
        linksEveryWeek: ctx.env.NEWSSTATS_SYNC_LINKS_EVERY_WEEK === '1',
        filters: await syncFilters(ctx, flags, flags.plan ? plannedCountries(ctx) : undefined),
        onPlan: (tasks) => {
          if (tasks.length > 0 && !flags.plan) progress = ctx.report.progress('sync', tasks.length);
        },
        onTask: (task, error) => {
          progress.tick();
          if (error) ctx.report.note(`sync: ${describeTask(task)} failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      });
      progress.done();
      // A --since the service has not reached yet is no mistake (a job set up ahead of its first week),
      // but "up to date" alone said nothing of why nothing was fetched.
      const lastWeekToFetch = summary.currentWeek === undefined ? undefined : flags.includeCurrent === true ? summary.currentWeek : addWeeks(summary.currentWeek, -1);
      if (flags.since !== undefined && lastWeekToFetch !== undefined && flags.since > lastWeekToFetch) {
        note(`sync: --since ${flags.since} is after ${flags.includeCurrent === true ? 'the current week' : 'the last completed week'}, ${lastWeekToFetch}: no week of it to fetch yet`);
      }
      if (flags.plan) {
        await writeSummary('plan');
        return { text: planText(summary, lake.where, flags.top) };
      }
      const what = summary.written.length === 0
        ? 'up to date'
        : `wrote ${summary.written.length} ${summary.written.length === 1 ? 'partition' : 'partitions'} (${describeWeeks(summary.written.map((partition) => partition.week))})`;
      const failed = summary.failed.length > 0 ? `, ${summary.failed.length} failed` : '';
      // After a signal the clean-up's line is the run's last word: the run goes on for a moment before
      // the exit, and an "up to date" of a run with nothing left to write followed "interrupted".
      if (!ctx.lifecycle.interrupted) ctx.report.note(`sync: ${what}${failed}, ${summary.requests} ${summary.requests === 1 ? 'request' : 'requests'}, ${seconds().toFixed(1)} s, ${lake.where}`);
      await writeSummary(summary.failed.length > 0 ? 'incomplete' : 'ok');
      if (summary.failed.length > 0) {
        throw new IncompleteRunError(`${summary.failed.length} partitions failed after retries (${summary.failed.map(({ task }) => describeTask(task)).join(', ')}); what landed is recorded: run sync again to fetch what is missing`);
      }
    } catch (error) {
      if (!(error instanceof IncompleteRunError)) await writeSummary('failed', error).catch(() => undefined);
      throw asUsageError(error);
    }
  },
});

const syncNoun: NounVerbs = { verbs: [sync] };

export default syncNoun;
