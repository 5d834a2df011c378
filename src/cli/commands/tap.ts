/**
 * `newsstats tap`: the Singer front-end of src/sync (`sync` is the other). Reads a Singer config (and
 * optionally a state and a catalog), prints SCHEMA, RECORD and STATE messages on stdout, one JSON value
 * a line, numbers with every digit. `--discover` prints the catalog. docs/sync.md has the details.
 */
import { resolve } from 'node:path';
import { BOUNDS } from '../../api/types.js';
import { InputFileError, readInputFile } from '../../shared/input-file.js';
import { openRowSink, renderView, type RenderOptions } from '../../output/index.js';
import { parseWeek } from '../../shared/weeks.js';
import { DEFAULT_CONCURRENCY } from '../flags/concurrency.js';
import type { Context } from '../run/spec.js';
import { IncompleteRunError, UsageError } from '../run/errors.js';
import { EXIT } from '../run/exit-codes.js';
import { parseInteger, switchFlag, textFlag } from '../flags/options.js';
import type { RankingFlags } from '../flags/ranking.js';
import { verb, type NounVerbs } from '../run/spec.js';
import { asUsageError, SYNC_DEFAULTS, syncFilters } from './sync.js';

/** Machine output: no terminal niceties, whatever stdout is. */
const MESSAGES: RenderOptions = { format: 'ndjson', header: true, color: false, isTTY: false, width: 80, unicode: false };

/** No config, state or catalog of a tap comes near this (a full catalog is about 30 KiB). */
export const MAX_TAP_FILE_BYTES = 8 * 1024 * 1024;

/**
 * A tap's input file as JSON: read by the one reader of user files (shared/input-file.ts), so a FIFO,
 * /dev/zero or /dev/urandom is refused at once and no file is read past MAX_TAP_FILE_BYTES; a BOM is
 * skipped. Every failure is one usage line naming the flag and the file (exit 2).
 */
