/**
 * A disk cache for the stable lists the contract advises caching (countries, sources), so resolving
 * `--country DE` costs no request on later runs.
 *
 * Entries live under $XDG_CACHE_HOME/newsstats/<scope>/ where scope is a hash of the base URL and the
 * profile name: two services or two profiles never share entries, and the key is never part of it
 * (nor of anything written). A file that cannot be read or parsed, or whose value no longer matches
 * the digest written with it, is treated as absent and rewritten.
 */
import { createHash } from 'node:crypto';
import { isLosslessNumber } from 'lossless-json';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Endpoint } from '../../api/types.js';
import { makeFolders, systemErrorReason } from '../../shared/system-error.js';
import { xdgDirectory } from '../../config/store.js';
import type { ResolvedSettings } from '../../config/resolve.js';
import type { GlobalOptions } from '../flags/global.js';
import type { Reporter } from './reporter.js';

export type CachedListName = 'countries' | `sources${string}`;

export function cacheDirectory(env: NodeJS.ProcessEnv): string {
  return xdgDirectory(env, 'XDG_CACHE_HOME', '.cache');
}

export function cacheScope(baseUrl: string, profileName: string): string {
  return createHash('sha256').update(`${baseUrl}\n${profileName}`).digest('hex').slice(0, 16);
}

interface CacheEntry {
  savedAt: number;
  baseUrl: string;
  value: unknown;
}

/**
 * The digest an entry carries of its value's text: a bit flipped on disk inside a name or an id
 * still parses and still has the list's shape, and would be served as data; with the digest it is
 * dropped and fetched again, as Node's own compile cache checks each entry.
 */
function valueDigest(valueText: string): string {
  return createHash('sha256').update(valueText).digest('hex');
}

/** No real countries or sources list comes near this; a bigger file was not written by us. */
export const MAX_CACHE_FILE_BYTES = 8 * 1024 * 1024;

/** The API path whose answer a cached list holds, so an entry is checked by that endpoint's shape. */
function listPath(name: CachedListName): Endpoint {
  return name === 'countries' ? '/api/data/countries' : '/api/data/sources';
}

/**
 * Why a cache folder must not be used, or undefined when it is the user's alone. A folder that is a
 * symlink, belongs to someone else or that others may write into lets them plant entries (made-up
 * countries) or links that turn a cache write into an overwrite of another file.
 */
