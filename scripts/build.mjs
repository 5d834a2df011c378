#!/usr/bin/env node
// Builds dist/, three builds from one source, each shaped for who loads it:
//
//   dist/cli/main.js, dist/sandbox/, dist/chunks/   the CLI (what bin/newsstats.cjs loads) and the
//                      sandbox, CommonJS, with every dependency bundled (undici, commander, cli-table3,
//                      csv-stringify, conf, lossless-json; not exceljs, see below)
//   dist/esm/          the library as ES modules: `import { NewsStatsClient } from 'newsstats'`, and
//                      `newsstats/sandbox`
//   dist/cjs/          the same as CommonJS: `require('newsstats')`
//
// Each CommonJS folder holds a package.json saying `"type": "commonjs"`; dist/esm has none, so the
// package's own (`"type": "module"`, the name and the exports) applies there and dist/esm can import
// `newsstats/sandbox` by name.
//   dist/THIRD-PARTY-NOTICES.md   the licence of every package whose code a build bundled
//   dist/help/         every command's --help text as printed to a pipe (scripts/static-help.mjs)
//
// Nouns, renderers and the sandbox stay behind dynamic imports: code splitting turns each into a
// chunk loaded only when a run needs it.
//
// The CLI is CommonJS. On Node 20 the ES module loader costs about 3.5 ms before the first module
// and 0.2 ms a module after it, against 0.1 ms a CommonJS file (npm run bench:module-loader); a query
// loads about 50 chunks. esbuild splits only ES modules, so the split output is turned into CommonJS
// file by file, each import() becoming a require() in a resolved promise; a package.json in each
// CommonJS folder says so.
//
// The library is one set of ES modules, one file per source file (dist/esm, not bundled): a consumer's
// bundler keeps only the modules a program imports ("sideEffects": false), so a program importing
// `stringify` alone carries no client. Its dependencies (undici, lossless-json) stay imports, resolved
// from node_modules. dist/cjs is a CommonJS face over the same modules (`module.exports =
// require('../esm/index.js')`, Node's require of ES modules, 20.19 and later), so `require` and
// `import` share one copy of each class and `instanceof` holds across them. The transport a client
// uses by default is imported as `#newsstats/default-transport`, which package.json "imports" resolves
// to undici's on Node and to fetch's on Deno, Bun, Workers and browsers: their bundles never hold
// undici or Node's built-ins. startSandbox() imports `newsstats/sandbox` by a name no bundler follows
// (hideSandboxImport).
//
// Any warning from esbuild fails the build: a warning is code that will not do what it says
// (`import.meta.dirname` in CommonJS is undefined).
//
//   npm run build                 (all of it, with the .d.ts files for both library builds)
//   node scripts/build.mjs        (the JavaScript only: what the tests need, test/global-setup.ts)
import { build, formatMessages, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeStaticHelp } from './static-help.mjs';

export const target = 'node20.19';
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Thrown when esbuild warned: the message lists every warning, formatted as esbuild prints them. */
export class BuildWarningError extends Error {
  name = 'BuildWarningError';
}

async function failOnWarnings(step, warnings) {
  if (warnings.length === 0) return;
  const text = await formatMessages(warnings, { kind: 'warning', color: false });
  throw new BuildWarningError(`${step}: esbuild warned, and a warning fails the build:\n${text.join('')}`);
}

