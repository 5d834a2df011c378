/**
 * Where each setting comes from: flag > environment > profile. Reading a profile parses the config
 * file directly rather than through conf, whose import alone costs about 100 ms: every API command
 * reads the profile, and only `config` and `auth` ever write it.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { closest, didYouMean } from '../shared/suggest.js';
import { ConfigFileError, configFilePath, parseConfigText, readConfigText, type Profile } from './store.js';
import { fromEnvironment, helpWithDefault, isProfileKey, longFlag, parseSetting, precedence, PROFILE_SETTINGS, SETTINGS, SettingError, type SettingName, type SettingSpec, type SettingValue } from './settings.js';

/** Every environment variable newsstats reads: the settings table's, then those of the platform. */
export const ENVIRONMENT: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    (Object.values(SETTINGS) as Array<SettingSpec<unknown>>).flatMap((spec): Array<[string, string]> =>
      spec.env === undefined ? [] : [[spec.env, `${helpWithDefault(spec)}; ${precedence(spec)}`]],
    ),
  ),
  XDG_CONFIG_HOME: 'config directory base (default ~/.config): the file is $XDG_CONFIG_HOME/newsstats/config.json',
  XDG_CACHE_HOME: 'cache directory base (default ~/.cache): the cache is $XDG_CACHE_HOME/newsstats/',
  NEWSSTATS_NO_STARTUP_MACHINERY: '1: start without the code cache of compiled code, the prepared help texts and V8 flags of our own (docs/performance.md)',
  NODE_DISABLE_COMPILE_CACHE: '1: no code cache of compiled code (Node\'s own variable, honoured by newsstats\' cache too)',
  HTTPS_PROXY: 'proxy for https requests, the API\'s and `sync s3://`\'s store, http://host:port (host:port alone is read as http://; also https_proxy, HTTP_PROXY, http_proxy)',
  NO_PROXY: 'hosts that bypass the proxy (also no_proxy)',
  // Read by the AWS SDK for `sync s3://`, as the AWS CLI reads them (docs/sync.md, "Object storage").
  AWS_PROFILE: 'sync s3://: the profile of ~/.aws/config and ~/.aws/credentials (moved by AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE); keys from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN, the profile, or container and instance metadata',
  AWS_REGION: 'sync s3://: the bucket\'s region (also AWS_DEFAULT_REGION; else the profile\'s, else us-east-1)',
  AWS_ENDPOINT_URL_S3: 'sync s3://: an S3-compatible store (MinIO, R2, GCS interoperability), e.g. http://minio:9000, addressed by path (also AWS_ENDPOINT_URL, or the profile\'s endpoint_url)',
  NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS: 'sync s3://: requests to the store at once, 1 to 64 (default 16): PUTs of the lake\'s files, and half as many merge stores read ahead; 1 sends each only once the one before is answered',
  PAGER: 'the pager for output taller than the terminal, after NEWSSTATS_PAGER and the profile\'s pager (default less -FRX)',
  NEWSSTATS_JQ_MAX_MB: 'the most memory a --jq filter may hold, in MiB (default 1024); past it the filter is stopped, exit 2',
  NO_COLOR: 'any non-empty value turns colour off (so does TERM=dumb)',
  FORCE_COLOR: 'colour even when not a terminal (0 turns it off; 2: 256 colours, 3: 24-bit)',
  COLORTERM: 'truecolor or 24bit: 24-bit colour (else 256 when TERM names it, else 16)',
};

export function resolveProfileName(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag || fromEnvironment('profile', env) || SETTINGS.profile.default;
}

/** The config file's profiles; none when the file does not exist. */
function readProfiles(env: NodeJS.ProcessEnv): Record<string, Profile> {
  const path = configFilePath(env);
  const text = readConfigText(path);
  return text === undefined ? {} : parseConfigText(text, path);
}

/** The profile's settings, or none when the file or the profile does not exist. */
export function readProfile(name: string, env: NodeJS.ProcessEnv): Profile {
  return { ...readProfiles(env)[name] };
}

/**
 * A profile named by --profile or NEWSSTATS_PROFILE must exist before it is read: a typo would
 * otherwise run with no settings and report a missing base URL, whose hint creates the misspelled
 * profile. The default profile may be absent (nothing configured yet).
 */
export function checkNamedProfile(flag: string | undefined, env: NodeJS.ProcessEnv): void {
  if (!flag && !fromEnvironment('profile', env)) return;
  const name = resolveProfileName(flag, env);
  const names = Object.keys(readProfiles(env));
  if (names.includes(name)) return;
  const known = names.length > 0 ? `profiles: ${names.join(', ')}` : 'no profiles are set up yet';
  const close = closest(name, names);
  // A near miss is a typo: the fix is the name suggested, never a hint that creates the misspelled
  // profile. Otherwise the next step is setting it up (the CLI adds `--profile NAME` to each command).
  const hint = close.length > 0 ? undefined : 'set it up with `newsstats auth login` (its key) and `newsstats config set base-url URL` (its service)';
  throw new MissingProfileError(`profile "${name}" does not exist (${known})${didYouMean(close)}`, hint);
}

/** A profile named by --profile or NEWSSTATS_PROFILE that the config file does not have. */
export class MissingProfileError extends ConfigFileError {
  override name = 'MissingProfileError';

