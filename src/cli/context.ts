/**
 * What every command is handed: where output goes, the global flags, and lazily built services.
 * Nothing here is created before a command asks for it, so `newsstats config path` never loads undici
 * and `newsstats weeks` never loads the profile store.
 */
import type { NewsStatsClient } from '../api/client.js';
import type { RequestEvent } from '../api/options.js';
import type { Country } from '../api/types.js';
import type { ResolvedSettings } from '../config/resolve.js';
import { ConfigurationError } from '../api/errors.js';
import { redactSecret } from '../api/redact.js';
import { colorDepth, type ColorDepth } from '../output/color.js';
import { supportsHyperlinks } from '../output/hyperlink.js';
import { printable, terminalColumns, wrapToWidth } from '../output/text.js';
import { DEFAULT_CONCURRENCY } from './concurrency.js';
import { MissingKeyError } from './errors.js';
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
  /** Colour on stdout: --no-color, NO_COLOR, FORCE_COLOR and TERM=dumb decided. */
  color: boolean;
  /** How many colours stdout takes: 0, 16, 256 or 24-bit (output/color.ts). */
  colorDepth: ColorDepth;
  /** Colour on stderr, for notes: the same rules for that stream. */
  stderrColor: boolean;
  /** Terminal columns for tables and charts. */
  width: number;
  /** The locale is UTF-8: charts and sparklines may use block characters. */
  unicode: boolean;
  /** stdout draws OSC 8 hyperlinks (FORCE_HYPERLINK, or a terminal known to: output/hyperlink.ts). */
  hyperlinks: boolean;
  /** Where relative --output paths land. */
  cwd: string;
  /** The real process, for verbs that handle signals themselves; absent in-process. */
  process?: ProcessControl;
}

export function detectIo(main: MainIo, colorFlag: boolean): Io {
  const { env } = main;
  const stdoutIsTTY = main.isTTY.stdout;
  const stderrIsTTY = main.isTTY.stderr;
  const depth = colorDepth(env, stdoutIsTTY, colorFlag);
  const locale = env.LC_ALL || env.LC_CTYPE || env.LANG || '';
  return {
    stdout: main.stdout,
    // Getters, so the process's stderr and stdin are still built only when used (cli/io.ts).
    get stderr() {
      return main.stderr;
    },
    get stdin() {
      return main.stdin;
    },
    get stdinIsTTY() {
      return main.isTTY.stdin;
    },
    stdoutIsTTY,
    stderrIsTTY,
    color: depth > 0,
    colorDepth: depth,
    stderrColor: colorDepth(env, stderrIsTTY, colorFlag) > 0,
    // stdout's own width only when it is a terminal, else $COLUMNS, else 80 (output/text.ts).
    width: terminalColumns({ columns: stdoutIsTTY ? main.columns : undefined }, env),
    unicode: /utf-?8/i.test(locale),
    hyperlinks: supportsHyperlinks(env, stdoutIsTTY),
    cwd: main.cwd,
    ...(main.process && { process: main.process }),
  };
}

/** stderr's width when it is a terminal (a real tty stream knows its columns), else $COLUMNS, else 80. */
export function stderrColumns(stderr: NodeJS.WritableStream, env: NodeJS.ProcessEnv): number {
  return terminalColumns(stderr as { columns?: number }, env);
}

/** Numbers arrive as LosslessNumber in the CLI; arithmetic needs a plain number. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value));
}



export type CloseReason = 'done' | 'interrupted';

/** A Retry-After wait at least this long is announced on stderr. */
const LONG_WAIT_MS = 3_000;

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

  /**
   * A message for the person at the terminal: stderr, wrapped between words at the terminal's width,
   * dim when asked and colour is on; silent under --quiet. Not on a terminal (a log, cron's mail) a
   * message stays one line, so grep finds it whole.
   */
  note(message: string, options: { dim?: boolean; evenQuiet?: boolean } = {}): void {
    if (this.globals.quiet && options.evenQuiet !== true) return;
    const dim = options.dim === true && this.io.stderrColor;
    // A note may quote what the service sent (a field name, a title): no escape reaches the terminal.
    const text = message.split('\n').map(printable).join('\n');
    const lines = this.io.stderrIsTTY ? wrapToWidth(text, stderrColumns(this.io.stderr, this.env)) : [text];
    this.io.stderr.write(lines.map((line) => (dim ? `\x1b[2m${line}\x1b[22m` : line)).join('\n') + '\n');
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
    return redactSecret(text, this.#settings?.apiKey);
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
      for (const warning of this.#settings.warnings) this.note(warning);
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
    const { checkNamedProfile } = await import('../config/resolve.js');
    checkNamedProfile(this.globals.profile, this.env);
    // The failure map (exit-codes.ts) adds how to set it, as for the library's own missing base URL.
    if (!settings.baseUrl) throw new ConfigurationError('baseUrl', 'missing', 'no base URL is set');
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

  /**
   * Sets a V8 flag for the rest of the run, but only when the run owns its process (bin/newsstats.cjs):
   * a program that calls main() in-process, such as the test suite, keeps its own V8 settings.
   */
  async tuneV8(flag: string): Promise<void> {
    if (!this.io.process) return;
    const { setFlagsFromString } = await import('node:v8');
    setFlagsFromString(flag);
  }

  /** A client for the given connection; `auth login` uses it to try a key before saving it. */
  async openClient(connection: { baseUrl: string; apiKey: string; settings: ResolvedSettings }): Promise<NewsStatsClient<'lossless'>> {
    const { baseUrl, apiKey, settings } = connection;
    // undici parses HTTP with WebAssembly. V8 compiles it quickly first (Liftoff), then optimises it in
    // the background, and the process cannot exit before that optimisation ends: about 65 ms after the
    // output is written, and 35 MiB, for code a CLI runs a few hundred times at most. The flag must be
    // set before undici compiles its parser; the library leaves V8's flags to the program embedding it.
    await this.tuneV8('--liftoff-only');
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
      ...(settings.maxResponseMb !== undefined && { maxResponseBytes: settings.maxResponseMb * 1024 * 1024 }),
      ...(this.globals.maxRequestsPerSecond !== undefined && { maxRequestsPerSecond: this.globals.maxRequestsPerSecond }),
      onEvent: (event: RequestEvent) => {
        if (event.retryAfter && event.retryInMs !== undefined && event.retryInMs >= LONG_WAIT_MS) {
          // A silent minute looks like a hang; -q still silences it.
          // Retry-After comes with 503 (down for maintenance) as well as 429: say which it was.
          const why = event.status === 503 ? 'service unavailable' : 'rate limited';
          this.note(`${why}: waiting ${Math.round(event.retryInMs / 1000)} s as the service asked`);
        }
        if (!this.globals.verbose) return;
        const outcome = event.error ? `failed: ${event.error.message}` : String(event.status);
        // attempt counts from 1: the first retry is attempt 2.
        const retry = event.attempt > 1 ? ` (retry ${event.attempt - 1})` : '';
        const next = event.retryInMs !== undefined ? `, retrying in ${Math.round(event.retryInMs)}ms` : '';
        this.debug(`${event.method} ${baseUrl}${event.url} ${outcome} ${Math.round(event.ms)}ms${retry}${next}`);
      },
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
      const { answerId } = await import('./answer-integers.js');
      return (list as Array<Record<string, unknown>>).map((country) => ({
        countryId: answerId(country.countryId, 'countryId', '/api/data/countries'),
        countryName: String(country.countryName ?? ''),
        countryIso: String(country.countryIso ?? ''),
      }));
    })();
    return this.#countries;
  }
}