const common = {
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target,
  // No keepNames in the CLI's build: it wraps every function and class in a __name() call run at
  // load (about 1,000 of them and 72 KB of a query's 1.1 MB), 4% of the CPU of a query with an empty
  // cache on Node 24 (docs/performance.md, "Start-up machinery"). What changes: a name esbuild had to
  // change to keep two modules' apart carries a digit (stringify2 in a stack trace, CommanderError2 as
  // commander's error.name, which the CLI never prints: exit-codes.ts tells them by instanceof). The
  // library's undici bundle keeps keepNames: its classes are what a program of the user's inspects.
  write: false,
  metafile: true,
  logLevel: 'silent', // warnings are collected and fail the build (failOnWarnings)
  chunkNames: 'chunks/[name]-[hash]',
  // exceljs stays in node_modules: bundled, its old dependencies' `new Buffer()` would no longer be
  // inside node_modules and Node would print a deprecation warning on every xlsx export. It is loaded
  // only for -f xlsx, and is not installed with newsstats (src/output/exceljs.ts says why).
  // jq-web (--jq) reads jq.wasm from its own folder, so it too is loaded from node_modules.
  // The AWS SDK's S3 client (sync s3://) is an optional peer dependency too: 22 MB that no other run
  // uses (src/sync/destinations/s3.ts, docs/sync.md "Object storage").
  external: ['exceljs', 'exceljs/*', 'jq-web', '@aws-sdk/client-s3'],
};

/**
 * A bundler follows every import() whose argument is a string, so a consumer's bundle of dist/esm would
 * carry the sandbox (about 110 KB) whether or not it calls startSandbox(). In dist/esm, startSandbox()
 * imports the package's own `newsstats/sandbox` by a name computed at run time: Node resolves it to
 * dist/esm/sandbox/server.js, the same modules as the entry's; a bundle leaves it to Node at run time
 * (a bundle that calls startSandbox imports it from 'newsstats/sandbox' instead: docs/library.md).
 */
const SANDBOX_ENTRY = 'newsstats/sandbox';

/**
 * Bundled CommonJS (undici) requires Node's built-ins; in an ES module there is no require(), and
 * esbuild's stand-in throws "Dynamic require of node:net is not supported", in our build and in any
 * bundle made of it. process.getBuiltinModule (Node 20.16) returns a built-in synchronously, as
 * require() did, and on first use, so undici's lazy requires stay lazy.
 */
