/**
 * The library as consumers bundle it (issues #19, #32): a small consumer of 'newsstats', written with
 * `import` and with `require`, bundled by esbuild (ES modules and CommonJS), Rollup, webpack and Vite
 * for Node, then run against the sandbox, so undici's requires of Node's built-ins and lossless-json's
 * class are exercised inside each bundle; no bundler may warn. Also: one copy of each error class
 * whichever way the package is loaded; a bundle for Workers and browsers holds no Node built-in; a
 * bundle of `stringify` alone holds no client (sizes printed for docs/library.md); the bundles leave the
 * sandbox out; and `import ns from 'newsstats'` fails the same way in Node and in a bundle (there is no
 * default export).
 * Needs dist/esm and dist/cjs (test/global-setup.ts builds them).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import commonjsPlugin from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { build } from 'esbuild';
import { rollup, type Plugin } from 'rollup';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { REPO, sandbox, spawnAndCollect } from '../e2e/harness.js';

/**
 * Queries the sandbox in lossless mode and prints what a consumer would check. lossless-json is itself
 * two packages (one for import, one for require), so a CommonJS program tests its numbers with
 * isLosslessNumber, or with the LosslessNumber newsstats exports (docs/library.md says so).
 */
/** The plugin's declarations describe an ES module's default; loaded here it is the function itself. */
const commonjs = commonjsPlugin as unknown as (options: { transformMixedEsModules: boolean }) => Plugin;

const consumerBody = `
const client = new NewsStatsClient({ baseUrl: process.env.URL, apiKey: process.env.KEY, numbers: 'lossless' });
client.people.top({ weeks: 'last4', limit: 3 }).then((rows) => {
  const mentions = rows.map((row) => row.mentionCount);
  console.log(JSON.stringify({
    rows: rows.length,
    lossless: mentions.every((value) => isLosslessNumber(value)),
    reexported: mentions.every((value) => value instanceof ReexportedLosslessNumber),
  }));
});
`;
const esmConsumer = `import { NewsStatsClient, LosslessNumber as ReexportedLosslessNumber } from 'newsstats';
import { isLosslessNumber } from 'lossless-json';
${consumerBody}`;
const cjsConsumer = `const { NewsStatsClient, LosslessNumber: ReexportedLosslessNumber } = require('newsstats');
const { isLosslessNumber } = require('lossless-json');
${consumerBody}`;
const expected = { rows: 3, lossless: true, reexported: true };
/** A name in the sandbox's code and nowhere else in dist/esm. */
const SANDBOX_ONLY = 'createSandboxModel';

let project: string;
let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox();
  // A project with newsstats (this repository) and lossless-json installed, as npm would link them.
  project = mkdtempSync(join(tmpdir(), 'newsstats-bundlers-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'newsstats'));
  symlinkSync(join(REPO, 'node_modules', 'lossless-json'), join(project, 'node_modules', 'lossless-json'));
  writeFileSync(join(project, 'consumer.mjs'), esmConsumer);
  writeFileSync(join(project, 'consumer.cjs'), cjsConsumer);
});
afterAll(() => server.close());

