/**
 * The settings table: every setting a run reads, written once with where it may come from (a global
 * flag, an environment variable, a profile key), how its text is parsed and bounded, its default and
 * its help text. The global flags (cli/run/registry.ts), `config set/get/list` and the profile keys
 * (store.ts), the reading of the environment and the profile (resolve.ts) and the help's defaults all
 * derive from it, so a bound or a default is never written twice.
 *
 * Leaf of the config layer: no commander, no CLI. A refused value is a SettingError saying what the
 * setting takes; each caller names where the text came from (the flag, the key, the config file).
 */
import { HTTP_DEFAULTS } from '../api/options.js';
import { parseIntegerText } from '../shared/numbers.js';

/**
 * A setting's value refused, naming the setting and what it takes. The config layer's own error (it
 * never throws the CLI's); exit 2, as a usage error (cli/run/exit-codes.ts).
 */
export class SettingError extends Error {
  override name = 'SettingError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** What a setting's parser refuses with: what it takes, without the name, which the caller adds. */
class Refusal extends Error {
  constructor(readonly takes: string, readonly hint?: string) {
    super(takes);
  }
}

export interface NumberBounds {
  /** Whole numbers only. */
  integer?: boolean;
  min?: number;
  /** Exclusive lower bound: "greater than". */
  above?: number;
  max?: number;
  /** What the number counts, for the message: "seconds", "MiB". */
  unit?: string;
  /** Said after the range, e.g. "e.g. 5 or 0.5", "0 turns the cache off". */
  note?: string;
}

/** What a number setting takes, in words, from its bounds: "an integer from 0 to 20". */
export function describeNumber(bounds: NumberBounds): string {
  const { integer, min, above, max, unit, note } = bounds;
  const what = integer ? (unit ? `a whole number of ${unit}` : 'an integer') : unit ? `a number of ${unit}` : 'a number';
  const range =
    min !== undefined && max !== undefined ? ` from ${min} to ${max}`
      : above !== undefined && max !== undefined ? ` greater than ${above}, at most ${max}`
        : above !== undefined ? ` greater than ${above}`
          : min !== undefined ? ` of at least ${min}`
            : max !== undefined ? ` of at most ${max}` : '';
  const noted = note === undefined ? '' : note.startsWith('e.g.') ? `, ${note}` : ` (${note})`;
  return `${what}${range}${noted}`;
}

const DECIMAL_TEXT = /^\d+(\.\d+)?$/;

/** The number `text` writes within bounds, or undefined: digits (and a point unless `integer`), never 1e3 or 0x10. */
function readNumber(text: string, bounds: NumberBounds): number | undefined {
  const value = bounds.integer ? parseIntegerText(text) : DECIMAL_TEXT.test(text.trim()) ? Number(text.trim()) : undefined;
  const inRange =
    value !== undefined &&
    (bounds.min === undefined || value >= bounds.min) &&
    (bounds.above === undefined || value > bounds.above) &&
    (bounds.max === undefined || value <= bounds.max);
  return inRange ? value : undefined;
}

/** A number within bounds, or a SettingError: `--limit takes an integer from 1 to 500`. */
export function parseNumber(text: string, bounds: NumberBounds, label: string): number {
  const value = readNumber(text, bounds);
  if (value === undefined) throw new SettingError(`${label} takes ${describeNumber(bounds)}`);
  return value;
}

function numberParser(bounds: NumberBounds): (text: string) => number {
  return (text) => {
    const value = readNumber(text, bounds);
    if (value === undefined) throw new Refusal(`takes ${describeNumber(bounds)}`);
    return value;
  };
}

function parseBaseUrl(text: string): string {
  if (text.trim() === '') throw new Refusal('must not be empty');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Refusal(`"${text}" is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Refusal('must start with https://');
  return text.replace(/\/+$/, '');
}

function nonEmptyText(text: string): string {
  if (text.trim() === '') throw new Refusal('must not be empty');
  return text;
}

function parseBoolean(text: string): boolean {
  if (text !== 'true' && text !== 'false') throw new Refusal('takes true or false');
  return text === 'true';
}

export interface SettingSpec<Value> {
  /** The profile key (`config set KEY VALUE`), when a profile may hold the setting. */
  readonly key?: string;
  /** The global flag, in commander's syntax (`--timeout <seconds>`), when there is one. */
  readonly flag?: string;
  /** The environment variable that sets it, when there is one. */
  readonly env?: string;
  /** One line for `--help`, `help environment` and `config`: what the setting does, without its default. */
  readonly help: string;
  /** The value when nothing sets it; absent when that is "none". */
  readonly default?: Value;
  /** How help shows the default when there is no value to show ("no limit"). */
  readonly defaultText?: string;
  /** The value of the text given to the flag, the variable or the profile; refuses saying what it takes. */
  readonly parse: (text: string) => Value;
  /** `config set` refuses the setting with this instead (the key is set with auth login). */
  readonly notSetWithConfig?: { message: string; hint: string };
}

const MIB = 1024 * 1024;

/** Every setting, in the order help lists them. */
export const SETTINGS = {
  profile: {
    flag: '--profile <name>',
    env: 'NEWSSTATS_PROFILE',
    help: 'config profile to use',
    default: 'default',
    parse: nonEmptyText,
  },
  baseUrl: {
    key: 'base-url',
    flag: '--base-url <url>',
    env: 'NEWSSTATS_BASE_URL',
    help: 'service base URL, e.g. https://stats.example.com (the API root is <base-url>/api/data)',
    parse: parseBaseUrl,
  },
  apiKey: {
    key: 'api-key',
    env: 'NEWSSTATS_API_KEY',
    help: 'the API key (set it with `newsstats auth login`; never printed)',
    parse: (text: string) => text,
    notSetWithConfig: {
      // On the command line the key would land in shell history.
      message: 'the key is not set with config',
      hint: 'run `newsstats auth login` (it asks without echo, or reads --with-key from stdin)',
    },
  },
  allowInsecureHttp: {
    key: 'allow-insecure-http',
    help: 'true to allow a plain http:// base URL that is not loopback (the key then crosses the network in clear text)',
    default: HTTP_DEFAULTS.allowInsecureHttp,
    parse: parseBoolean,
  },
  timeout: {
    key: 'timeout',
    flag: '--timeout <seconds>',
    help: 'deadline per attempt in seconds, connect to last byte',
    default: HTTP_DEFAULTS.timeoutMs / 1000,
    parse: numberParser({ above: 0, max: 3600, unit: 'seconds' }),
  },
  retries: {
    key: 'retries',
    flag: '--retries <n>',
    help: 'retries after a failed request',
    default: HTTP_DEFAULTS.maxRetries,
    parse: numberParser({ integer: true, min: 0, max: 20 }),
  },
  maxResponseMb: {
    key: 'max-response-mb',
    flag: '--max-response-mb <n>',
    help: 'largest response body accepted, in MiB; a larger one is abandoned with exit 5',
    default: HTTP_DEFAULTS.maxResponseBytes / MIB,
    parse: numberParser({ integer: true, min: 1, max: 4096, unit: 'MiB' }),
  },
  maxRequestsPerSecond: {
    flag: '--max-requests-per-second <n>',
    help: 'at most N requests a second (a 429 slows the run anyway)',
    defaultText: 'no limit',
    parse: numberParser({ above: 0, max: 10_000, note: 'e.g. 5 or 0.5' }),
  },
  pager: {
    key: 'pager',
    env: 'NEWSSTATS_PAGER',
    help: 'the pager for output taller than the terminal (then PAGER, then less -FRX); cat turns paging off, as --no-pager does',
    parse: nonEmptyText,
  },
  cacheTtl: {
    key: 'cache-ttl',
    help: 'how long cached countries and sources lists stay fresh, in hours; 0 disables the cache',
    default: 24,
    // The grammar has no sign: a number of hours is never below 0.
    parse: numberParser({ unit: 'hours', note: '0 turns the cache off' }),
  },
} as const satisfies Record<string, SettingSpec<unknown>>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValue<Name extends SettingName> = ReturnType<(typeof SETTINGS)[Name]['parse']>;

type KeyOf<Name extends SettingName> = (typeof SETTINGS)[Name] extends { key: infer Key extends string } ? Key : never;
/** The keys a profile may hold, from the table. */
export type ProfileKey = { [Name in SettingName]: KeyOf<Name> }[SettingName];

/** The value of a setting, or a SettingError naming `label` (the flag, the key) and what it takes. */
export function parseSetting<Name extends SettingName>(name: Name, text: string, label: string): SettingValue<Name> {
  try {
    return SETTINGS[name].parse(text) as SettingValue<Name>;
  } catch (error) {
    if (error instanceof Refusal) throw new SettingError(`${label} ${error.takes}`, error.hint);
    throw error;
  }
}

/** The default as help shows it: `30`, `no limit`; undefined when there is none to show. */
export function defaultText(spec: SettingSpec<unknown>): string | undefined {
  if (spec.defaultText !== undefined || spec.default === undefined) return spec.defaultText;
  return typeof spec.default === 'string' ? `"${spec.default}"` : String(spec.default);
}

/** A setting's help line with its default: `retries after a failed request (default 3)`. */
export function helpWithDefault(spec: SettingSpec<unknown>): string {
  const shown = defaultText(spec);
  return shown === undefined ? spec.help : `${spec.help} (default ${shown})`;
}

/** The settings a profile may hold, by key. */
export const PROFILE_SETTINGS: ReadonlyMap<ProfileKey, SettingName> = new Map(
  (Object.entries(SETTINGS) as Array<[SettingName, SettingSpec<unknown>]>)
    .filter(([, spec]) => spec.key !== undefined)
    .map(([name, spec]) => [spec.key as ProfileKey, name]),
);

export function isProfileKey(key: string): key is ProfileKey {
  return PROFILE_SETTINGS.has(key as ProfileKey);
}

/** The value as `config set` stores it (plain: ' 3 ' and '+3' become '3'), or a SettingError naming the key. */
export function validateSetting(key: ProfileKey, value: string): string {
  const name = PROFILE_SETTINGS.get(key)!;
  const spec: SettingSpec<unknown> = SETTINGS[name];
  if (spec.notSetWithConfig) throw new SettingError(spec.notSetWithConfig.message, spec.notSetWithConfig.hint);
  return String(parseSetting(name, value, key));
}

/** The profile keys with their help lines, for `help environment`, completion and `config`'s messages. */
export const PROFILE_KEYS: Readonly<Record<ProfileKey, string>> = Object.fromEntries(
  [...PROFILE_SETTINGS].map(([key, name]) => [key, helpWithDefault(SETTINGS[name])]),
) as Record<ProfileKey, string>;

/** A flag's long name: `--timeout` of `--timeout <seconds>`. */
export function longFlag(flag: string): string {
  return /--[\w-]+/.exec(flag)?.[0] ?? flag;
}

/** Where a setting may come from, first first: `--base-url > NEWSSTATS_BASE_URL > base-url`. */
export function precedence(spec: SettingSpec<unknown>): string {
  return [spec.flag && longFlag(spec.flag), spec.env, spec.key].filter((source) => source).join(' > ');
}

/**
 * The value a setting's environment variable gives, or undefined when it is unset, empty or blank
 * (`NEWSSTATS_BASE_URL= newsstats ...` means "not set", as shells treat it); a value it refuses is a
 * SettingError naming the variable.
 */
export function fromEnvironment<Name extends SettingName>(name: Name, env: NodeJS.ProcessEnv): SettingValue<Name> | undefined {
  const variable = (SETTINGS[name] as SettingSpec<unknown>).env;
  const text = variable === undefined ? undefined : env[variable];
  return text !== undefined && text.trim() !== '' ? parseSetting(name, text, variable!) : undefined;
}