export async function unsafeFolderReason(path: string): Promise<string | undefined> {
  const stats = await lstat(path);
  if (stats.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!stats.isDirectory()) return `${path} is not a folder`;
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) return `${path} belongs to another user (uid ${stats.uid})`;
  if ((stats.mode & 0o022) !== 0) return `${path} is writable by group or others (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Creates the cache folders 0700 where missing, then vets each; returns why they cannot be used, if so. */
async function prepareFolders(root: string, scope: string): Promise<string | undefined> {
  await makeFolders(dirname(root), 0o700);
  for (const folder of [root, scope]) {
    await mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    const reason = await unsafeFolderReason(folder);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * Reads an entry younger than ttlMs for this base URL, or undefined for absent, stale, oversized,
 * misshapen or unreadable files (they are then rewritten). A symlink is never followed.
 */
export async function readCacheEntry(path: string, ttlMs: number, expected: { baseUrl: string; apiPath: Endpoint }, now = Date.now()): Promise<unknown> {
  let handle;
  try {
    // O_NONBLOCK: a FIFO planted at the name must not hang the run in open().
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > MAX_CACHE_FILE_BYTES) return undefined;
    const { parse, stringify } = await import('lossless-json');
    const entry = parse(await handle.readFile('utf8')) as (Partial<CacheEntry> & { sha256?: unknown }) | null;
    if (typeof entry !== 'object' || entry === null || entry.baseUrl !== expected.baseUrl) return undefined;
    if (entry.sha256 !== valueDigest(stringify(entry.value) ?? '')) return undefined;
    const savedAt = Number(String(entry.savedAt));
    if (!(savedAt <= now && now - savedAt < ttlMs) || entry.value === undefined) return undefined;
    const { shapeProblem } = await import('../../api/validate.js');
    return shapeProblem(expected.apiPath, entry.value) === undefined ? entry.value : undefined;
  } catch {
    return undefined;
  } finally {
    await handle?.close();
  }
}

export async function writeCacheEntry(path: string, entry: CacheEntry): Promise<void> {
  const [{ stringify }, { openAtomicFile }] = await Promise.all([import('lossless-json'), import('../../output/atomic.js')]);
  // Written beside and renamed: a reader never sees half a file, even with two runs at once. A link
  // planted at the entry's name is replaced, never written through.
  const file = await openAtomicFile(path, 0o600, { replaceSymlink: true });
  try {
    file.stream.write(stringify({ ...entry, sha256: valueDigest(stringify(entry.value) ?? '') }) ?? '');
    await file.commit();
  } finally {
    await file.abort();
  }
}

/**
 * The list from the cache when fresh, else fetched and stored. The in-process sandbox is never cached:
 * its port, and so its identity, changes on every run.
 */
export interface CacheRun {
  settings: ResolvedSettings;
  globals: Pick<GlobalOptions, 'cache' | 'sandbox'>;
  env: NodeJS.ProcessEnv;
  report: Pick<Reporter, 'note' | 'debug'>;
}

export async function cachedList(run: CacheRun, name: CachedListName, fetchList: () => Promise<unknown>): Promise<unknown> {
  const { settings, globals, env, report } = run;
  const ttlHours = settings.cacheTtl;
  if (!globals.cache || globals.sandbox || ttlHours <= 0 || !settings.baseUrl) return fetchList();

  const root = cacheDirectory(env);
  const scope = join(root, cacheScope(settings.baseUrl, settings.profile));
  const unsafe = await prepareFolders(root, scope).catch((error: unknown) => `${root} cannot be created: ${systemErrorReason(error)}`);
  if (unsafe !== undefined) {
    report.note(`newsstats: not using the cache: ${unsafe}; running uncached`);
    return fetchList();
  }
  const path = join(scope, `${name}.json`);
  const cached = await readCacheEntry(path, ttlHours * 3_600_000, { baseUrl: settings.baseUrl, apiPath: listPath(name) });
  if (cached !== undefined) {
    report.debug(`cache hit: ${name} (${path})`);
    return cached;
  }
  const value = await fetchList();
  if (settings.apiKey && holdsText(value, settings.apiKey)) {
    // A service that echoes the key into data must not get it written to disk.
    report.debug(`cache not written: ${name} holds the API key`);
    return value;
  }
  try {
    await writeCacheEntry(path, { savedAt: Date.now(), baseUrl: settings.baseUrl, value });
  } catch (error) {
    // A cache that cannot be written costs a request next time, nothing more.
    report.debug(`cache not written: ${(error as Error).message}`);
  }
  return value;
}

/**
 * The list last cached for these settings, however old, or undefined: never a request and never a
 * write. Shell completion offers what it holds (country slugs after --country), where a stale list
 * beats none and a request would make every script it writes depend on the network.
 */
export async function lastCachedList(settings: Pick<ResolvedSettings, 'baseUrl' | 'profile'>, env: NodeJS.ProcessEnv, name: CachedListName): Promise<unknown> {
  if (!settings.baseUrl) return undefined;
  const path = join(cacheDirectory(env), cacheScope(settings.baseUrl, settings.profile), `${name}.json`);
  return readCacheEntry(path, Number.POSITIVE_INFINITY, { baseUrl: settings.baseUrl, apiPath: listPath(name) });
}

/**
 * True when any string or key of `value` contains `text`. Searched in the values themselves, not in
 * their JSON: there a key holding `"` or `\` is written escaped, and a search of the raw key missed it.
 */
export function holdsText(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value.includes(text);
  if (isLosslessNumber(value)) return value.value.includes(text);
  if (Array.isArray(value)) return value.some((item) => holdsText(item, text));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => key.includes(text) || holdsText(item, text));
  }
  return false;
}

export async function clearCache(env: NodeJS.ProcessEnv): Promise<string> {
  const directory = cacheDirectory(env);
  await rm(directory, { recursive: true, force: true });
  return directory;
}