async function run(file: string): Promise<unknown> {
  const result = await spawnAndCollect(process.execPath, [file], { PATH: process.env.PATH ?? '', URL: server.url, KEY: server.key }, { cwd: project });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

async function esbuild(entry: string, format: 'esm' | 'cjs') {
  const outfile = join(project, `${entry}.esbuild.${format === 'esm' ? 'mjs' : 'cjs'}`);
  const { metafile } = await build({ entryPoints: [join(project, entry)], outfile, bundle: true, platform: 'node', format, metafile: true, logLevel: 'silent' });
  return { outfile, inputs: Object.keys(metafile.inputs) };
}

describe('a consumer bundled and run', () => {
  it('unbundled, as Node loads it: import and require', async () => {
    expect(await run(join(project, 'consumer.mjs'))).toEqual(expected);
    expect(await run(join(project, 'consumer.cjs'))).toEqual(expected);
  });

  it('esbuild --format=esm: runs, and leaves the sandbox out', async () => {
    const { outfile, inputs } = await esbuild('consumer.mjs', 'esm');
    expect(await run(outfile)).toEqual(expected);
    // The sandbox's option error is a class of its own the entry exports; nothing else of the sandbox.
    expect(inputs.filter((input) => input.includes('/sandbox/') && !input.endsWith('sandbox/option-error.js'))).toEqual([]);
    expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    expect(inputs.some((input) => input.includes('dist/esm/index.js'))).toBe(true);
  });

  it('esbuild --format=cjs, from import and from require', async () => {
    expect(await run((await esbuild('consumer.mjs', 'cjs')).outfile)).toEqual(expected);
    const fromRequire = await esbuild('consumer.cjs', 'cjs');
    expect(fromRequire.inputs.some((input) => input.includes('dist/cjs/index.js'))).toBe(true);
    expect(await run(fromRequire.outfile)).toEqual(expected);
  });

  it('Rollup (node-resolve and commonjs), from require: runs, no warning, no sandbox', async () => {
    const warnings: string[] = [];
    const bundle = await rollup({
      input: join(project, 'consumer.cjs'),
      plugins: [nodeResolve({ exportConditions: ['node', 'require'], preferBuiltins: true }), commonjs({ transformMixedEsModules: true })],
      external: (id) => id.startsWith('node:'),
      onwarn: (warning) => warnings.push(warning.message),
    });
    const outfile = join(project, 'consumer.rollup.cjs');
    await bundle.write({ file: outfile, format: 'cjs', inlineDynamicImports: true });
    await bundle.close();
    expect(await run(outfile)).toEqual(expected);
    expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    expect(warnings.filter((message) => !/Circular dependency/.test(message))).toEqual([]);
  });

  it('Rollup (node-resolve, ES modules)', async () => {
    const warnings: string[] = [];
    const bundle = await rollup({
      input: join(project, 'consumer.mjs'),
      plugins: [nodeResolve({ exportConditions: ['node'], preferBuiltins: true })],
      external: (id) => id.startsWith('node:'),
      onwarn: (warning) => warnings.push(warning.message),
    });
    const outfile = join(project, 'consumer.rollup.mjs');
    await bundle.write({ file: outfile, format: 'esm', inlineDynamicImports: true });
    await bundle.close();
    expect(await run(outfile)).toEqual(expected);
    expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    expect(warnings.filter((message) => !/Circular dependency/.test(message))).toEqual([]);
  });
});

describe('a consumer bundled by webpack', () => {
  for (const entry of ['consumer.mjs', 'consumer.cjs']) {
    it(`target node, production mode, ${entry.endsWith('.mjs') ? 'import' : 'require'}: runs, no warning, no sandbox`, async () => {
      const outdir = join(project, `webpack-${entry}`);
      const stats = await new Promise<webpack.Stats>((resolvePromise, reject) => {
        webpack(
          { mode: 'production', target: 'node', entry: join(project, entry), output: { path: outdir, filename: 'consumer.cjs' }, optimization: { minimize: false } },
          (error, result) => (error || !result ? reject(error ?? new Error('webpack returned nothing')) : resolvePromise(result)),
        );
      });
      const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
      expect([...(errors ?? []), ...(warnings ?? [])].map(({ message }) => message)).toEqual([]);
      const outfile = join(outdir, 'consumer.cjs');
      expect(await run(outfile)).toEqual(expected);
      expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    });
  }
});

describe('a consumer bundled by Vite (build --ssr, for Node)', () => {
  for (const entry of ['consumer.mjs', 'consumer.cjs']) {
    it(`${entry.endsWith('.mjs') ? 'import' : 'require'}: runs, no warning, no sandbox`, async () => {
      const { build: viteBuild } = await import('vite');
      const warnings: string[] = [];
      const outDir = join(project, `vite-${entry}`);
      await viteBuild({
        root: project, logLevel: 'silent', configFile: false,
        ssr: { noExternal: true },
        build: {
          ssr: join(project, entry), outDir, minify: false, emptyOutDir: true,
          rollupOptions: { output: { entryFileNames: 'consumer.mjs' }, onwarn: (warning) => { warnings.push(warning.message); } },
        },
      });
      expect(warnings.filter((message) => !/Circular dependency/.test(message))).toEqual([]);
      const outfile = join(outDir, 'consumer.mjs');
      expect(await run(outfile)).toEqual(expected);
      expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    });
  }
});

describe('one library whichever way it is loaded', () => {
  it('require and import give the same error classes (instanceof holds across them)', async () => {
    writeFileSync(join(project, 'both.mjs'), `import { createRequire } from 'node:module';
import * as imported from 'newsstats';
const required = createRequire(import.meta.url)('newsstats');
const names = ['NewsStatsError', 'ApiError', 'TimeoutError', 'AbortError', 'NewsStatsClient', 'LosslessNumber'];
const error = new required.TimeoutError({ method: 'GET', url: '/x', host: 'h:1', timeoutMs: 1 });
console.log(JSON.stringify({ same: names.filter((name) => imported[name] !== required[name]), instance: error instanceof imported.NewsStatsError }));
`);
    expect(await run(join(project, 'both.mjs'))).toEqual({ same: [], instance: true });
  });
});

describe('bundles for runtimes without Node\'s built-ins, and what one helper costs', () => {
  async function minified(source: string, conditions: string[], platform: 'browser' | 'node' | 'neutral') {
    const entry = join(project, `size-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(entry, source);
    const result = await build({
      entryPoints: [entry], bundle: true, minify: true, write: false, format: 'esm', platform, conditions, logLevel: 'silent',
      ...(platform === 'neutral' ? { mainFields: ['module', 'main'] } : {}),
    });
    expect(result.warnings).toEqual([]);
    return result.outputFiles[0]!.text;
  }
  const CLIENT = "import { NewsStatsClient } from 'newsstats';\nexport const client = new NewsStatsClient({ baseUrl: 'https://stats.example.com', apiKey: 'k' });\nexport const weeks = () => client.weeks.current();\n";
  const STRINGIFY = "import { stringify } from 'newsstats';\nexport const text = stringify({ a: 1 });\n";

  it('Workers (workerd) and browsers: the client builds with the fetch transport, no undici, no node: import', async () => {
    for (const conditions of [['workerd', 'worker', 'browser'], ['browser']]) {
      const text = await minified(CLIENT, conditions, conditions[0] === 'workerd' ? 'neutral' : 'browser');
      expect(text).not.toMatch(/["']node:/);
      expect(text).not.toMatch(/getBuiltinModule|lib\/dispatcher|process\.hrtime/);
      expect(text).toContain('redirect:"manual"');
    }
  });

  it('importing stringify alone brings no client: sizes of the minified bundles', async () => {
    const sizes = {
      nodeClient: (await minified(CLIENT, [], 'node')).length,
      workerClient: (await minified(CLIENT, ['workerd', 'worker', 'browser'], 'neutral')).length,
      stringify: (await minified(STRINGIFY, [], 'node')).length,
    };
    console.log(`minified bundle sizes (bytes): ${JSON.stringify(sizes)}`);
    const stringifyOnly = await minified(STRINGIFY, [], 'node');
    expect(stringifyOnly).not.toContain('x-api-key');
    expect(stringifyOnly).not.toMatch(/getBuiltinModule|lib\/dispatcher/);
    expect(sizes.stringify).toBeLessThan(sizes.workerClient / 3);
  });
});

describe('import ns from "newsstats": no default export, in Node and in a bundle alike', () => {
  it('Node refuses it at link time', async () => {
    writeFileSync(join(project, 'default.mjs'), "import ns from 'newsstats';\nconsole.log(typeof ns);\n");
    const result = await spawnAndCollect(process.execPath, [join(project, 'default.mjs')], { PATH: process.env.PATH ?? '' }, { cwd: project });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/does not provide an export named 'default'/);
  });

  it('esbuild refuses it at build time', async () => {
    await expect(esbuild('default.mjs', 'esm')).rejects.toThrow(/No matching export .* for import "default"/);
  });
});
