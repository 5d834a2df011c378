/**
 * A build that fails loudly (scripts/build.mjs): an esbuild warning fails it, so does a require()
 * left in the ES module build. The dependencies are bundled as published: no source of theirs is
 * patched, and undici and commander take ordinary semver ranges.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildWarningError, buildOne } from '../../scripts/build.mjs';

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

describe('dependencies bundled as published', () => {
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const declared = { ...manifest.devDependencies, ...manifest.dependencies };

  it.each(['undici', 'commander'])('%s takes a caret range, so its fixes arrive with npm update', (name) => {
    expect(declared[name]).toMatch(/^\^\d+\.\d+\.\d+$/);
  });

  it("the CLI's chunks hold undici's HTTP/2 client as published, with Node's HTTP/2 module left out (the CLI never asks for HTTP/2)", () => {
    const chunks = join(REPO, 'dist', 'chunks');
    const built = readdirSync(chunks).map((name) => readFileSync(join(chunks, name), 'utf8')).join('\n');
    // undici's own line, unchanged, and its fallback for a Node without node:http2.
    expect(built).toContain('var connectH2 = require_client_h2()');
    expect(built).toContain('node:http2 is left out of the newsstats CLI');
    expect(built).not.toMatch(/require\("node:http2"\)/);
  });
});
