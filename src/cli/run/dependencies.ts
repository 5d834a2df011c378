/**
 * What commands build on, each made on first use, as gh's Factory: the settings, the in-process
 * sandbox, the client, and the cached lists. Nothing here is created before a command asks for it,
 * so `newsstats config path` never loads undici and `newsstats weeks` never loads the profile store.
 */
import type { NewsStatsClient } from '../../api/client.js';
import type { RequestEvent } from '../../api/options.js';
import type { Country } from '../../api/types.js';
import type { ResolvedSettings } from '../../config/resolve.js';
import type { WeekInfoNumbers } from '../../shared/weeks.js';
import { ConfigurationError } from '../../api/errors.js';
import type { CachedListName } from './cache.js';
import { DEFAULT_CONCURRENCY } from '../flags/concurrency.js';
import { MissingKeyError } from './errors.js';
// Static: main.ts holds it already (an import() of it would load one more file for the same 20 bytes).
import { VERSION } from '../../shared/version.js';
import type { Lifecycle } from './lifecycle.js';
import type { GlobalOptions } from '../flags/global.js';
import type { Reporter } from './reporter.js';

/**
 * V8's budget (about the bytes of WebAssembly executed) before it optimises a function of undici's HTTP
 * parser: the largest it takes (openClient says why), and V8's own, which openClient sets back: 1.8
 * million in V8 11 (Node 20), 13 million from V8 12 (Node 22 to 26; test/unit/v8-flags.test.ts
 * compares it with this Node's `--v8-options`).
 */
const WASM_TIERING_BUDGET = 2 ** 31 - 1;
export const WASM_TIERING_BUDGET_DEFAULT = Number.parseInt(process.versions.v8, 10) < 12 ? 1_800_000 : 13_000_000;

/** A Retry-After wait at least this long is announced on stderr. */
const LONG_WAIT_MS = 3_000;

type Sandbox = { url: string; key: string; close(): Promise<void> };

export interface Connection {
  baseUrl: string;
  apiKey: string;
  settings: ResolvedSettings;
}

