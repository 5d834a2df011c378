/**
 * The TypeScript interfaces of the records (records.ts), written from the schema with each field's
 * description as its doc comment, so what an editor shows on hover is the schema's own line.
 * `UPDATE_SCHEMA=1 npx vitest run test/unit/schema/derived.test.ts` rewrites records.ts after a
 * change to the schema; the test fails while the two differ.
 *
 * The types are the library's native number mode (docs/types.md): identifier integers are strings of
 * their digits (exact at any size), other numbers `number`, timestamps `string`; a field the contract
 * does not make `required` may be null or left out (the tolerance rule, spec.ts).
 */
import { RECORDS } from './contract.js';
import type { FieldSpec, Fields } from './spec.js';

const recordNames = new Map<Fields, string>(Object.entries(RECORDS).map(([name, { schema }]) => [schema, name]));

/** The TypeScript type of one field's value (without null). */
export function typeScriptType(spec: FieldSpec, indent = ''): string {
  switch (spec.type) {
    case 'string':
    case 'timestamp':
      return 'string';
    case 'integer':
      return spec.identifier ? 'string' : 'number';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      if (spec.items === undefined) return 'JsonValue[]';
      if (spec.items === 'string') return 'Array<string | null>';
      return `${recordNames.get(spec.items) ?? inlineRecord(spec.items, indent)}[]`;
    case 'object':
      return spec.fields === undefined ? '{ [key: string]: JsonValue }' : inlineRecord(spec.fields, indent);
  }
}

function comment(text: string, indent: string): string {
  return `${indent}/** ${text} */\n`;
}

function members(schema: Fields, indent: string): string {
  return Object.entries(schema)
    .map(([name, spec]) => {
      const type = typeScriptType(spec, indent);
      const text = spec.type === 'integer' && spec.identifier ? `${spec.description} An integer, as a string of its digits (exact at any size; \`BigInt()\` it for arithmetic).` : spec.description;
      const line = spec.required ? `${name}: ${type};` : `${name}?: ${type} | null;`;
      return `${comment(text, indent)}${indent}${line}\n`;
    })
    .join('');
}

function inlineRecord(schema: Fields, indent: string): string {
  return `{\n${members(schema, `${indent}  `)}${indent}}`;
}

/** The text of src/schema/records.ts. */
export function recordsModuleText(): string {
  const header = [
    '// Generated from the schema (src/schema/contract.ts) by src/schema/typescript.ts; do not edit:',
    '// `UPDATE_SCHEMA=1 npx vitest run test/unit/schema/derived.test.ts` rewrites it.',
    '',
    '/**',
    ' * Any JSON value as the library returns it in native mode: the type of what the contract leaves',
    ' * unshown (`snippets`, `countryRows`, a source\'s `country`). Numbers are numbers (the nearest double',
    ' * beyond 2^53), identifiers in it are strings of digits. Narrow it with typeof checks before use.',
    ' */',
    'export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };',
    '',
  ];
  const interfaces = Object.entries(RECORDS).map(([name, { schema, description }]) =>
    `/** ${description} */\nexport interface ${name} {\n${members(schema, '  ')}}\n`);
  return `${header.join('\n')}\n${interfaces.join('\n')}`;
}
