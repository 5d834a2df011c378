/**
 * `newsstats sync DIR`: the CLI front-end of src/sync (the Singer tap is the other). Flags become the
 * engine's options; progress on a terminal, one summary line on stderr, exit 7 when some partitions
 * failed after retries (docs/sync.md).
 */
import { resolve } from 'node:path';
import { BOUNDS } from '../../api/types.js';
import { parseWeek } from '../../shared/weeks.js';
import { concurrencyFlag } from '../flags/concurrency.js';
import type { Context } from '../run/spec.js';
import { IncompleteRunError, UsageError } from '../run/errors.js';
import { integerFlag, parsedFlag, switchFlag, weekArgument, withDefault } from '../flags/options.js';
import { rankingFlags, rankingParams, validateRanking, type RankingFlags } from '../flags/ranking.js';
import { verb, type NounVerbs } from '../run/spec.js';

const { limit: _limit, ...rankingFilters } = rankingFlags();

/** How far sync and tap go by default: rankings of 200 people, details of the top 50. */
export const SYNC_DEFAULTS = { depth: 200, top: 50, linksLimit: 50 } as const;

/** People top's filters for the engine: the query less its weeks and limit, countries resolved. */
export async function syncFilters(ctx: Context, flags: RankingFlags) {
  const { startWeek: _start, endWeek: _end, limit: _limit, ...filters } = await rankingParams(ctx, flags, undefined);
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
}

/** The engine's own errors about the folder, its state or the plan are the user's to fix: exit 2. */
export function asUsageError(error: unknown): unknown {
  const name = error instanceof Error ? error.name : '';
  return ['StateError', 'PlanError', 'StreamListError', 'SingerInputError'].includes(name) ? new UsageError((error as Error).message) : error;
}

function describeTask(task: { stream: string; week?: number }): string {
  return task.week === undefined ? task.stream : `${task.stream} week=${task.week}`;
}

const sync = verb({
  name: '',
  summary: 'Keep a folder of weekly Parquet partitions up to date: rankings, country stats, links, reference tables',
  args: ['<dir>'],
  flags: {
    since: parsedFlag('--since <week>', 'first week to hold, YYYYWW (default: the last 12 completed weeks)', weekArgument(parseWeek)),
    streams: parsedFlag('--streams <list>', 'comma-separated: rankings, country_stats, links, people, countries, sources (default all)', (text) => text),
    depth: withDefault(integerFlag('--depth <n>', 'people in each weekly ranking', { min: 1, max: 10_000 }), SYNC_DEFAULTS.depth),
    top: withDefault(integerFlag('--top <n>', 'people per week whose country stats and links are read', { min: 1, max: 10_000 }), SYNC_DEFAULTS.top),
    linksLimit: withDefault(integerFlag('--links-limit <n>', 'links per person', BOUNDS.linksLimit), SYNC_DEFAULTS.linksLimit),
    refresh: parsedFlag('--refresh <week>', 'fetch this week again and rewrite its partitions', weekArgument(parseWeek)),
    includeCurrent: switchFlag('--include-current', 'also write the current, partial week (rewritten by every run, never recorded as done)'),
    concurrency: concurrencyFlag,
    ...rankingFilters,
  },
  examples: [
    'sync ./lake --streams rankings,people',
    'sync ./lake --since 202640 --streams rankings,country_stats --top 10',
    'sync ./lake --streams rankings --refresh 202645',
  ],
  prints: 'nothing',
  validate: ({ args: [dir], flags }) => {
    validateRanking(flags);
    return { dir, flags };
  },
  async run(ctx: Context, { dir, flags }) {
    const [{ runSync }, { parseStreamList, STREAM_NAMES }] = await Promise.all([import('../../sync/sync.js'), import('../../sync/streams.js')]);
    const started = performance.now();
    const target = resolve(ctx.io.cwd, dir);
    try {
      const streams = parseStreamList(flags.streams ?? STREAM_NAMES.join(','));
      await ctx.lifecycle.tuneV8('--optimize-for-size');
      const client = await ctx.deps.client({ concurrency: flags.concurrency });
      let progress = { tick() {}, done() {} };
      const summary = await runSync({
        client,
        dir: target,
        streams,
        since: flags.since,
        refresh: flags.refresh,
        includeCurrent: flags.includeCurrent === true,
        depth: flags.depth,
        top: flags.top,
        linksLimit: flags.linksLimit,
        concurrency: flags.concurrency,
        filters: await syncFilters(ctx, flags),
        onPlan: (tasks) => {
          if (tasks.length > 0) progress = ctx.report.progress('sync', tasks.length);
        },
        onTask: (task, error) => {
          progress.tick();
          if (error) ctx.report.note(`sync: ${describeTask(task)} failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      });
      progress.done();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const weeks = [...new Set(summary.written.flatMap((task) => (task.week === undefined ? [] : [task.week])))];
      const what = summary.written.length === 0
        ? 'up to date'
        : `wrote ${summary.written.length} partitions (${weeks.length} weeks${weeks.length > 0 ? ` ${weeks[0]}..${weeks.at(-1)}` : ''})`;
      const failed = summary.failed.length > 0 ? `, ${summary.failed.length} failed` : '';
      ctx.report.note(`sync: ${what}${failed}, ${summary.requests} requests, ${seconds} s, ${target}`);
      if (summary.failed.length > 0) {
        throw new IncompleteRunError(`${summary.failed.length} partitions failed after retries (${summary.failed.map(({ task }) => describeTask(task)).join(', ')}); what landed is recorded: run sync again to fetch what is missing`);
      }
    } catch (error) {
      throw asUsageError(error);
    }
  },
});

const syncNoun: NounVerbs = { verbs: [sync] };

export default syncNoun;
