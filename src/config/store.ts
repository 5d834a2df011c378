/**
 * The profile store: one JSON file under $XDG_CONFIG_HOME/newsstats/ (default ~/.config/newsstats/),
 * holding named profiles. It holds the API key, so the directory is 0700 and the file 0600, and both
 * are tightened again on every write in case a user created them by hand with looser modes.
 */
import { chmodSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Conf from 'conf';
import { InputFileError, readInputFile } from '../shared/input-file.js';
import { makeFoldersSync, systemErrorReason } from '../shared/system-error.js';
import { SETTINGS, type ProfileKey } from './settings.js';

/** The config file or its folder is unusable: a one-line reason naming the path (exit 2). */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/** No real config comes near this: a few profiles of a few short settings. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A system error on the config file or folder as one line naming the path and the reason. */
export function configSystemError(what: string, path: string, error: unknown): ConfigFileError {
  return new ConfigFileError(`cannot ${what} ${path}: ${systemErrorReason(error)}`);
}

/**
 * The config file's text, or undefined when there is none (or a folder on its path is missing).
 * Read by the one reader of user files (shared/input-file.ts): never blocks and never reads without
 * bound, whatever was planted at the name (a FIFO, /dev/zero, a folder is a ConfigFileError), and a
 * byte-order mark is skipped.
 */
export function readConfigText(path: string): string | undefined {
  try {
    return readInputFile(path, { maxBytes: MAX_CONFIG_FILE_BYTES, label: `the config file ${path}` });
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error;
    const { problem } = error;
    switch (problem.kind) {
      case 'missing':
        return undefined;
      case 'not-regular':
        throw new ConfigFileError(`the config file ${path} is ${problem.what}; it must be a regular file (move it away, or fix XDG_CONFIG_HOME)`);
      case 'too-large':
        throw new ConfigFileError(`the config file ${path} is larger than ${MAX_CONFIG_FILE_BYTES / 1024} KiB, which no config is; fix or delete it`);
      case 'unreadable':
        throw configSystemError('read the config file', path, problem.cause);
      default:
        throw new ConfigFileError(error.message);
    }
  }
}

interface StoreShape {
  profiles: Record<string, Profile>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The profiles a config file's text holds. The file must be an object whose `profiles` (if any) is
 * an object of objects: `[]`, `"str"` or `{"profiles": 5}` is an error, never silently no config.
 */
export function parseConfigText(text: string, path: string): Record<string, Profile> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigFileError(`the config file ${path} is not valid JSON; fix or delete it`);
  }
  if (!isRecord(data)) throw new ConfigFileError(`the config file ${path} must hold a JSON object ({"profiles": {...}}), not ${describeJson(data)}; fix or delete it`);
  const profiles = data.profiles ?? {};
  if (!isRecord(profiles)) throw new ConfigFileError(`the config file ${path}: "profiles" must be an object, not ${describeJson(profiles)}; fix or delete it`);
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isRecord(profile)) throw new ConfigFileError(`the config file ${path}: profile "${name}" must be an object, not ${describeJson(profile)}; fix or delete it`);
  }
  return profiles as Record<string, Profile>;
}

function describeJson(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

// The profile keys and the default profile come from the settings table (settings.ts).
export type Profile = Partial<Record<ProfileKey, string>>;

export const DEFAULT_PROFILE = SETTINGS.profile.default;

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
    try {
      makeFoldersSync(directory, 0o700);
    } catch (error) {
      throw configSystemError('create the config folder', directory, error);
    }
    // conf reads the file with a plain readFileSync: vet it first (a FIFO, a device, [] or "str").
    const path = configFilePath(env);
    const text = readConfigText(path);
    if (text !== undefined) parseConfigText(text, path);
    let conf: Conf<StoreShape>;
    try {
      conf = new ConfClass<StoreShape>({
        projectName: 'newsstats',
        cwd: directory,
        configName: 'config',
        configFileMode: 0o600,
        // Profile names are free text; dots in them must not be read as paths.
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
        defaults: { profiles: {} },
      });
    } catch (error) {
      // conf writes the file as soon as it is built, when it is missing or lacks the defaults.
      throw configSystemError('write the config file', path, error);
    }
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
    try {
      this.#conf.set('profiles', profiles);
      this.#tightenModes();
    } catch (error) {
      throw configSystemError('write the config file', this.path, error);
    }
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
