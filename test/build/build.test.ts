/**
 * A build that fails loudly (scripts/build.mjs): an esbuild warning fails it, so does a require()
 * left in the ES module build; each string patch of scripts/defer-requires.mjs still finds its line in
 * the installed dependency, and the patched dependencies are pinned to the exact version installed.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildWarningError, buildOne } from '../../scripts/build.mjs';
import { deferredRequires } from '../../scripts/defer-requires.mjs';

const REPO = resolve(import.meta.dirname, '../..');

/** Builds one fixture file as scripts/build.mjs builds src/. */
function buildFixture(source: string, commonjs: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'newsstats-build-'));
  const entry = join(dir, 'fixture.ts');
  writeFileSync(entry, source);
  const outdir = join(dir, 'out');
  return { outdir, built: buildOne({ step: 'fixture', entryPoints: [entry], outdir, outbase: dir, commonjs }) };
}

describe('the build fails on what would ship broken', () => {
  it('import.meta.dirname in CommonJS (undefined at run time) fails the build, naming it', async () => {
    const { built } = buildFixture('export const HERE = import.meta.dirname;\n', true);
    await expect(built).rejects.toThrow(BuildWarningError);
    await expect(built).rejects.toThrow(/import\.meta/);
  });

  it('a require() left in the ES module build (a "Dynamic require" at run time) fails it', async () => {
    const { built } = buildFixture("import { createRequire } from 'node:module';\nexport const excel = () => require('exceljs');\nvoid createRequire;\n", false);
    await expect(built).rejects.toThrow(/require\(\) is left in ES modules/);
  });

  it('clean code builds, in both formats', async () => {
    for (const commonjs of [true, false]) {
      const { outdir, built } = buildFixture('export const HERE = "here";\n', commonjs);
      await built;
      expect(readFileSync(join(outdir, 'fixture.js'), 'utf8')).toContain('"here"');
    }
  });
});

/** What each patch leaves in the built CLI (dist/chunks, which test/global-setup.ts builds), by the line it replaces. */
const appliedInBuild: Record<string, RegExp> = {
  "const connectH2 = require('./client-h2.js')": /connectH2 = [^;]*\(\.\.\.args\) => require_client_h2\(\)\(\.\.\.args\)/,
  "const http = require('node:http')": /var http = \{ get maxHeaderSize\(\) \{\s*return \[\.\.\.process\.execArgv, [^}]*\("node:http"\)\.maxHeaderSize : 16384;/,
  'const getDefaultNodeMaxHeaderSize = http &&': /getDefaultNodeMaxHeaderSize = [^;]*\(\) => nodeMaxHeaderSize\(\)\(\)/,
  "const { IncomingMessage } = require('node:http')": /isIncomingMessage = [^;]*\(constructor\) => constructor\?\.name === "IncomingMessage" && constructor === [^;]*\("node:http"\)\.IncomingMessage/,
  'if (Object.getPrototypeOf(stream).constructor === IncomingMessage) {': /if \(isIncomingMessage\(Object\.getPrototypeOf\(stream2?\)\.constructor\)\) \{/,
  "const childProcess = require('node:child_process');": /childProcess = \{ spawn: [^;]*\(\.\.\.args\) => [^;]*\("node:child_process"\)\.spawn\(\.\.\.args\)/,
};

describe('patched dependencies', () => {
  it("undici's header size limit, deferred, is node:http's own when no --max-http-header-size is given", async () => {
    expect((await import('node:http')).maxHeaderSize).toBe(16384);
  });

  const chunks = join(REPO, 'dist', 'chunks');
  const built = readdirSync(chunks).map((name) => readFileSync(join(chunks, name), 'utf8')).join('\n');

  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const declared = { ...manifest.devDependencies, ...manifest.dependencies };

  for (const { file, eager } of deferredRequires) {
    const name = file.split('/')[0] ?? file;

    it(`${file}: \`${eager}\` is there, once`, () => {
      const source = readFileSync(join(REPO, 'node_modules', file), 'utf8');
      expect(source.split(eager)).toHaveLength(2);
    });

    it(`${file}: the built CLI holds the patched line for \`${eager}\``, () => {
      const applied = appliedInBuild[eager];
      expect(applied, `appliedInBuild has no check for ${eager}`).toBeDefined();
      expect(built).toMatch(applied!);
    });

    it(`${name} is pinned to the exact version installed`, () => {
      const installed = (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
      expect(declared[name]).toBe(installed);
    });
  }
});
