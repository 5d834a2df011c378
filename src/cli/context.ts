/**
 * What every command is handed: where output goes, the global flags, and lazily built services.
 * Nothing here is created before a command asks for it, so `newsstats config path` never loads undici
 * and `newsstats weeks` never loads the profile store.
 */
import type { NewsStatsClient } from '../api/client.js';
import type { RequestEvent } from '../api/options.js';
import type { Country } from '../api/types.js';
import type { ResolvedSettings } from '../config/resolve.js';
import { DEFAULT_CONCURRENCY } from './concurrency.js';
import { MissingKeyError, UsageError } from './errors.js';
import type { InputStream, MainIo, ProcessControl } from './io.js';
import type { GlobalOptions } from './registry.js';
import type { CommandTreeSource } from './spec.js';

export type { GlobalOptions } from './registry.js';

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: InputStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout: --no-color, NO_COLOR and FORCE_COLOR decided. */
  color: boolean;
  /** Terminal columns for tables and charts. */
  width: number;
  /** The locale is UTF-8: charts and sparklines may use block characters. */
  unicode: boolean;
  /** Where relative --output paths land. */
  cwd: string;
  /** The real process, for verbs that handle signals themselves; absent in-process. */
  process?: ProcessControl;
}

export function detectIo(main: MainIo, colorFlag: boolean): Io {
  const { env } = main;
  const stdoutIsTTY = main.isTTY.stdout;
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  const color = colorFlag && env.NO_COLOR === undefined && (forced || (stdoutIsTTY && env.FORCE_COLOR === undefined));
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return {
    stdout: main.stdout,
    stderr: main.stderr,
    stdin: main.stdin,
    stdinIsTTY: main.isTTY.stdin,
    stdoutIsTTY,
    stderrIsTTY: main.isTTY.stderr,
    color,
    width: (stdoutIsTTY ? main.columns : undefined) || Number(env.COLUMNS) || 80,
    unicode: /utf-?8/i.test(locale),
    cwd: main.cwd,
    ...(main.process && { process: main.process }),
  };
}

