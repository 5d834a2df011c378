/**
 * Where each setting comes from: flag > environment > profile. Reading a profile parses the config
 * file directly rather than through conf, whose import alone costs about 100 ms: every API command
 * reads the profile, and only `config` and `auth` ever write it.
 */
import { readFileSync } from 'node:fs';
import { closest, didYouMean } from '../suggest.js';
import { configFilePath, DEFAULT_PROFILE, type Profile } from './store.js';

export const ENVIRONMENT = {
  NEWSSTATS_API_KEY: 'API key; overrides the profile\'s key',
  NEWSSTATS_BASE_URL: 'service base URL; overrides the profile\'s base-url (--base-url overrides both)',
  NEWSSTATS_PROFILE: 'profile to use when --profile is not given (default: "default")',
  XDG_CONFIG_HOME: 'config directory base (default ~/.config): the file is $XDG_CONFIG_HOME/newsstats/config.json',
  XDG_CACHE_HOME: 'cache directory base (default ~/.cache): the cache is $XDG_CACHE_HOME/newsstats/',
  HTTPS_PROXY: 'proxy for https requests (also https_proxy, HTTP_PROXY, http_proxy)',
  NO_PROXY: 'hosts that bypass the proxy (also no_proxy)',
  NO_COLOR: 'any non-empty value turns colour off (so does TERM=dumb)',
  FORCE_COLOR: 'colour even when not a terminal (0 turns it off; 2: 256 colours, 3: 24-bit)',
  COLORTERM: 'truecolor or 24bit: 24-bit colour (else 256 when TERM names it, else 16)',
} as const;

export function resolveProfileName(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  return flag || env.NEWSSTATS_PROFILE || DEFAULT_PROFILE;
}

/** The config file's profiles; none when the file does not exist. */
function readProfiles(env: NodeJS.ProcessEnv): Record<string, Profile> {
  let text: string;
  try {
    text = readFileSync(configFilePath(env), 'utf8');
  } catch {
    return {};
  }
  try {
    return (JSON.parse(text) as { profiles?: Record<string, Profile> }).profiles ?? {};
  } catch {
    throw new ConfigFileError(`the config file ${configFilePath(env)} is not valid JSON; fix or delete it`);
  }
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
  if (!flag && !env.NEWSSTATS_PROFILE) return;
  const name = resolveProfileName(flag, env);
  const names = Object.keys(readProfiles(env));
  if (names.includes(name)) return;
  const known = names.length > 0 ? `profiles: ${names.join(', ')}` : 'no profiles are set up yet';
  throw new ConfigFileError(`profile "${name}" does not exist (${known})${didYouMean(closest(name, names))}`);
}

export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

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
  cacheTtlHours?: number;
}

export interface SettingsInput {
  flags: { profile?: string; baseUrl?: string; timeout?: number; retries?: number };
  env: NodeJS.ProcessEnv;
}

function numberSetting(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
}

export function resolveSettings({ flags, env }: SettingsInput): ResolvedSettings {
  const profileName = resolveProfileName(flags.profile, env);
  const profile = readProfile(profileName, env);

  const [baseUrl, baseUrlSource] = flags.baseUrl
    ? [flags.baseUrl, '--base-url' as const]
    : env.NEWSSTATS_BASE_URL
      ? [env.NEWSSTATS_BASE_URL, 'NEWSSTATS_BASE_URL' as const]
      : profile['base-url']
        ? [profile['base-url'], 'profile' as const]
        : [undefined, 'none' as const];

  const [apiKey, keySource] = env.NEWSSTATS_API_KEY
    ? [env.NEWSSTATS_API_KEY, 'NEWSSTATS_API_KEY' as const]
    : profile['api-key']
      ? [profile['api-key'], 'profile' as const]
      : [undefined, 'none' as const];

  return {
    profileName,
    baseUrl,
    baseUrlSource,
    apiKey,
    keySource,
    allowInsecureHttp: profile['allow-insecure-http'] === 'true',
    timeoutSeconds: flags.timeout ?? numberSetting(profile.timeout),
    retries: flags.retries ?? numberSetting(profile.retries),
    cacheTtlHours: numberSetting(profile['cache-ttl']),
  };
}
