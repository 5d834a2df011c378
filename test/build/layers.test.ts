/**
 * The layer rule (lint/layers.js) that `npm run lint` runs in CI: it refuses imports up the layers,
 * whatever form they take, and docs/design.md's "Layers" table says what the rule enforces.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
// @ts-expect-error lint/layers.js is plain JavaScript without declarations.
import { LAYERS, layerOf, layersConfig } from '../../lint/layers.js';

interface Layer {
  name: string;
  paths: string[];
  mayImport: string[];
}

const ROOT = resolve(import.meta.dirname, '../..');

/** ESLint with only the layer rule (the type-aware rules would need the whole project loaded). */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, layersConfig],
});

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.map((message) => `${message.ruleId ?? 'parse'}: ${message.message}`);
}

describe('the layer rule', () => {
  it('refuses an import up the layers in every form: static, type, re-export, import(), import type', async () => {
    const planted = [
      "import { UsageError } from '../cli/errors.js';",
      "import type { Row } from '../output/view.js';",
      "export { printable } from '../cli/reporter.js';",
      "export const load = () => import('../cli/main.js');",
      "export type Main = typeof import('../cli/main.js');",
    ];
    const found = await problems('src/config/planted.ts', planted.join('\n'));
    expect(found).toEqual([
      'layers/order: config may not import cli (../cli/errors.js): config imports only api, schema, shared (docs/design.md, "Layers")',
      'layers/order: config may not import output (../output/view.js): config imports only api, schema, shared (docs/design.md, "Layers")',
      'layers/order: config may not import cli (../cli/reporter.js): config imports only api, schema, shared (docs/design.md, "Layers")',
      'layers/order: config may not import cli (../cli/main.js): config imports only api, schema, shared (docs/design.md, "Layers")',
      'layers/order: config may not import cli (../cli/main.js): config imports only api, schema, shared (docs/design.md, "Layers")',
    ]);
  });

  it('resolves the path, however deep the importing file is', async () => {
    expect(await problems('src/api/resources/planted.ts', "import { printable } from '../../output/text.js';")).toHaveLength(1);
    expect(await problems('src/shared/exact-json/planted.ts', "import { HTTP_DEFAULTS } from '../../api/options.js';")).toHaveLength(1);
    expect(await problems('src/index.ts', "export { main } from './cli/main.js';")).toHaveLength(1);
  });

  it('lets imports go down the layers and within one', async () => {
    const allowed = [
      "import { printable } from '../shared/printable.js';",
      "import { parseJson } from '../api/json.js';",
      "import { VERSION } from '../shared/version.js';",
      "import { parseWeek } from '../shared/weeks.js';",
      "import { ConfigFileError } from './store.js';",
      "import Conf from 'conf';",
    ];
    expect(await problems('src/config/planted.ts', allowed.join('\n'))).toEqual([]);
    expect(await problems('src/cli/commands/people/planted.ts', "import { Row } from '../../../output/view.js';\nimport { read } from '../../../sync/read.js';")).toEqual([]);
  });

  it('names a file under src/ that no layer claims', async () => {
    expect(await problems('src/planted.ts', 'export const x = 1;')).toEqual([
      'layers/order: planted.ts is in no layer: add it to LAYERS in lint/layers.js and to docs/design.md, "Layers"',
    ]);
  });

  it('is on in the project\'s ESLint config, for every file of src/', async () => {
    const project = new ESLint({ cwd: ROOT });
    for (const file of ['src/api/core/http-client.ts', 'src/cli/run/main.ts', 'src/shared/printable.ts', 'src/index.ts']) {
      const config = (await project.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown[]> };
      expect(config.rules['layers/order']?.[0], file).toBe(2);
    }
  });

  it('claims every file of src/ as it is today', () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).map((file) => join(ROOT, 'src', file));
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => !layerOf(file))).toEqual([]);
  });
});

describe('docs/design.md, "Layers"', () => {
  it('is the rule\'s table in words: each layer, its paths and what it may import', () => {
    const design = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');
    const section = design.slice(design.indexOf('## Layers'), design.indexOf('\n## ', design.indexOf('## Layers') + 1));
    const rows = [...section.matchAll(/^\| `([a-z]+)` \| (.+?) \| (.+?) \|$/gm)].map(([, name, paths, imports]) => ({
      name,
      paths: [...paths!.matchAll(/`src\/([^`]+?)(?:\.ts)?`/g)].map(([, path]) => path),
      mayImport: [...imports!.matchAll(/`([a-z]+)`/g)].map(([, layer]) => layer),
    }));
    expect(rows).toEqual((LAYERS as Layer[]).map(({ name, paths, mayImport }) => ({ name, paths, mayImport })));
  });
});
