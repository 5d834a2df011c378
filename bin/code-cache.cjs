// dist/ loaded with V8 code caches written after a run: the one cache of compiled code newsstats keeps
// (docs/performance.md, "Start-up machinery", says what it buys; NEWSSTATS_NO_STARTUP_MACHINERY=1 or
// NODE_DISABLE_COMPILE_CACHE=1 turns it off).
//
// Why not Node's module compile cache: it keeps what V8 compiled when it loaded a file, its top-level
// code, and esbuild wraps each module of undici and commander in a function, so nearly all of their
// code was compiled again on every run. V8 can instead serialise a script after it ran, with every
// function compiled by then. So bin/newsstats.cjs loads dist/ through loadDist(): each file is compiled
// as a vm.Script with its cache and run as Node runs a CommonJS module (the same wrapper, `this`,
// exports, require, module, __filename, __dirname; require.cache lists it). Measured on Node 24 and 26,
// one query took 0.78x / 0.82x the CPU of the same build on Node's compile cache.
//
// A cache holds code the process will run, and V8 checks nothing of it but its version and flags (no
// checksum in release builds: a flipped bit is a crash). So every cache file here is:
// - in a folder that is the user's alone: $XDG_CACHE_HOME/newsstats/compile-cache (~/.cache/... by
//   default), every folder from newsstats/ down created 0700 and checked to be a real folder owned by
//   this user that no one else can write into, under a base that is the user's own or sticky like /tmp;
// - opened without following a link (O_NOFOLLOW), without blocking (a FIFO planted there cannot hang
//   the run), and only when it is a regular file of at most MAX_CACHE_BYTES, read to that size only;
// - checksummed (CRC-32 of V8's data, and its length, in the header line) and dropped when the sum,
//   the length, the format or the source it was made from does not match: the file is then compiled
//   from source and its cache written anew at exit;
// - written whole under a temporary name (O_EXCL, 0600) and renamed into place.
// `newsstats cache clear` never loads through this file (bin/newsstats.cjs), so it works whatever the
// caches hold, and removes them.
//
// When: a file's cache is written at exit when it had none, when it was stale or dropped, or when the
// run was of a command the cache has not seen yet, so it grows to hold what each command run so far
// called. Not on the first run of this install on this Node: that run only makes the folder. A run in
// a fresh container (a cron job's) would pay for writing caches no later run reads (about 0.3x of a
// node:http script's query on Node 24); V8 does the same in Chrome, caching a script on its second
// load. One folder per install and per v8.cachedDataVersionTag() (Node's V8, its flags, the CPU); the
// CLI sets a V8 flag at run time (Lifecycle.tuneV8) and V8 rejects a cache made under other flags, so
// a file's cache is written only when the flags at exit are those it was loaded under (the CLI sets
// its flags back as the run ends, so that is every file but those loaded while one was set). Caches of files
// dist/ no longer has are removed when a cache is written.
'use strict';
const { closeSync, constants, existsSync, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const FORMAT = 'newsstats-code-cache-2';
/** Commands a cache records having run (and is rewritten for): beyond these it is left as it is. */
const MAX_COMMANDS = 32;
/** The largest cache file read: V8's cache of dist/'s largest chunk (615 KB of source) is about 400 KB. */
const MAX_CACHE_BYTES = 8 * 1024 * 1024;

const STICKY = 0o1000;
const WRITABLE_BY_OTHERS = 0o022;

/**
 * `mkdir -p` a folder at a time (src/shared/system-error.ts's twin: this file runs before dist/ is
 * loaded). Node's recursive mkdir spins for ever where a folder exists but takes no new one and says
 * ENOENT: XDG_CACHE_HOME under /proc hung every run at full CPU, deaf to SIGTERM. Throws that ENOENT.
 */
function makeFolders(path, mode) {
  const missing = [];
  for (let at = path; !statSync(at, { throwIfNoEntry: false }) && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

/** The code cache folder for this user, or undefined when none is safe to use. */
function codeCacheDirectory(env, uid) {
  const base = env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : join(require('node:os').homedir(), '.cache');
  const ours = join(base, 'newsstats');
  const directory = join(ours, 'compile-cache');
  try {
    makeFolders(base, 0o700);
    const parent = statSync(base); // the user's choice of base may be a symbolic link
    if (!parent.isDirectory() || (parent.uid !== uid && parent.uid !== 0)) return undefined;
    if ((parent.mode & WRITABLE_BY_OTHERS) !== 0 && (parent.mode & STICKY) === 0) return undefined;
    // One level at a time, each checked before anything is created inside it: nothing is made in a
    // folder of another user's, or through a symbolic link (mkdir does not follow the last one).
    for (const folder of [ours, directory]) {
      if (!ownFolder(folder, uid, { create: true })) return undefined;
    }
    return directory;
  } catch {
    return undefined; // a read-only home, a file where a folder should be: run without the cache
  }
}

/** True when `folder` is a real folder of this user's that no one else can write into (made 0700 if asked and missing). */
function ownFolder(folder, uid, { create }) {
  if (create) {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
  const stats = lstatSync(folder, { throwIfNoEntry: false });
  return stats !== undefined && stats.isDirectory() && stats.uid === uid && (stats.mode & WRITABLE_BY_OTHERS) === 0;
}

/**
 * The folder for this run's caches, or undefined: none is safe, or the user turned caching off or
 * chose a folder for Node's own compile cache (which then loads dist/ itself).
 */
function cacheDirectory(env, uid) {
  // Windows has no uid (process.getuid is undefined) and its profile folders are per-user already,
  // but the checks above cannot run there: no cache rather than an unchecked one.
  if (uid === undefined || env.NEWSSTATS_NO_STARTUP_MACHINERY || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return undefined;
  return codeCacheDirectory(env, uid);
}

/**
 * A short name for the dist/ folder (FNV-1a of its path): two installs (global and a project's, or two
 * clones) share the user's cache folder, and each keeps its own caches instead of replacing the other's.
 */
function folderName(dist) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < dist.length; index++) hash = Math.imul(hash ^ dist.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** What a run is, for the caches: the first two words that can be a noun and a verb ("people.top"). */
function commandOf(words) {
  return words.filter((word) => /^[a-z][a-z0-9-]*$/.test(word)).slice(0, 2).join('.') || '-';
}

/**
 * The file `id` names, a path relative to `folder` as esbuild writes them ('./chunk-X.js',
 * '../chunks/chunk-X.js'). Not path.join: a run resolves a few hundred of these, enough for V8 to
 * optimise path.normalize's loop in the background, which cost as much as compiling them did.
 * POSIX paths only, as loadDist runs only where a uid is checked.
 */
function resolveRelative(folder, id) {
  let base = folder;
  let rest = id;
  for (;;) {
    if (rest.startsWith('./')) {
      rest = rest.slice(2);
    } else if (rest.startsWith('../')) {
      base = base.slice(0, base.lastIndexOf('/'));
      rest = rest.slice(3);
    } else {
      return `${base}/${rest}`;
    }
  }
}

/** CRC-32 of V8's data, as 8 hex digits (zlib's, native: about 1 ms for a query's 900 KB). */
function checksum(data) {
  return require('node:zlib').crc32(data).toString(16).padStart(8, '0');
}

/**
 * All of a regular file of at most MAX_CACHE_BYTES, or undefined: missing, a link, a FIFO or device,
 * too large, or shorter than it said.
 */
function readBounded(file) {
  let fd;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stats.size);
    let offset = 0;
    while (offset < bytes.length) {
      const read = readSync(fd, bytes, offset, bytes.length - offset, offset);
      if (read === 0) return undefined;
      offset += read;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * A cache file as written: a header line (FORMAT, the source it was made from, the commands it ran,
 * the CRC-32 and length of V8's data), then V8's data. Undefined when missing, unreadable, made from
 * another source, or not whole and intact.
 */
function readCache(file, source) {
  const bytes = readBounded(file);
  if (bytes === undefined) return undefined;
  const end = bytes.indexOf(10);
  if (end < 0 || end > 4096) return undefined;
  const [format, madeFrom, commands, sum, length, extra] = bytes.toString('latin1', 0, end).split(' ');
  if (format !== FORMAT || madeFrom !== source || commands === undefined || extra !== undefined) return undefined;
  const data = bytes.subarray(end + 1);
  if (String(data.length) !== length || checksum(data) !== sum) return undefined;
  return { data, commands: commands.split(',') };
}

/**
 * Loads `entry`, a file of `dist`, and every file of dist/ it requires, with the code caches kept in
 * `directory` (from cacheDirectory); other modules (Node's, exceljs) come from Node's require. Returns
 * the entry's exports.
 */
function loadDist(entry, { dist, directory, words }) {
  const { Script } = require('node:vm');
  const { cachedDataVersionTag } = require('node:v8');
  const nodeRequire = require('node:module').createRequire(entry);
  const loaded = [];
  const install = folderName(dist);
  const uid = process.getuid();
  // Caches are read only from a folder of this user's own (a link or another owner's folder planted
  // there is not), checked once per V8 flag set a run loads files under.
  const readable = new Map();
  const readableFolder = (folder) => {
    if (!readable.has(folder)) readable.set(folder, ownFolder(folder, uid, { create: false }));
    return readable.get(folder);
  };

  function load(filename) {
    const known = nodeRequire.cache[filename];
    if (known) return known.exports;
    const module = { id: filename, filename, loaded: false, exports: {}, children: [], paths: [] };
    nodeRequire.cache[filename] = module;
    const fd = openSync(filename, 'r');
    let stats;
    let text;
    try {
      stats = fstatSync(fd);
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    const source = `${stats.ino}:${stats.size}:${stats.ctimeMs}`;
    const tag = cachedDataVersionTag();
    const folder = `${directory}/code-${tag}-${install}`;
    const file = `${folder}/${filename.slice(dist.length + 1).replaceAll('/', '+')}`;
    const cache = readableFolder(folder) ? readCache(file, source) : undefined;
    const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, { filename, cachedData: cache?.data });
    const commands = cache && !script.cachedDataRejected ? cache.commands : [];
    loaded.push({ script, file, tag, source, commands });
    const dirname = filename.slice(0, filename.lastIndexOf('/'));
    const require = (id) => (id.startsWith('./') || id.startsWith('../') ? load(resolveRelative(dirname, id)) : nodeRequire(id));
    try {
      script.runInThisContext().call(module.exports, module.exports, require, module, filename, dirname);
    } catch (error) {
      delete nodeRequire.cache[filename]; // as Node does: a require() again runs it again
      throw error;
    }
    module.loaded = true;
    return module.exports;
  }

  const command = commandOf(words);
  process.once('exit', () => {
    const tag = cachedDataVersionTag();
    saveCaches(loaded, `${directory}/code-${tag}-${install}`, { command, tag, dist, uid });
  });
  return load(entry);
}

/**
 * Writes the caches this run should (loadDist says which), and, as it writes, removes those of files
 * dist/ no longer has (an upgrade names its chunks anew); never throws: a cache is only a cache.
 */
function saveCaches(loaded, folder, { command, tag, dist, uid }) {
  const due = loaded.filter((file) => file.tag === tag && !file.commands.includes(command) && file.commands.length < MAX_COMMANDS);
  if (due.length === 0) return;
  try {
    // Not recursive: were the checked folder gone (`newsstats cache clear`), it is not made again unchecked.
    mkdirSync(folder, { mode: 0o700 });
    return; // the first run of this install on this Node: the folder says a run was here, nothing more
  } catch (error) {
    if (error.code !== 'EEXIST') return;
  }
  try {
    if (!ownFolder(folder, uid, { create: false })) return;
    for (const name of readdirSync(folder)) {
      if (!name.includes('.js.') && !existsSync(`${dist}/${name.replaceAll('+', '/')}`)) rmSync(`${folder}/${name}`, { force: true });
    }
  } catch {
    return;
  }
  for (const { script, file, source, commands } of due) {
    const temporary = `${file}.${process.pid}`;
    try {
      const data = script.createCachedData();
      const head = Buffer.from(`${FORMAT} ${source} ${[...commands, command].join(',')} ${checksum(data)} ${data.length}\n`, 'latin1');
      writeFileSync(temporary, Buffer.concat([head, data]), { mode: 0o600, flag: 'wx' });
      renameSync(temporary, file);
    } catch {
      try {
        rmSync(temporary, { force: true });
      } catch {
        // left for `newsstats cache clear`
      }
    }
  }
}

module.exports = { cacheDirectory, codeCacheDirectory, commandOf, loadDist };
