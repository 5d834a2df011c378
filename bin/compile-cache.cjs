// The folder of the caches of compiled code: bin/code-cache.cjs's V8 code caches of dist/ (on every
// Node), and Node's module compile cache (Node 22.1 and later) for the modules Node loads itself.
//
// A cache holds code the process will run, so it must be writable by this user alone: it lives in
// $XDG_CACHE_HOME/newsstats/compile-cache (~/.cache/... by default), every folder from newsstats/
// down is created 0700 and checked to be a real folder owned by this user that no one else can write
// into, and the folder they sit in must be the user's own, or sticky like /tmp (where no one can
// rename another user's entry). Anything else, and the run goes on without the cache.
// NODE_DISABLE_COMPILE_CACHE=1 turns both off; NODE_COMPILE_CACHE=DIR, set by the user, wins: Node
// then loads dist/ into its own cache there.
'use strict';
const { lstatSync, mkdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const STICKY = 0o1000;
const WRITABLE_BY_OTHERS = 0o022;

/** The compile cache folder for this user, or undefined when none is safe to use. */
function compileCacheDirectory(env, uid) {
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(require('node:os').homedir(), '.cache');
  const ours = join(base, 'newsstats');
  const directory = join(ours, 'compile-cache');
  try {
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const parent = statSync(base); // the user's choice of base may be a symbolic link
    if (!parent.isDirectory() || (parent.uid !== uid && parent.uid !== 0)) return undefined;
    if ((parent.mode & WRITABLE_BY_OTHERS) !== 0 && (parent.mode & STICKY) === 0) return undefined;
    // One level at a time, each checked before anything is created inside it: nothing is made in a
    // folder of another user's, or through a symbolic link (mkdir does not follow the last one).
    for (const folder of [ours, directory]) {
      try {
        mkdirSync(folder, { mode: 0o700 });
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
      const stats = lstatSync(folder);
      if (!stats.isDirectory() || stats.uid !== uid || (stats.mode & WRITABLE_BY_OTHERS) !== 0) return undefined;
    }
    return directory;
  } catch {
    return undefined; // a read-only home, a file where a folder should be: run without the cache
  }
}

/**
 * The folder for this run's caches (Node's compile cache and bin/code-cache.cjs's), or undefined: none
 * is safe, or the user turned caching off or chose a folder for Node's.
 */
function cacheDirectory(env, uid) {
  // Windows has no uid (process.getuid is undefined) and its profile folders are per-user already,
  // but the checks above cannot run there: no cache rather than an unchecked one.
  if (uid === undefined || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return undefined;
  return compileCacheDirectory(env, uid);
}

/**
 * Turns Node's compile cache on in `directory` (from cacheDirectory) when this Node has one; never
 * throws. dist/ is loaded through bin/code-cache.cjs; this is for the modules Node loads itself
 * (exceljs, jq-web).
 */
function enableCompileCache(module, directory) {
  if (typeof module.enableCompileCache !== 'function' || directory === undefined) return undefined;
  try {
    return module.enableCompileCache(directory);
  } catch {
    return undefined;
  }
}

module.exports = { cacheDirectory, compileCacheDirectory, enableCompileCache };
