/**
 * The profile store: one JSON file under $XDG_CONFIG_HOME/newsstats/ (default ~/.config/newsstats/),
 * holding named profiles. It holds the API key, so the directory is 0700 and the file 0600, and both
 * are tightened again on every write in case a user created them by hand with looser modes.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';

/** The settings a profile may hold. `api-key` is only ever written by `auth login`. */
export const PROFILE_KEYS = {
  'base-url': 'Service base URL, e.g. https://stats.example.com (the API root is <base-url>/api/data)',
  'api-key': 'The API key (set it with `newsstats auth login`; never printed)',
  'allow-insecure-http': 'true to allow a plain http:// base URL that is not loopback (the key then crosses the network in clear text)',
  timeout: 'Deadline per attempt in seconds, connect to last byte (default 30)',
  retries: 'Retries after a failed request (default 3)',
  'cache-ttl': 'How long cached countries and sources lists stay fresh, in hours (default 24; 0 disables)',
  'max-response-mb': 'Largest response body accepted, in MiB (default 16); a larger one is abandoned with exit 5',
} as const;

export type ProfileKey = keyof typeof PROFILE_KEYS;
export type Profile = Partial<Record<ProfileKey, string>>;

export const DEFAULT_PROFILE = 'default';

interface StoreShape {
  profiles: Record<string, Profile>;
}

/**
 * newsstats' folder under an XDG base directory: $XDG_CONFIG_HOME or $XDG_CACHE_HOME, or the spec's
 * default under the home folder when the variable is unset or empty.
 */
export function xdgDirectory(env: NodeJS.ProcessEnv, variable: 'XDG_CONFIG_HOME' | 'XDG_CACHE_HOME', homeDefault: '.config' | '.cache'): string {
  const base = env[variable] ? env[variable] : join(homedir(), homeDefault);
  return join(base, 'newsstats');
}

export function configDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return xdgDirectory(env, 'XDG_CONFIG_HOME', '.config');
}

export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configDirectory(env), 'config.json');
}

export function isProfileKey(key: string): key is ProfileKey {
  return Object.hasOwn(PROFILE_KEYS, key);
}

export class ProfileStore {
  readonly path: string;
  readonly #directory: string;
  readonly #conf: Conf<StoreShape>;

  private constructor(conf: Conf<StoreShape>, directory: string) {
    this.#conf = conf;
    this.#directory = directory;
    this.path = conf.path;
  }

  /** Loads conf only now: it is the heaviest import of the CLI and most runs never write config. */
  static async open(env: NodeJS.ProcessEnv = process.env): Promise<ProfileStore> {
    const { default: ConfClass } = await import('conf');
    const directory = configDirectory(env);
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    const conf = new ConfClass<StoreShape>({
      projectName: 'newsstats',
      cwd: directory,
      configName: 'config',
      configFileMode: 0o600,
      // Profile names are free text; dots in them must not be read as paths.
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      defaults: { profiles: {} },
    });
    return new ProfileStore(conf, directory);
  }

  /** True when the file exists; reading never creates it. */
  profileNames(): string[] {
    return Object.keys(this.#conf.get('profiles'));
  }

  profile(name: string): Profile {
    return { ...this.#conf.get('profiles')[name] };
  }

  set(profileName: string, key: ProfileKey, value: string): void {
    this.#update(profileName, (profile) => {
      profile[key] = value;
    });
  }

  unset(profileName: string, key: ProfileKey): void {
    this.#update(profileName, (profile) => {
      delete profile[key];
    });
  }

  #update(profileName: string, change: (profile: Profile) => void): void {
    const profiles = { ...this.#conf.get('profiles') };
    const profile = { ...profiles[profileName] };
    change(profile);
    if (Object.keys(profile).length === 0) delete profiles[profileName];
    else profiles[profileName] = profile;
    this.#conf.set('profiles', profiles);
    this.#tightenModes();
  }

  #tightenModes(): void {
    chmodSync(this.#directory, 0o700);
    chmodSync(this.path, 0o600);
  }
}

/** Shows only the last four characters: enough to tell two keys apart, useless to an onlooker. */
export function maskKey(key: string): string {
  const visible = key.length > 8 ? key.slice(-4) : '';
  return `••••${visible}`;
}