/** Numbers arrive as LosslessNumber in the CLI; arithmetic needs a plain number. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value));
}



export type CloseReason = 'done' | 'interrupted';

type Sandbox = { url: string; key: string; close(): Promise<void> };

export class Context {
  #settings?: ResolvedSettings;
  #client?: Promise<NewsStatsClient<'lossless'>>;
  #sandbox?: Promise<Sandbox>;
  #countries?: Promise<Country[]>;
  #interrupted = false;
  #concurrency = DEFAULT_CONCURRENCY;
  readonly #cleanups: Array<(reason: CloseReason) => Promise<void> | void> = [];

  constructor(
    readonly io: Io,
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
    /** The command tree, for the verbs that describe it (completion). */
    readonly commands: CommandTreeSource = { nouns: async () => [], globalOptions: () => [] },
  ) {}

  /** A message for the person at the terminal: stderr, and silent under --quiet. */
  note(message: string): void {
    if (!this.globals.quiet) this.io.stderr.write(`${message}\n`);
  }

  /** Detail for --verbose: stderr only, the key masked (a URL may carry it as a query value). */
  debug(message: string): void {
    if (this.globals.verbose) this.io.stderr.write(`${this.redact(message)}\n`);
  }

  /**
   * The text with the key masked, wherever it came from: belt and braces for anything printed.
   * Settings not yet read means no code has touched the key, so nothing can carry it.
   */
  redact(text: string): string {
    const key = this.#settings?.apiKey;
    return key ? text.split(key).join('••••') : text;
  }

  /** Runs at the end of the run, and on Ctrl-C. */
  onCleanup(cleanup: (reason: CloseReason) => Promise<void> | void): void {
    this.#cleanups.push(cleanup);
  }

  /** True once Ctrl-C began closing the run: what fails after that is its consequence, not news. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Runs the cleanups, newest first. An interrupt drops connections rather than waiting for them. */
  async close(reason: CloseReason = 'done'): Promise<void> {
    if (reason === 'interrupted') this.#interrupted = true;
    const cleanups = this.#cleanups.splice(0).reverse();
    for (const cleanup of cleanups) await cleanup(reason);
  }

  async settings(): Promise<ResolvedSettings> {
    if (!this.#settings) {
      const { resolveSettings } = await import('../config/resolve.js');
      this.#settings = resolveSettings({ flags: this.globals, env: this.env });
    }
    return this.#settings;
  }

  /** The in-process sandbox behind --sandbox, started on first use on an ephemeral loopback port. */
  sandbox(): Promise<Sandbox> {
    this.#sandbox ??= (async () => {
      const { startSandbox } = await import('../sandbox/server.js');
      const sandbox = await startSandbox({ port: 0 });
      this.onCleanup(() => sandbox.close());
      this.note('newsstats: using the built-in sandbox: the data is synthetic, not the real service.');
      return sandbox;
    })();
    return this.#sandbox;
  }

  /** Base URL and key as the request core needs them; fails with how to set what is missing. */
  async connection(): Promise<{ baseUrl: string; apiKey: string; settings: ResolvedSettings }> {
    const settings = await this.settings();
    if (this.globals.sandbox) {
      const sandbox = await this.sandbox();
      return { baseUrl: sandbox.url, apiKey: sandbox.key, settings };
    }
    if (!settings.baseUrl) {
      throw new UsageError(
        'no base URL is set',
        'pass --base-url URL, set NEWSSTATS_BASE_URL, or run `newsstats config set base-url URL`; ' +
          'add --sandbox to try newsstats on synthetic data',
      );
    }
    if (!settings.apiKey) {
      throw new MissingKeyError(`no API key for profile "${settings.profileName}"`);
    }
    return { baseUrl: settings.baseUrl, apiKey: settings.apiKey, settings };
  }

  /**
   * The run's client, made on first use. `concurrency` (how many requests the run keeps in flight,
   * and so how many connections the client opens) is given by the first call that makes it.
   */
  client(options: { concurrency?: number } = {}): Promise<NewsStatsClient<'lossless'>> {
    if (this.#client && options.concurrency !== undefined && options.concurrency !== this.#concurrency) {
      throw new Error('the client was made before its concurrency was given');
    }
    if (options.concurrency !== undefined) this.#concurrency = options.concurrency;
    this.#client ??= this.connection().then((connection) => this.openClient(connection));
    return this.#client;
  }

  /** A client for the given connection; `auth login` uses it to try a key before saving it. */
  async openClient(connection: { baseUrl: string; apiKey: string; settings: ResolvedSettings }): Promise<NewsStatsClient<'lossless'>> {
    const { baseUrl, apiKey, settings } = connection;
    const [{ NewsStatsClient }, { VERSION }] = await Promise.all([import('../api/client.js'), import('../version.js')]);
    const client = new NewsStatsClient({
      baseUrl,
      apiKey,
      numbers: 'lossless',
      userAgent: `newsstats/${VERSION}`,
      allowInsecureHttp: settings.allowInsecureHttp,
      maxConnections: this.#concurrency,
      ...(settings.timeoutSeconds !== undefined && { timeoutMs: settings.timeoutSeconds * 1000 }),
      ...(settings.retries !== undefined && { maxRetries: settings.retries }),
      ...(this.globals.verbose && {
        onEvent: (event: RequestEvent) => {
          const outcome = event.error ? `failed: ${event.error.message}` : String(event.status);
          // attempt counts from 1: the first retry is attempt 2.
          const retry = event.attempt > 1 ? ` (retry ${event.attempt - 1})` : '';
          const next = event.retryInMs !== undefined ? `, retrying in ${Math.round(event.retryInMs)}ms` : '';
          this.debug(`${event.method} ${baseUrl}${event.url} ${outcome} ${Math.round(event.ms)}ms${retry}${next}`);
        },
      }),
    });
    this.onCleanup((reason) => (reason === 'interrupted' ? client.destroy() : client.close()));
    return client;
  }

  /** The countries list, from the cache when fresh (see cache.ts), else from the API. */
  countries(): Promise<Country[]> {
    this.#countries ??= (async () => {
      const client = await this.client();
      const { cachedList } = await import('./cache.js');
      const list = await cachedList(this, 'countries', () => client.countries.list());
      return (list as Array<Record<string, unknown>>).map((country) => ({
        countryId: toNumber(country.countryId),
        countryName: String(country.countryName ?? ''),
        countryIso: String(country.countryIso ?? ''),
      }));
    })();
    return this.#countries;
  }
}
