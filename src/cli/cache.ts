/**
 * A disk cache for the stable lists the contract advises caching (countries, sources), so resolving
 * `--country DE` costs no request on later runs.
 *
 * Entries live under $XDG_CACHE_HOME/newsstats/<scope>/ where scope is a hash of the base URL and the
 * profile name: two services or two profiles never share entries, and the key is never part of it
 * (nor of anything written). A file that cannot be read or parsed is treated as absent and rewritten.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { xdgDirectory } from '../config/store.js';
import type { Context } from './context.js';

export const DEFAULT_CACHE_TTL_HOURS = 24;

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

/** Reads an entry younger than ttlMs, or undefined for absent, stale or unreadable files. */
export async function readCacheEntry(path: string, ttlMs: number, now = Date.now()): Promise<unknown> {
  try {
    const { parse } = await import('lossless-json');
    const entry = parse(await readFile(path, 'utf8')) as CacheEntry;
    const savedAt = Number(String(entry.savedAt));
    if (!(savedAt <= now && now - savedAt < ttlMs) || entry.value === undefined) return undefined;
    return entry.value;
  } catch {
    return undefined;
  }
}

export async function writeCacheEntry(path: string, entry: CacheEntry): Promise<void> {
  const [{ stringify }, { openAtomicFile }] = await Promise.all([import('lossless-json'), import('../output/atomic.js')]);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Written beside and renamed: a reader never sees half a file, even with two runs at once.
  const file = await openAtomicFile(path, 0o600);
  try {
    file.stream.write(stringify(entry) ?? '');
    await file.commit();
  } finally {
    await file.abort();
  }
}

/**
 * The list from the cache when fresh, else fetched and stored. The in-process sandbox is never cached:
 * its port, and so its identity, changes on every run.
 */
export async function cachedList(ctx: Context, name: CachedListName, fetchList: () => Promise<unknown>): Promise<unknown> {
  const settings = await ctx.settings();
  const ttlHours = settings.cacheTtlHours ?? DEFAULT_CACHE_TTL_HOURS;
  if (!ctx.globals.cache || ctx.globals.sandbox || ttlHours <= 0 || !settings.baseUrl) return fetchList();

  const path = join(cacheDirectory(ctx.env), cacheScope(settings.baseUrl, settings.profileName), `${name}.json`);
  const cached = await readCacheEntry(path, ttlHours * 3_600_000);
  if (cached !== undefined) {
    ctx.debug(`cache hit: ${name} (${path})`);
    return cached;
  }
  const value = await fetchList();
  try {
    await writeCacheEntry(path, { savedAt: Date.now(), baseUrl: settings.baseUrl, value });
  } catch (error) {
    // A cache that cannot be written costs a request next time, nothing more.
    ctx.debug(`cache not written: ${(error as Error).message}`);
  }
  return value;
}

export async function clearCache(env: NodeJS.ProcessEnv): Promise<string> {
  const directory = cacheDirectory(env);
  await rm(directory, { recursive: true, force: true });
  return directory;
}
