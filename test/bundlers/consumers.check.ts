/**
 * The library as consumers bundle it (issue #19): a small consumer of 'newsstats', bundled by esbuild
 * to ES modules and to CommonJS, by Rollup and by webpack (node target), then run against the sandbox, so undici's requires of
 * Node's built-ins and lossless-json's class are exercised inside each bundle. Also: the ES module
 * bundle leaves the sandbox out, and `import ns from 'newsstats'` fails the same way in Node and in a
 * bundle (there is no default export).
 * Needs dist/esm and dist/cjs (test/global-setup.ts builds them).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { build } from 'esbuild';
import { rollup } from 'rollup';
import webpack from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { REPO, sandbox, spawnAndCollect } from '../e2e/harness.js';

/** Queries the sandbox in lossless mode and prints what a consumer would check. */
const consumerBody = `
const client = new NewsStatsClient({ baseUrl: process.env.URL, apiKey: process.env.KEY, numbers: 'lossless' });
client.people.top({ weeks: 'last4', limit: 3 }).then((rows) => {
  const mentions = rows.map((row) => row.mentionCount);
  console.log(JSON.stringify({
    rows: rows.length,
    lossless: mentions.every((value) => value instanceof LosslessNumber),
    reexported: mentions.every((value) => value instanceof ReexportedLosslessNumber),
  }));
});
`;
const esmConsumer = `import { NewsStatsClient, LosslessNumber as ReexportedLosslessNumber } from 'newsstats';
import { LosslessNumber } from 'lossless-json';
${consumerBody}`;
const cjsConsumer = `const { NewsStatsClient, LosslessNumber: ReexportedLosslessNumber } = require('newsstats');
const { LosslessNumber } = require('lossless-json');
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
    expect(inputs.filter((input) => input.includes('/sandbox/'))).toEqual([]);
    expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
    expect(inputs.some((input) => input.includes('dist/esm/index.js'))).toBe(true);
  });

  it('esbuild --format=cjs, from import and from require', async () => {
    expect(await run((await esbuild('consumer.mjs', 'cjs')).outfile)).toEqual(expected);
    const fromRequire = await esbuild('consumer.cjs', 'cjs');
    expect(fromRequire.inputs.some((input) => input.includes('dist/cjs/index.js'))).toBe(true);
    expect(await run(fromRequire.outfile)).toEqual(expected);
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
  it('target node, production mode: runs, no warning, no sandbox', async () => {
    const outdir = join(project, 'webpack');
    const stats = await new Promise<webpack.Stats>((resolvePromise, reject) => {
      webpack(
        { mode: 'production', target: 'node', entry: join(project, 'consumer.mjs'), output: { path: outdir, filename: 'consumer.cjs' }, optimization: { minimize: false } },
        (error, result) => (error || !result ? reject(error ?? new Error('webpack returned nothing')) : resolvePromise(result)),
      );
    });
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    expect([...(errors ?? []), ...(warnings ?? [])].map(({ message }) => message)).toEqual([]);
    const outfile = join(outdir, 'consumer.cjs');
    expect(await run(outfile)).toEqual(expected);
    expect(readFileSync(outfile, 'utf8')).not.toContain(SANDBOX_ONLY);
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
