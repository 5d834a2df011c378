/**
 * Every artefact derived from the one schema (src/schema/contract.ts) is what the schema says today:
 * the TypeScript interfaces (src/schema/records.ts) and the OpenAPI document (docs/openapi.json and the
 * module the sandbox serves it from). `UPDATE_SCHEMA=1 npx vitest run test/unit/schema/derived.test.ts`
 * rewrites them after a change to the schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsModuleText } from '../../../src/schema/typescript.js';
import { REPO } from '../../e2e/harness.js';

const UPDATE = process.env.UPDATE_SCHEMA === '1';

function keptEqual(path: string, expected: string): void {
  if (UPDATE) writeFileSync(path, expected);
  expect(readFileSync(path, 'utf8'), `${path} differs from the schema: UPDATE_SCHEMA=1 rewrites it`).toBe(expected);
}

describe('artefacts derived from the schema', () => {
  it('src/schema/records.ts: the interfaces, each field documented with its description', () => {
    keptEqual(join(REPO, 'src', 'schema', 'records.ts'), recordsModuleText());
  });
});
