#!/usr/bin/env node
// Builds build/newsstats: one executable file for users without Node, with Node's single executable
// application support (https://nodejs.org/api/single-executable-applications.html).
//
//   npm run build:exe [-- --node PATH] [-- --snapshot]
//
// 1. bin/newsstats.cjs, with dist/ behind it, is bundled into one CommonJS script (a SEA's require()
//    reaches only Node's built-in modules). Chunks dist/ loads on demand stay behind functions that
//    run on demand, so a run still executes only what it uses. exceljs is bundled too: the file has no
//    node_modules beside it.
// 2. The Node binary it is built on is copied whole, with the script and V8's code cache for it (so a
//    run compiles nothing up front) in a section of its own. That binary is the npm registry's `node`
//    package: by default `npx -y node@26`, the current LTS; --node PATH takes another (24 or later:
//    the bundle targets it). Node 25.5 and later build the executable themselves (--build-sea); older
//    ones write a blob that postject (npm) injects into the copy.
// jq-web's script and jq.wasm (for --jq, run in a worker) and dist/help/ are assets inside the
// executable. Nothing is fetched when it runs.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flag = (name) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? process.argv[index + 1] : undefined;
};
const out = flag('--out') ?? join(repo, 'build');
const exe = join(out, 'newsstats');
const script = join(out, 'newsstats-sea.cjs');

/** The registry's node package, as npx installs it (cached after the first time). */
function registryNode(major) {
  return execFileSync('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], { encoding: 'utf8' }).trim();
}

/** Replaces `from` (a string or a pattern) in a file's text, or fails the build naming the file. */
function patched(text, from, to, file) {
  const next = text.replace(from, to);
  if (next === text) throw new Error(`build:exe: ${String(from)} not found in ${file}: did it change?`);
  return next;
}

/**
 * --jq in the executable: dist/ leaves jq-web outside (it reads jq.wasm from its own folder), and a
 * SEA's require() reaches only Node's built-in modules. jq runs in a worker thread (src/output/jq.ts
 * says why: signals and a memory bound), and a worker started from a string has no files to load
 * either. So jq-web's script is bundled on its own, as a script that defines `bundledJqWeb` (the
 * promise of jq that jq-web's module is), and travels as an asset; the worker runs it before its own
 * code. jq.wasm is an asset too, whose bytes the main thread hands the worker in workerData: jq-web
 * gets them as its wasmBinary, so nothing is read from beside the executable or the working folder.
 * The asset names are the ones src/output/jq.ts reads (SEA_JQ_WEB_ASSET, SEA_JQ_WASM_ASSET).
 */
async function bundleJqWebForWorker(file) {
  await build({
    entryPoints: [join(repo, 'node_modules', 'jq-web', 'jq.js')],
    outfile: file,
    bundle: true,
    format: 'iife',
    globalName: 'bundledJqWeb',
    platform: 'node',
    target: `node${major}`,
    logLevel: 'warning',
    plugins: [{
      name: 'jq-wasm-from-worker-data',
      setup(build) {
        // jq-web calls its factory as it loads, which would read jq.wasm beside __filename (in a
        // worker started from a string, the working folder): given the bytes, it reads no file.
        build.onLoad({ filter: /[\\/]node_modules[\\/]jq-web[\\/]jq\.js$/ }, async ({ path }) => ({
          contents: patched(await readFile(path, 'utf8'), 'jq = jq().then(', "jq = jq({ wasmBinary: require('node:worker_threads').workerData.wasm }).then(", path),
          loader: 'js',
        }));
      },
    }],
  });
}

/** dist/help/ (what bin/newsstats.cjs prints for a piped --help) as assets, read from inside the executable. */
const helpInside = {
  name: 'help-inside',
  setup(build) {
    build.onLoad({ filter: /[\\/]bin[\\/]newsstats\.cjs$/ }, async ({ path }) => ({
      contents: patched(await readFile(path, 'utf8'), 'function helpText(file) {', "function helpText(file) {\n  return require('node:sea').getAsset(`help/${file}`, 'utf8');", path),
      loader: 'js',
    }));
  },
};
const helpAssets = Object.fromEntries(readdirSync(join(repo, 'dist', 'help')).map((file) => [`help/${file}`, join(repo, 'dist', 'help', file)]));

const node = flag('--node') ?? registryNode(26);
const version = execFileSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
const [major, minor] = version.split('.').map(Number);
if (major < 24) throw new Error(`build:exe needs Node 24 or later to build on; ${node} is ${version}`);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

await build({
  entryPoints: [join(repo, 'bin', 'newsstats.cjs')],
  outfile: script,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: `node${major}`,
  keepNames: true,
  logLevel: 'warning',
  plugins: [{
    // The SEA carries V8's code cache for its one script; Node's module compile cache and
    // bin/code-cache.cjs (dist/ is bundled in) would only create an empty folder in the user's home.
    // With no cache folder, bin/newsstats.cjs requires dist/cli/main.js, which esbuild bundles.
    name: 'no-module-compile-cache',
    setup(build) {
      build.onResolve({ filter: /(compile|code)-cache\.cjs$/ }, ({ path }) => ({ path, namespace: 'stub' }));
      build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'exports.cacheDirectory = () => undefined;\nexports.enableCompileCache = () => undefined;\nexports.loadDist = () => undefined;', loader: 'js' }));
    },
  }, helpInside],
});
const jqWebScript = join(out, 'jq-web-worker.js');
await bundleJqWebForWorker(jqWebScript);

const config = {
  main: script,
  output: exe,
  disableExperimentalSEAWarning: true,
  useCodeCache: true,
  assets: { 'jq.wasm': join(repo, 'node_modules', 'jq-web', 'jq.wasm'), 'jq-web-worker.js': jqWebScript, ...helpAssets },
  // exceljs' old dependencies call `new Buffer()`: installed, Node keeps quiet about code inside
  // node_modules; bundled, it would warn on every xlsx export.
  execArgv: ['--disable-warning=DEP0005'],
};
const configFile = join(out, 'sea-config.json');

if (major > 25 || (major === 25 && minor >= 5)) {
  writeFileSync(configFile, JSON.stringify({ ...config, executable: node }, null, 2));
  execFileSync(node, ['--build-sea', configFile], { stdio: 'inherit' });
} else {
  const blob = join(out, 'newsstats.blob');
  writeFileSync(configFile, JSON.stringify({ ...config, output: blob }, null, 2));
  execFileSync(node, ['--experimental-sea-config', configFile], { stdio: 'inherit' });
  copyFileSync(node, exe);
  chmodSync(exe, 0o755);
  execFileSync('npx', ['-y', 'postject@1.0.0-alpha.6', exe, 'NODE_SEA_BLOB', blob,
    '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'], { stdio: 'inherit' });
  rmSync(blob);
}

const expected = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
const printed = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
if (printed !== expected) throw new Error(`${exe} --version printed ${printed}, not ${expected}`);
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
console.log(`${exe}: ${mib(statSync(exe).size)} (Node ${version}, ${mib(statSync(node).size)}; script ${mib(statSync(script).size)})`);
