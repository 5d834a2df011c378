// The layers of src/ and what each may import: docs/design.md, "Layers", is this table in words (a
// test keeps the two equal). An ESLint rule of our own rather than no-restricted-imports, which sees
// only the text of a path (`../cli/x` from one folder, `../../cli/x` from the next) and never an
// `import()`, the way most of the CLI loads its modules; this one resolves every relative import,
// static, dynamic, re-export or `import('...')` type, to the file it names.
import { dirname, relative, resolve, sep } from 'node:path';

/**
 * Lowest first. `paths` are relative to src/: a folder ends with `/`, a module is named without its
 * extension. Imports within a layer are free; across layers only those in `mayImport`.
 */
export const LAYERS = [
  { name: 'shared', paths: ['shared/'], mayImport: [] },
  { name: 'schema', paths: ['schema/'], mayImport: ['shared'] },
  { name: 'api', paths: ['api/'], mayImport: ['schema', 'shared'] },
  { name: 'output', paths: ['output/'], mayImport: ['api', 'schema', 'shared'] },
  { name: 'config', paths: ['config/'], mayImport: ['api', 'schema', 'shared'] },
  { name: 'sandbox', paths: ['sandbox/'], mayImport: ['api', 'schema', 'shared'] },
  { name: 'library', paths: ['index'], mayImport: ['api', 'sandbox', 'schema', 'shared'] },
  { name: 'sync', paths: ['sync/'], mayImport: ['api', 'output', 'schema', 'shared'] },
  { name: 'mcp', paths: ['mcp/'], mayImport: ['api', 'config', 'output', 'sandbox', 'schema', 'shared', 'sync'] },
  { name: 'cli', paths: ['cli/'], mayImport: ['api', 'config', 'mcp', 'output', 'sandbox', 'schema', 'shared', 'sync'] },
];

const SOURCE_ROOT = resolve(import.meta.dirname, '..', 'src');
const EXTENSION = /(\.d)?\.[cm]?[jt]s$/;

/** The layer of a file under src/, `null` for one no layer claims, `undefined` outside src/. */
export function layerOf(file, root = SOURCE_ROOT) {
  const path = relative(root, file).split(sep).join('/');
  if (path.startsWith('..') || path === '' || path.startsWith('/')) return undefined;
  const module = path.replace(EXTENSION, '');
  const layer = LAYERS.find(({ paths }) => paths.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : module === entry)));
  return layer ?? null;
}

/** @type {import('eslint').Rule.RuleModule} */
const order = {
  meta: {
    type: 'problem',
    docs: { description: 'src/ imports only down the layers of docs/design.md' },
    schema: [],
    messages: {
      leak: '{{from}} may not import {{to}} ({{target}}): {{from}} imports only {{allowed}} (docs/design.md, "Layers")',
      unknown: '{{file}} is in no layer: add it to LAYERS in lint/layers.js and to docs/design.md, "Layers"',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const from = layerOf(file);
    if (from === undefined) return {};
    if (from === null) {
      return {
        Program(node) {
          context.report({ node, messageId: 'unknown', data: { file: relative(SOURCE_ROOT, file) } });
        },
      };
    }
    const check = (node) => {
      if (node?.type !== 'Literal' || typeof node.value !== 'string' || !node.value.startsWith('.')) return;
      const target = resolve(dirname(file), node.value);
      const to = layerOf(target);
      if (to === undefined || to === from || to === null || from.mayImport.includes(to.name)) return;
      context.report({
        node,
        messageId: 'leak',
        data: { from: from.name, to: to.name, target: node.value, allowed: from.mayImport.join(', ') || 'nothing outside itself' },
      });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // `typeof import('../cli/x.js')` in a type (`source` since typescript-eslint 8.4x, `argument` before).
      TSImportType: (node) => check(node.source ?? (node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument)),
    };
  },
};

export const layersPlugin = { rules: { order } };

/** The block eslint.config.js adds: the rule on every file under src/. */
export const layersConfig = {
  files: ['src/**/*.ts'],
  plugins: { layers: layersPlugin },
  rules: { 'layers/order': 'error' },
};