const builtinsWithoutRequire = {
  name: 'builtins-without-require',
  setup(pluginBuild) {
    const builtins = new Set(builtinModules);
    pluginBuild.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, ({ path, kind }) => {
      const name = path.replace(/^node:/, '');
      // node:sqlite and node:test exist only with the prefix (and not at all on Node 20).
      if (kind !== 'require-call' || !(builtins.has(name) || path.startsWith('node:'))) return undefined;
      return { path: `node:${name}`, namespace: 'builtin' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(path)});`,
      loader: 'js',
    }));
  },
};

/** The specifier of the default transport in dist/esm, resolved by package.json "imports". */
const DEFAULT_TRANSPORT = '#newsstats/default-transport';

/** `from` replaced by `to` in exactly one output file, or a BuildWarningError saying what changed. */
function replaceOnce(step, outputFiles, from, to) {
  const found = outputFiles.filter(({ text }) => text.includes(from));
  if (found.length !== 1) throw new BuildWarningError(`${step}: expected one ${from} in the output, found ${found.length}: did the source change?`);
  return outputFiles.map((file) => (file === found[0] ? { path: file.path, text: file.text.replace(from, to) } : file));
}

/** Writes each output file, turned into CommonJS when `commonjs` (import() becoming a resolved require()). */
async function writeOutputs(step, outputFiles, { commonjs }) {
  await Promise.all(outputFiles.map(async ({ path, text }) => {
    let code = text;
    if (commonjs) {
      const result = await transform(text, { format: 'cjs', platform: 'node', target, supported: { 'dynamic-import': false } });
      await failOnWarnings(`${step} (${relative(repo, path)} as CommonJS)`, result.warnings);
      code = result.code;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, code);
  }));
}

/**
 * One build: bundles `entryPoints` into `outdir` (split ES modules), then writes them as they are or
 * as CommonJS. Rejects with a BuildWarningError when esbuild warned at either step.
 * Returns esbuild's metafile (what went in, for the notices).
 */
export async function buildOne({ step, entryPoints, outdir, outbase = join(repo, 'src'), commonjs, external = [], plugins = [], rewrite = (_step, files) => files }) {
  const result = await build({
    ...common,
    entryPoints,
    outdir,
    outbase,
    external: [...common.external, ...external],
    plugins,
  });
  await failOnWarnings(step, result.warnings);
  if (!commonjs) {
    const shimmed = result.outputFiles.filter(({ text }) => text.includes('Dynamic require of'));
    if (shimmed.length > 0) {
      throw new BuildWarningError(`${step}: a require() is left in ES modules, which would throw "Dynamic require" when run: ${shimmed.map(({ path }) => relative(repo, path)).join(', ')}`);
    }
  }
  await writeOutputs(step, rewrite(step, result.outputFiles), { commonjs });
  return result.metafile;
}

/**
 * The CLI's build leaves Node's HTTP/2 module out. undici loads it when it loads its client, for
 * HTTP/2, which the CLI never asks for (allowH2 stays off), and carries on without it when it is
 * missing, as on a Node built without it (lib/dispatcher/client-h2.js catches the require). Loading
 * it cost a query about a fifth of its CPU on Node 24 and 26 (docs/performance.md, "Start-up
 * machinery"); undici's own code is bundled as published. test/build/startup-modules.test.ts checks no
 * command loads it. The library's builds keep it: a program may ask its client for HTTP/2.
 */
export const withoutHttp2 = {
  name: 'without-http2',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^(node:)?http2$/ }, () => ({ path: 'node:http2', namespace: 'without-http2' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
      contents: "throw new Error('node:http2 is left out of the newsstats CLI (scripts/build.mjs)');",
      loader: 'js',
    }));
  },
};

const src = (path) => join(repo, 'src', path);
const dist = join(repo, 'dist');

export const builds = [
  {
    step: 'the CLI and the sandbox (dist/cli, dist/sandbox, dist/chunks)',
    entryPoints: [
      { in: src('cli/run/main.ts'), out: 'cli/main' }, // dist/cli/main.js: what bin/newsstats.cjs loads
      src('sandbox/server.ts'), // bench/sandbox.mjs starts the sandbox directly
      src('sandbox/data/index.ts'),
    ],
    outdir: dist,
    commonjs: true,
    // NEWSSTATS_BUILD_WITH_HTTP2=1 npm run build keeps it (docs/performance.md, "Start-up machinery").
    plugins: process.env.NEWSSTATS_BUILD_WITH_HTTP2 ? [] : [withoutHttp2],
  },
];

/**
 * The library: every source file that src/index.ts, the sandbox's entry and the fetch transport's
 * default reach, each transpiled to one ES module in dist/esm (see the top of this file), and
 * dist/cjs's CommonJS face over them.
 */
export async function buildLibrary() {
  const step = 'the library (dist/esm, dist/cjs)';
  const entries = ['index.ts', 'sandbox/server.ts', 'api/core/default-transport-fetch.ts'].map(src);
  // Which source files the library reaches: a bundling pass that writes nothing, packages left out.
  const probe = await build({
    entryPoints: entries, outdir: join(dist, 'esm'), bundle: true, write: false, metafile: true, packages: 'external', platform: 'node', format: 'esm', target,
    logLevel: 'silent', absWorkingDir: repo,
  });
  await failOnWarnings(step, probe.warnings);
  const files = Object.keys(probe.metafile.inputs).filter((input) => input.startsWith('src/') && input.endsWith('.ts')).map((input) => join(repo, input));
  const result = await build({
    entryPoints: files, outdir: join(dist, 'esm'), outbase: join(repo, 'src'), bundle: false, format: 'esm', platform: 'neutral', target,
    write: false, logLevel: 'silent',
  });
  await failOnWarnings(step, result.warnings);
  let outputs = replaceOnce(step, result.outputFiles, 'from "./default-transport.js"', `from ${JSON.stringify(DEFAULT_TRANSPORT)}`);
  outputs = replaceOnce(step, outputs, 'import("./sandbox/server.js")',
    `import(/* webpackIgnore: true */ /* @vite-ignore */ ${JSON.stringify(SANDBOX_ENTRY.split('/'))}.join("/"))`);
  await writeOutputs(step, outputs, { commonjs: false });
  // undici, bundled into the one module that imports it (src/api/core/undici.ts says why).
  const undici = await build({
    ...common, keepNames: true, splitting: false, entryPoints: [src('api/core/undici.ts')], outdir: join(dist, 'esm', 'api', 'core'), plugins: [builtinsWithoutRequire],
  });
  await failOnWarnings(`${step}: undici`, undici.warnings);
  if (undici.outputFiles.some(({ text }) => text.includes('Dynamic require of'))) {
    throw new BuildWarningError(`${step}: a require() is left in dist/esm/api/core/undici.js, which would throw "Dynamic require" when run`);
  }
  await writeOutputs(`${step}: undici`, undici.outputFiles, { commonjs: false });
  const faces = { 'index.js': '../esm/index.js', 'sandbox/server.js': '../../esm/sandbox/server.js' };
  for (const [file, target_] of Object.entries(faces)) {
    await mkdir(dirname(join(dist, 'cjs', file)), { recursive: true });
    await writeFile(join(dist, 'cjs', file), `'use strict';\n// The library's ES modules, required (Node 20.19 and later): one copy of each class for require and import.\nmodule.exports = require(${JSON.stringify(target_)});\n`);
  }
}

