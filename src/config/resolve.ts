/**
 * Where each setting comes from: flag > environment > profile. Reading a profile parses the config
 * file directly rather than through conf, whose import alone costs about 100 ms: every API command
 * reads the profile, and only `config` and `auth` ever write it.
 */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { closest, didYouMean } from '../shared/suggest.js';
import { ConfigFileError, configFilePath, parseConfigText, readConfigText, type Profile } from './store.js';
import { fromEnvironment, helpWithDefault, isProfileKey, parseSetting, precedence, PROFILE_SETTINGS, SETTINGS, SettingError, type SettingName, type SettingSpec, type SettingValue } from './settings.js';

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
  HTTPS_PROXY: 'proxy for https requests, http://host:port (host:port alone is read as http://; also https_proxy, HTTP_PROXY, http_proxy)',
  NO_PROXY: 'hosts that bypass the proxy (also no_proxy)',
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
  throw new ConfigFileError(`profile "${name}" does not exist (${known})${didYouMean(closest(name, names))}`);
}

export { ConfigFileError };

export type KeySource = 'NEWSSTATS_API_KEY' | 'profile' | 'sandbox' | 'none';

export interface ResolvedSettings {
  profileName: string;
  baseUrl?: string;
  baseUrlSource: '--base-url' | 'NEWSSTATS_BASE_URL' | 'profile' | 'sandbox' | 'none';
  apiKey?: string;
  keySource: KeySource;
  allowInsecureHttp: boolean;
  timeoutSeconds?: number;
  retries?: number;
  cacheTtlHours: number;
  maxResponseMb?: number;
  /** The pager named by NEWSSTATS_PAGER or the profile (cli/run/pager.ts reads PAGER after it). */
  pager?: { value: string; source: 'NEWSSTATS_PAGER' | 'pager setting' };
  /** Things the user should know about the config file (readable by others, owned by someone else). */
  warnings: string[];
}

export interface SettingsInput {
  flags: { profile?: string; baseUrl?: string; timeout?: number; retries?: number; maxResponseMb?: number };
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

export function resolveSettings({ flags, env }: SettingsInput): ResolvedSettings {
  const profileName = resolveProfileName(flags.profile, env);
  const profile = readProfileValues(readProfile(profileName, env), profileName, env);
  const baseUrlFromEnv = fromEnvironment('baseUrl', env);
  const apiKeyFromEnv = fromEnvironment('apiKey', env);
  const pagerFromEnv = fromEnvironment('pager', env);

  const [baseUrl, baseUrlSource] = flags.baseUrl
    ? [flags.baseUrl, '--base-url' as const]
    : baseUrlFromEnv
      ? [baseUrlFromEnv, 'NEWSSTATS_BASE_URL' as const]
      : profile.baseUrl
        ? [profile.baseUrl, 'profile' as const]
        : [undefined, 'none' as const];

  const [apiKey, keySource] = apiKeyFromEnv
    ? [apiKeyFromEnv, 'NEWSSTATS_API_KEY' as const]
    : profile.apiKey
      ? [profile.apiKey, 'profile' as const]
      : [undefined, 'none' as const];

  return {
    profileName,
    baseUrl,
    baseUrlSource,
    apiKey,
    keySource,
    allowInsecureHttp: profile.allowInsecureHttp ?? SETTINGS.allowInsecureHttp.default,
    timeoutSeconds: flags.timeout ?? profile.timeout,
    retries: flags.retries ?? profile.retries,
    cacheTtlHours: profile.cacheTtl ?? SETTINGS.cacheTtl.default,
    maxResponseMb: flags.maxResponseMb ?? profile.maxResponseMb,
    ...(pagerFromEnv !== undefined ? { pager: { value: pagerFromEnv, source: 'NEWSSTATS_PAGER' as const } }
      : profile.pager !== undefined && { pager: { value: profile.pager, source: 'pager setting' as const } }),
    warnings: configFileWarnings(env, keySource === 'profile'),
  };
}