function readJsonFile(flag: string, path: string, cwd: string): unknown {
  let text: string;
  try {
    text = readInputFile(resolve(cwd, path), { maxBytes: MAX_TAP_FILE_BYTES, label: `${flag} ${path}`, strictUtf8: true });
  } catch (error) {
    if (error instanceof InputFileError) throw new UsageError(error.message);
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${flag} ${path} is not JSON`);
  }
}

/** The config's `streams`: a list of names, or one comma-separated string; anything else named. */
function configStreams(config: TapConfig): string | string[] | undefined {
  const value = config.streams;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) throw new UsageError(`config key streams must be a list of stream names or one comma-separated string, not ${JSON.stringify(value)}`);
  value.forEach((item: unknown, index) => {
    if (typeof item !== 'string') throw new UsageError(`config key streams[${index}] must be a stream name, not ${JSON.stringify(item)}`);
  });
  return value as string[];
}

/** The config keys a tap takes, each with how it is read (the same bounds as the sync flags). */
const CONFIG_KEYS = [
  'base_url', 'api_key', 'start_week', 'streams', 'depth', 'top', 'links_limit', 'concurrency',
  'fresh', 'country', 'from_country', 'gender', 'min_age', 'max_age', 'category', 'sort',
] as const;

type TapConfig = Partial<Record<(typeof CONFIG_KEYS)[number], unknown>>;

function configText(config: TapConfig, key: keyof TapConfig): string | undefined {
  const value = config[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new UsageError(`config key ${key} must be a string or a number, not ${JSON.stringify(value)}`);
  return String(value);
}

function configInteger(config: TapConfig, key: keyof TapConfig, bounds: { min?: number; max?: number }): number | undefined {
  const text = configText(config, key);
  if (text === undefined) return undefined;
  try {
    return parseInteger(`config key ${key}`, text, bounds);
  } catch (error) {
    // The flag parser's error is commander's, which commander would have printed itself.
    throw new UsageError((error as Error).message.replace(/\.$/, ''));
  }
}

/** The ranking filters of a config, as the sync flags would give them. */
function rankingFlagsOf(config: TapConfig): RankingFlags {
  const sort = configText(config, 'sort');
  if (sort !== undefined && sort !== 'mentions' && sort !== 'dominance') throw new UsageError(`config key sort must be mentions or dominance, not "${sort}"`);
  return {
    fresh: config.fresh === true || config.fresh === 'true' || undefined,
    country: configText(config, 'country'),
    fromCountry: configText(config, 'from_country'),
    gender: configInteger(config, 'gender', { min: 0 }),
    minAge: configInteger(config, 'min_age', { min: 0, max: 150 }),
    maxAge: configInteger(config, 'max_age', { min: 0, max: 150 }),
    category: configText(config, 'category'),
    sort,
  };
}

const tap = verb({
  name: '',
  summary: 'A Singer tap: SCHEMA, RECORD and STATE messages of the sync streams on stdout',
  flags: {
    // The short forms and --properties are singer-python's (parse_args), which orchestrators and
    // scripts written for Python taps pass.
    config: textFlag('-c, --config <file>', 'Singer config (JSON): base_url, api_key, start_week, streams, depth, top, links_limit, ranking filters'),
    state: textFlag('-s, --state <file>', 'Singer state (JSON): the value of the last STATE message; only later weeks are fetched'),
    catalog: textFlag('--catalog <file>', 'Singer catalog (JSON): the streams selected in it are fetched'),
    properties: textFlag('-p, --properties <file>', 'the older name of --catalog, as Python taps still take it'),
    discover: switchFlag('-d, --discover', 'print the catalog of streams and their schemas, and fetch nothing'),
  },
  examples: [
    'tap --discover > catalog.json',
    'tap --config tap-config.json --state state.json | target-csv',
  ],
  prints: 'messages',
  validate: ({ flags }) => {
    if (!flags.discover && flags.config === undefined) throw new UsageError('tap needs --config FILE (or --discover)', 'a config can be as small as {"start_week": 202601}');
    if (flags.catalog !== undefined && flags.properties !== undefined) throw new UsageError('give --catalog or --properties, not both: --properties is the older name of --catalog');
    return flags;
  },
  async run(ctx: Context, flags) {
    const singer = await import('../../sync/singer.js');
    if (flags.discover) {
      const catalog = singer.discoverCatalog();
      await renderView({ data: catalog, fields: [] }, { ...MESSAGES, format: 'json' }, ctx.io.stdout);
      return;
    }
    try {
      const config = readJsonFile('--config', flags.config!, ctx.io.cwd) as TapConfig;
      if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new UsageError(`--config ${flags.config} is not a JSON object`);
      const unknown = Object.keys(config).filter((key) => !(CONFIG_KEYS as readonly string[]).includes(key));
      if (unknown.length > 0) throw new UsageError(`unknown config key ${unknown.join(', ')}; the keys are ${CONFIG_KEYS.join(', ')}`);
      const state = flags.state === undefined ? undefined : singer.checkState(readJsonFile('--state', flags.state, ctx.io.cwd));
      const { parseStreamList, STREAM_NAMES } = await import('../../sync/streams.js');
      const [catalogFlag, catalogFile] = flags.properties === undefined ? ['--catalog', flags.catalog] : ['--properties', flags.properties];
      const catalog = catalogFile === undefined ? undefined : singer.parseCatalog(readJsonFile(catalogFlag, catalogFile, ctx.io.cwd));
      const streams = catalog?.streams ?? parseStreamList(configStreams(config) ?? STREAM_NAMES.join(','));
      if (streams.length === 0) throw new UsageError(`${catalogFlag} ${catalogFile} selects no stream; mark one with "selected": true in its breadcrumb [] metadata`);
      for (const note of catalog?.notes ?? []) ctx.report.note(note);
      const startText = configText(config, 'start_week');
      // The config's connection comes first, as a flag and the key variable would: else the usual sources.
      const baseUrl = configText(config, 'base_url');
      const apiKey = configText(config, 'api_key');
      if (baseUrl !== undefined) ctx.globals.baseUrl = baseUrl;
      if (apiKey !== undefined) ctx.env.NEWSSTATS_API_KEY = apiKey;
      // Every value is checked before the first request.
      const query = {
        startWeek: startText === undefined ? undefined : parseWeek(startText),
        depth: configInteger(config, 'depth', { min: 1, max: 10_000 }) ?? SYNC_DEFAULTS.depth,
        top: configInteger(config, 'top', { min: 1, max: 10_000 }) ?? SYNC_DEFAULTS.top,
        linksLimit: configInteger(config, 'links_limit', BOUNDS.linksLimit) ?? SYNC_DEFAULTS.linksLimit,
        concurrency: configInteger(config, 'concurrency', { min: 1, max: 32 }) ?? DEFAULT_CONCURRENCY,
      };
      const ranking = rankingFlagsOf(config);
      const client = await ctx.deps.client({ concurrency: query.concurrency, bulk: true });
      const sink = await openRowSink(ctx.io.stdout, MESSAGES, { fields: [] });
      const metrics = new singer.MetricWriter(ctx.io.stderr);
      ctx.deps.onRequestEvent((event) => metrics.request(event));
      // What a stopped run kept: the last STATE sent holds every partition before it.
      let kept = { partitions: 0, state: undefined as unknown };
      let stateSent = false;
      const keptLine = () => `the last STATE sent ${kept.state === undefined ? '(none yet) holds nothing: run again with the same state' : `holds ${kept.partitions} partition${kept.partitions === 1 ? '' : 's'} (${bookmarksText(kept.state)}): run again with it`}`;
      // A run ends early by a signal, or because stdout failed (a full disk behind `> file`): the
      // error line has named the failure; this one says which, and what the target may have kept.
      ctx.lifecycle.onCleanup((reason) => {
        if (reason !== 'interrupted') return;
        metrics.stop();
        const why = ctx.lifecycle.signal === undefined ? 'stopped: stdout could not be written' : `stopped by ${ctx.lifecycle.signal}`;
        ctx.io.stderr.write(`tap: ${why}; ${keptLine()}\n`);
      });
      // The target stopped reading: it has failed, and the orchestrator must see it (exit 6, as any
      // stdout that could not be written), told what the target may have kept.
      ctx.lifecycle.onClosedPipe(() => {
        ctx.io.stderr.write(`tap: stdout closed (the target stopped reading); ${keptLine()}\n`);
        return EXIT.outputFailed;
      });
      const summary = await singer.runTap({
        ...query,
        client,
        streams,
        fields: catalog?.fields,
        state,
        filters: await syncFilters(ctx, ranking),
        // Once stopped, nothing more is sent: answers already on their way would put RECORDs and a
        // STATE after the line, which then no longer named the last STATE the target got.
        write: (message) => {
          if (message.type === 'STATE') stateSent = !ctx.lifecycle.interrupted;
          return ctx.lifecycle.interrupted ? Promise.resolve() : sink.write(message);
        },
        log: (line) => {
          if (!ctx.lifecycle.interrupted) ctx.report.note(line);
        },
        metric: (metric) => metrics.write(metric),
        onState: (value, partitions) => {
          if (stateSent) kept = { partitions, state: value };
        },
      });
      await sink.end();
      // The stopped line is the run's last word (a signal's clean-up wrote it).
      if (ctx.lifecycle.interrupted) return;
      const skipped = summary.skipped.nullKey + summary.skipped.duplicate;
      ctx.report.note(`tap: ${summary.written.length} partitions, ${summary.records} records, ${summary.requests} requests${skipped > 0 ? `, ${skipped} rows skipped (above)` : ''}${summary.failed.length > 0 ? `, ${summary.failed.length} failed` : ''}`);
      if (summary.failed.length > 0) {
        throw new IncompleteRunError(`${summary.failed.length} partitions failed after retries; the STATE messages stop before them: run the tap again with its last state`);
      }
    } catch (error) {
      throw asUsageError(error);
    }
  },
});

/** A state's bookmarks in a few words: `rankings 202646, links 202645`. */
function bookmarksText(state: unknown): string {
  const bookmarks = (state as { bookmarks?: Record<string, { week?: number }> }).bookmarks ?? {};
  const shown = Object.entries(bookmarks).map(([stream, bookmark]) => `${stream} ${bookmark.week ?? '?'}`);
  return shown.length === 0 ? 'no bookmark' : shown.join(', ');
}

const tapNoun: NounVerbs = { verbs: [tap] };

export default tapNoun;