  constructor(
    message: string,
    readonly hint: string | undefined,
  ) {
    super(message);
  }
}

export { ConfigFileError };

/** Where a setting's value came from: its flag (`--base-url`), its variable, the profile, the table's default, or nowhere. */
export type SettingSource = `--${string}` | `NEWSSTATS_${string}` | 'profile' | 'default' | 'none';

type HasFlag<Name extends SettingName> = (typeof SETTINGS)[Name] extends { flag: string } ? Name : never;
/** The settings a global flag may set, by the setting's name (the flag's attribute name). */
export type FlagSetting = { [Name in SettingName]: HasFlag<Name> }[SettingName];

/** Each setting's value: always there when the table gives a default, else possibly undefined. */
export type SettingValues = {
  readonly [Name in SettingName]: (typeof SETTINGS)[Name] extends { default: unknown } ? SettingValue<Name> : SettingValue<Name> | undefined;
};

/** Every setting of the table, resolved flag > environment > profile > default, with where each came from. */
export type ResolvedSettings = SettingValues & {
  readonly sources: Readonly<Record<SettingName, SettingSource>>;
  /** Things the user should know about the config file (readable by others, owned by someone else). */
  readonly warnings: string[];
};

export interface SettingsInput {
  /** The global flags as parsed (other flags may ride along; only the table's flag settings are read). */
  flags: { readonly [Name in FlagSetting]?: SettingValue<Name> };
  env: NodeJS.ProcessEnv;
}

type ProfileValues = { -readonly [Name in SettingName]?: SettingValue<Name> };

/**
 * Every value of the profile through the settings table's parser, the one `config set` uses: a
 * hand-edited `"timeout": "0"`, `"retries": "1e9"` or `"base-url": 5` is refused naming the key and
 * the file, not half-used.
 */
function readProfileValues(profile: Profile, profileName: string, env: NodeJS.ProcessEnv): ProfileValues {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(profile) as Array<[string, unknown]>) {
    if (!isProfileKey(key)) continue;
    const where = `the config file ${configFilePath(env)}, profile "${profileName}", key ${key}`;
    if (typeof value !== 'string') throw new ConfigFileError(`${where}: the value must be a string (got ${JSON.stringify(value)})`);
    const name = PROFILE_SETTINGS.get(key)!;
    try {
      values[name] = parseSetting(name, value, key);
    } catch (error) {
      if (error instanceof SettingError) throw new ConfigFileError(`${where}: ${error.message}`);
      throw error;
    }
  }
  return values;
}

/**
 * The config file holds the key: like ssh and the AWS CLI, say so when others could read it (and it
 * holds the key in use) or it belongs to someone else (who could then choose where the key is sent).
 */
export function configFileWarnings(env: NodeJS.ProcessEnv, holdsKey: boolean): string[] {
  const path = configFilePath(env);
  const warnings: string[] = [];
  // A folder others may write into lets them replace config.json, and with it where the key is sent.
  const folder = dirname(path);
  let folderStats;
  try {
    folderStats = statSync(folder, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR and the like: there is no folder to warn about.
  }
  if (folderStats?.isDirectory() && (folderStats.mode & 0o022) !== 0) {
    warnings.push(`warning: the config folder ${folder} is writable by group or others (mode ${(folderStats.mode & 0o777).toString(8)}): they could replace your settings; run: chmod 700 ${folder}`);
  }
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return warnings;
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) {
    warnings.push(`warning: the config file ${path} belongs to another user (uid ${stats.uid}); its settings decide where your key is sent`);
  }
  // What others could read is the key: a file without one may be as open as the user likes.
  if (holdsKey && (stats.mode & 0o077) !== 0) {
    warnings.push(`warning: the config file ${path} is open to other users (mode ${(stats.mode & 0o777).toString(8)}); run: chmod 600 ${path}`);
  }
  return warnings;
}

/** Whether a source holds a value: an empty text counts as unset, as an empty variable does. */
function given(value: unknown): boolean {
  return value !== undefined && value !== '';
}

/** One setting from the first source that gives it, in the table's order: flag, variable, profile, default. */
function resolveSetting(name: SettingName, flags: SettingsInput['flags'], env: NodeJS.ProcessEnv, profile: ProfileValues): [unknown, SettingSource] {
  const spec: SettingSpec<unknown> = SETTINGS[name];
  const flag = spec.flag === undefined ? undefined : (flags as Record<string, unknown>)[name];
  if (given(flag)) return [flag, longFlag(spec.flag!) as SettingSource];
  const fromEnv = fromEnvironment(name, env);
  if (given(fromEnv)) return [fromEnv, spec.env as SettingSource];
  if (given(profile[name])) return [profile[name], 'profile'];
  return spec.default === undefined ? [undefined, 'none'] : [spec.default, 'default'];
}

export function resolveSettings({ flags, env }: SettingsInput): ResolvedSettings {
  const profileName = resolveProfileName(flags.profile, env);
  const profile = readProfileValues(readProfile(profileName, env), profileName, env);
  const values: Record<string, unknown> = {};
  const sources: Record<string, SettingSource> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) [values[name], sources[name]] = resolveSetting(name, flags, env, profile);
  return {
    ...(values as SettingValues),
    sources: sources as Record<SettingName, SettingSource>,
    warnings: configFileWarnings(env, sources.apiKey === 'profile'),
  };
}