export class Dependencies {
  #settings?: ResolvedSettings;
  #client?: Promise<NewsStatsClient<'lossless'>>;
  #sandbox?: Promise<Sandbox>;
  #countries?: Promise<Country[]>;
  #weekInfo: Promise<WeekInfoNumbers> | undefined;
  #concurrency = DEFAULT_CONCURRENCY;
  /** A bulk run (export, sync, tap): undici's parser kept on Liftoff for the whole run (openClient). */
  #bulk = false;
  /** Some request of this run got a 2xx answer: the host has answered as a server of the API would. */
  #answered = false;
  readonly #requestListeners: Array<(event: RequestEvent) => void> = [];

  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
    readonly report: Reporter,
    readonly lifecycle: Lifecycle,
  ) {}

  /** Told of every attempt the run's client makes (the tap's METRIC messages time them). */
  onRequestEvent(listener: (event: RequestEvent) => void): void {
    this.#requestListeners.push(listener);
  }

  /** The API key once settings were read, for the reporter to mask; undefined before. */
  get knownSecret(): string | undefined {
    return this.#settings?.apiKey;
  }

  async settings(): Promise<ResolvedSettings> {
    if (!this.#settings) {
      const { resolveSettings } = await import('../../config/resolve.js');
      this.#settings = resolveSettings({ flags: this.globals, env: this.env });
      for (const warning of this.#settings.warnings) this.report.note(warning);
    }
    return this.#settings;
  }

  /** The in-process sandbox behind --sandbox, started on first use on an ephemeral loopback port. */
  sandbox(): Promise<Sandbox> {
    this.#sandbox ??= (async () => {
      const { startSandbox } = await import('../../sandbox/server.js');
      const sandbox = await startSandbox({ port: 0 });
      this.lifecycle.onCleanup(() => sandbox.close());
      this.report.note('newsstats: using the built-in sandbox: the data is synthetic, not the real service.');
      return sandbox;
    })();
    return this.#sandbox;
  }

  /** Base URL and key as the request core needs them; fails with how to set what is missing. */
  async connection(): Promise<Connection> {
    const settings = await this.settings();
    if (this.globals.sandbox) {
      const sandbox = await this.sandbox();
      return { baseUrl: sandbox.url, apiKey: sandbox.key, settings };
    }
    const { checkNamedProfile } = await import('../../config/resolve.js');
    checkNamedProfile(this.globals.profile, this.env);
    // The failure map (exit-codes.ts) adds how to set it, as for the library's own missing base URL.
    if (!settings.baseUrl) throw new ConfigurationError('baseUrl', 'missing', 'no base URL is set');
    if (!settings.apiKey) {
      throw new MissingKeyError(`no API key for profile "${settings.profile}"`);
    }
    return { baseUrl: settings.baseUrl, apiKey: settings.apiKey, settings };
  }

  /**
   * The run's client, made on first use. `concurrency` (how many requests the run keeps in flight,
   * and so how many connections the client opens) is given by the first call that makes it.
   */
  client(options: { concurrency?: number; bulk?: boolean } = {}): Promise<NewsStatsClient<'lossless'>> {
    if (options.bulk) this.#bulk = true;
    if (this.#client && options.concurrency !== undefined && options.concurrency !== this.#concurrency) {
      throw new Error('the client was made before its concurrency was given');
    }
    if (options.concurrency !== undefined) this.#concurrency = options.concurrency;
    this.#client ??= this.connection().then((connection) => this.openClient(connection));
    return this.#client;
  }

  /** A client for the given connection; `auth login` uses it to try a key before saving it. */
  async openClient(connection: Connection): Promise<NewsStatsClient<'lossless'>> {
    const { baseUrl, apiKey, settings } = connection;
    // undici parses HTTP with WebAssembly. V8 compiles it quickly first (Liftoff), then, once a
    // function has run through its tiering budget, optimises it on a background thread, and the process
    // cannot exit before that ends. A 74 KB ranking is enough to spend the default budget: the
    // optimisation then costs more CPU than all of the rest of the query on Node 24 (about 210 million
    // instructions of 465 in bench/query-dispatcher.mjs, counted under valgrind). A budget of the
    // largest int keeps the parser on Liftoff for any run a CLI makes in a few seconds (bulk runs:
    // below). `--liftoff-only`, set here before, is no
    // longer read after start-up on Node 22 and later; the budget is, on Node 20 to 26. The library
    // leaves V8's flags to the program embedding it.
    // V8 gives each function of the parser its budget when undici instantiates it, on the first
    // connection. The flag is set after undici and the Node modules it needs are loaded, and set back
    // to V8's default once the first answer arrived: a flag off its default changes the hash every
    // code cache is checked against, and the modules loaded meanwhile would be compiled from source
    // (net, assert and perf_hooks: 29 million instructions of the query on Node 24; Lifecycle.tuneV8).
    const { NewsStatsClient } = await import('../../api/client.js');
    // A bulk run (export, sync, tap) parses hundreds of answers, enough to spend any budget: V8 then
    // optimised the parser after all, and `export links --top 480` peaked at 111-128 MiB instead of
    // 86-95 (bisected to the budget replacing --liftoff-only, d0ef796). There the parser stays on
    // Liftoff for the whole run: tier-up off before undici compiles it (--liftoff-only itself is read
    // at start-up only on Node 22 and later), at no cost in CPU (npm run bench:export-memory).
    if (this.#bulk) await this.lifecycle.tuneV8('--no-wasm-tier-up --no-wasm-dynamic-tiering', '--wasm-tier-up --wasm-dynamic-tiering');
    // NEWSSTATS_NO_STARTUP_MACHINERY=1 leaves the budget at V8's default (docs/performance.md, "Start-up machinery").
    const parserInstantiated = this.#bulk || this.env.NEWSSTATS_NO_STARTUP_MACHINERY
      ? () => {}
      : await this.lifecycle.tuneV8(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`, `--wasm-tiering-budget=${WASM_TIERING_BUDGET_DEFAULT}`);
    const client = new NewsStatsClient({
      baseUrl,
      apiKey,
      numbers: 'lossless',
      userAgent: `newsstats/${VERSION}`,
      allowInsecureHttp: settings.allowInsecureHttp,
      // The run's environment, not necessarily the process's (main() may run in-process).
      env: this.env,
      maxConnections: this.#concurrency,
      timeoutMs: settings.timeout * 1000,
      maxRetries: settings.retries,
      maxResponseBytes: settings.maxResponseMb * 1024 * 1024,
      ...(settings.maxRequestsPerSecond !== undefined && { maxRequestsPerSecond: settings.maxRequestsPerSecond }),
      onEvent: (event: RequestEvent) => {
        if (event.status !== undefined) parserInstantiated();
        this.#reportEvent(baseUrl, event);
        for (const listener of this.#requestListeners) listener(event);
      },
    });
    this.lifecycle.onCleanup((reason) => (reason === 'interrupted' ? client.destroy() : client.close()));
    return client;
  }

  /**
   * After a 404 or a misshapen 200 (#31): whether the host is the API at all, when nothing of this run
   * says so yet. The week info, checked against the contract: the run's own when it came back, else
   * one request; undefined when it cannot tell (no client was made, or the check itself failed
   * otherwise). A 404 after a 2xx of this run is the API's own (a plain web server's 2xx would have
   * been HTML and ended the run already).
   */
  async isNotTheApi(after: 'notFound' | 'misshapen'): Promise<{ baseUrl: string } | undefined> {
    if ((after === 'notFound' && this.#answered) || !this.#client) return undefined;
    // The week info this run already asked for (weekInfo) answers the question when it came back, checked
    // against the contract: the week info is asked once a run, this check included.
    if (this.#weekInfo && (await this.#weekInfo.then(() => true, () => false))) return undefined;
    const client = await this.#client.catch(() => undefined);
    if (!client) return undefined;
    const { NotFoundError, ResponseFormatError } = await import('../../api/errors.js');
    try {
      await client.weeks.current();
      return undefined;
    } catch (error) {
      // The week info is not there, or not JSON: no server of the API answers so.
      const notTheApi = (error instanceof NotFoundError && error.problem === undefined) || error instanceof ResponseFormatError;
      return notTheApi ? { baseUrl: client.baseUrl } : undefined;
    }
  }

  #reportEvent(baseUrl: string, event: RequestEvent): void {
    if (event.status !== undefined && event.status >= 200 && event.status <= 299 && !event.error) this.#answered = true;
    // Requests Ctrl-C cut off fail as the client is destroyed: their consequence, not news.
    if (this.lifecycle.interrupted) return;
    if (event.retryAfter && event.retryInMs !== undefined && event.retryInMs >= LONG_WAIT_MS) {
      // A silent minute looks like a hang; -q still silences it.
      // Retry-After comes with 503 (down for maintenance) as well as 429: say which it was.
      const why = event.status === 503 ? 'service unavailable' : 'rate limited';
      this.report.note(`${why}: waiting ${Math.round(event.retryInMs / 1000)} s as the service asked`);
    }
    if (event.invalidUtf8) {
      // The text was altered (each bad byte became U+FFFD): once per answer, naming it, -q silences it.
      this.report.note(`the answer to ${event.method} ${event.url} held bytes that are not UTF-8; they are shown as U+FFFD (�)`);
    }
    if (!this.globals.verbose) return;
    const outcome = event.error ? `failed: ${event.error.message}` : String(event.status);
    // attempt counts from 1: the first retry is attempt 2.
    const retry = event.attempt > 1 ? ` (retry ${event.attempt - 1})` : '';
    const next = event.retryInMs !== undefined ? `, retrying in ${Math.round(event.retryInMs)}ms` : '';
    // event.url is the path as sent, the base URL's own path (`/prefix`, a pasted `/api/data`) already in
    // it: the origin goes before it, never the base URL as given, so the line is the URL a curl would need.
    this.report.debug(`${event.method} ${new URL(baseUrl).origin}${event.url} ${outcome} ${Math.round(event.ms)}ms${retry}${next}`);
  }

  /** A stable list (countries, sources) from the disk cache when fresh, else fetched and stored (cache.ts). */
  async cachedList(name: CachedListName, fetchList: () => Promise<unknown>): Promise<unknown> {
    const { cachedList } = await import('./cache.js');
    return cachedList({ settings: await this.settings(), globals: this.globals, env: this.env, report: this.report }, name, fetchList);
  }

  /**
   * The service's current week and the start of its last-4 window, asked for at most once a run:
   * every relative window (movers resolves two), the default window and a caption's partial week
   * share this one request.
   */
  weekInfo(): Promise<WeekInfoNumbers> {
    this.#weekInfo ??= this.client().then(async (client) => {
      const info = await client.weeks.current();
      // Numbers arrive as LosslessNumber in the CLI; week arithmetic needs plain numbers.
      return { currentWeek: Number(String(info.currentWeek)), last4StartWeek: Number(String(info.last4StartWeek)) };
    });
    return this.#weekInfo;
  }

  /** The countries list, from the cache when fresh, else from the API. */
  countries(): Promise<Country[]> {
    this.#countries ??= (async () => {
      const client = await this.client();
      return countriesOf(await this.cachedList('countries', () => client.countries.list()));
    })();
    return this.#countries;
  }

  /**
   * The countries list last cached for this profile and base URL, however old, and never a request:
   * undefined when none is (for `sync --plan`, which sends nothing).
   */
  async lastCachedCountries(): Promise<Country[] | undefined> {
    const [{ lastCachedList }, settings] = await Promise.all([import('./cache.js'), this.settings()]);
    const list = await lastCachedList(settings, this.env, 'countries').catch(() => undefined);
    return list === undefined ? undefined : countriesOf(list);
  }
}

/** A countries list's answer as the matching of country names needs it. */
async function countriesOf(list: unknown): Promise<Country[]> {
  const { answerId } = await import('../../api/answer-integers.js');
  return (list as Array<Record<string, unknown>>).map((country) => ({
    countryId: answerId(country.countryId, 'countryId', '/api/data/countries'),
    countryName: String(country.countryName ?? ''),
    countryIso: String(country.countryIso ?? ''),
  }));
}
