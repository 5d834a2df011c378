// dist/ loaded with V8 code caches written after the run, not at compile time.
//
// Node's module compile cache keeps what V8 compiled when it loaded a file: its top-level code. Every
// function is compiled again when first called, on every run, and esbuild wraps each module of undici
// and commander in a function: that was about a quarter of a query's instructions on Node 24. V8 can
// instead serialise a script after it ran, with every function compiled by then. So
// bin/newsstats.cjs loads dist/ through loadDist(): each file is compiled as a vm.Script with its
// cache and run as Node runs a CommonJS module (the same wrapper, `this`, exports, require, module,
// __filename, __dirname; require.cache lists it), and at exit its cache is written when it had none,
// when the cache was stale or V8 rejected it, or when the run was of a command the cache has not seen
// yet. A file's cache so grows to hold what each command run so far has called.
//
// The caches sit in the folder bin/compile-cache.cjs checked (the user's own, 0700): one folder per
// install and per v8.cachedDataVersionTag(), which hashes Node's V8, its flags and the CPU's features.
// The CLI sets V8 flags at run time (Lifecycle.tuneV8) and V8 rejects a cache made under other
// flags, so a file's cache is written only when the flags at exit are those it was loaded under. Each
// cache names the file it was made from (inode, size and change time; npm gives every file the same
// mtime): another build of dist/ is compiled afresh. Files are written whole under a temporary name
// and renamed, 0600; caches of files dist/ no longer has are removed when a cache is written.
'use strict';
const { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');

const FORMAT = 'newsstats-code-cache-1';
/** Commands a cache records having run (and is rewritten for): beyond these it is left as it is. */
const MAX_COMMANDS = 32;

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
 * POSIX paths only, as loadDist runs only where a uid is checked (bin/compile-cache.cjs).
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

/**
 * A cache file as written: FORMAT, the source it was made from and the commands it ran, on one line,
 * then V8's data. Undefined when missing, unreadable or made from another source.
 */
function readCache(file, source) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(10);
  const [format, madeFrom, commands] = bytes.toString('latin1', 0, Math.max(end, 0)).split(' ');
  if (format !== FORMAT || madeFrom !== source || commands === undefined) return undefined;
  return { data: bytes.subarray(end + 1), commands: commands.split(',') };
}

/**
 * Loads `entry`, a file of `dist`, and every file of dist/ it requires, with the code caches kept in
 * `directory`; other modules (Node's, exceljs) come from Node's require. Returns the entry's exports.
 */
function loadDist(entry, { dist, directory, words }) {
  const { Script } = require('node:vm');
  const { cachedDataVersionTag } = require('node:v8');
  const nodeRequire = require('node:module').createRequire(entry);
  const loaded = [];
  const install = folderName(dist);

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
    const file = `${directory}/code-${tag}-${install}/${filename.slice(dist.length + 1).replaceAll('/', '+')}`;
    const cache = readCache(file, source);
    const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, { filename, cachedData: cache?.data });
    const commands = cache && !script.cachedDataRejected ? cache.commands : [];
    loaded.push({ script, file, tag, source, commands });
    const folder = filename.slice(0, filename.lastIndexOf('/'));
    const require = (id) => (id.startsWith('./') || id.startsWith('../') ? load(resolveRelative(folder, id)) : nodeRequire(id));
    try {
      script.runInThisContext().call(module.exports, module.exports, require, module, filename, folder);
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
    saveCaches(loaded, `${directory}/code-${tag}-${install}`, command, tag, dist);
  });
  return load(entry);
}

/**
 * Writes the caches this run should (loadDist says which), and, as it writes, removes those of files
 * dist/ no longer has (an upgrade names its chunks anew); never throws: a cache is only a cache.
 */
function saveCaches(loaded, folder, command, tag, dist) {
  const due = loaded.filter((file) => file.tag === tag && !file.commands.includes(command) && file.commands.length < MAX_COMMANDS);
  if (due.length === 0) return;
  try {
    // Not recursive: were the checked folder gone (`newsstats cache clear`), it is not made again unchecked.
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if (error.code !== 'EEXIST') return;
  }
  try {
    for (const name of readdirSync(folder)) {
      if (!name.includes('.js.') && !existsSync(`${dist}/${name.replaceAll('+', '/')}`)) rmSync(`${folder}/${name}`, { force: true });
    }
  } catch {
    // pruning is housekeeping
  }
  for (const { script, file, source, commands } of due) {
    const temporary = `${file}.${process.pid}`;
    try {
      const head = Buffer.from(`${FORMAT} ${source} ${[...commands, command].join(',')}\n`, 'latin1');
      writeFileSync(temporary, Buffer.concat([head, script.createCachedData()]), { mode: 0o600, flag: 'wx' });
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

module.exports = { commandOf, loadDist };