/** The folder of the package a bundled file came from, e.g. node_modules/@colors/colors. */
function packageFolder(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/**
 * dist/THIRD-PARTY-NOTICES.md: every package whose code is in dist/, with its licence text. A bundled
 * package without a licence file fails the build (its licence says the text must travel with it).
 */
export function thirdPartyNotices(metafiles) {
  const folders = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const folder = packageFolder(input);
      if (folder) folders.add(folder);
    }
  }
  const sections = [...folders].map((folder) => {
    const manifest = JSON.parse(readFileSync(join(repo, folder, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(join(repo, folder)).find((name) => /^(licen[cs]e|copying)(-[a-z0-9.]+)?(\.(md|txt))?$/i.test(name));
    if (!licenceFile) throw new Error(`${manifest.name}@${manifest.version} is bundled into dist/ but ships no licence file to copy into the notices`);
    const text = readFileSync(join(repo, folder, licenceFile), 'utf8').trim();
    return { name: manifest.name, version: manifest.version, licence: manifest.license, text };
  });
  sections.sort((a, b) => a.name.localeCompare(b.name));
  const head = [
    '# Third-party notices',
    '',
    'newsstats bundles code from these packages into dist/ (scripts/build.mjs writes this file from what',
    'each build took in). Each is used under the licence below.',
    '',
  ];
  const body = sections.flatMap(({ name, version, licence, text }) => [`## ${name} ${version} (${licence})`, '', '```', text, '```', '']);
  return [...head, ...body].join('\n');
}

/** The declarations of the library: tsc writes them to dist/esm, and dist/cjs gets the same files. */
function declarations() {
  execFileSync(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(repo, 'tsconfig.build.json')], { stdio: 'inherit' });
  cpSync(join(dist, 'esm'), join(dist, 'cjs'), { recursive: true, filter: (path) => !path.endsWith('.js') });
}

async function main() {
  const withTypes = process.argv.includes('--types');
  rmSync(dist, { recursive: true, force: true });
  const metafiles = [];
  for (const options of builds) metafiles.push(await buildOne(options));
  await buildLibrary();
  const commonjs = `${JSON.stringify({ type: 'commonjs' })}\n`;
  for (const folder of ['cli', 'sandbox', 'chunks', 'cjs']) await writeFile(join(dist, folder, 'package.json'), commonjs);
  await writeFile(join(dist, 'THIRD-PARTY-NOTICES.md'), thirdPartyNotices(metafiles));
  await writeStaticHelp(repo, dist); // dist/help/: what bin/newsstats.cjs prints for a piped --help
  if (withTypes) declarations();
  if (!existsSync(join(dist, 'cli', 'main.js'))) throw new Error('dist/cli/main.js was not written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    console.error(error instanceof BuildWarningError ? error.message : error);
    process.exitCode = 1;
  }
}
