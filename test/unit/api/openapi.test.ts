/**
 * docs/openapi.json, the API's promise as OpenAPI 3.1 derived from the one schema (src/schema/openapi.ts),
 * shipped in the package; the sandbox serves the same with its own bounds stated, at /openapi.json.
 * `UPDATE_SCHEMA=1 npx vitest run test/unit/api/openapi.test.ts` rewrites both after a schema change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument, sandboxOpenApiDocument } from '../../../src/schema/openapi.js';
import { routeTemplates } from '../../../src/sandbox/http/routes.js';
import { REPO, sandbox } from '../../e2e/harness.js';

const PATH = join(REPO, 'docs', 'openapi.json');
/** The sandbox's document as a module it imports when /openapi.json is asked for (a file path is not known in a bundle). */
const MODULE = join(REPO, 'src', 'sandbox', 'openapi-document.ts');

type Json = Record<string, unknown>;

function moduleText(document: Json): string {
  return `// Generated from the schema by src/schema/openapi.ts (UPDATE_SCHEMA=1 npx vitest run test/unit/api/openapi.test.ts); do not edit.\n// What \`newsstats sandbox\` serves at /openapi.json: docs/openapi.json with the sandbox's own bounds stated.\nexport const OPENAPI_JSON = ${JSON.stringify(JSON.stringify(document))};\n`;
}

describe('docs/openapi.json', () => {
  it('is what the schema says, endpoint by endpoint and field by field', () => {
    const expected = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
    if (process.env.UPDATE_SCHEMA === '1') {
      writeFileSync(PATH, expected);
      writeFileSync(MODULE, moduleText(sandboxOpenApiDocument()));
    }
    expect(readFileSync(PATH, 'utf8')).toBe(expected);
    expect(readFileSync(MODULE, 'utf8')).toBe(moduleText(sandboxOpenApiDocument()));
  });

  it('lists the 20 endpoints the sandbox routes, and each has a 200 schema', () => {
    const document = JSON.parse(readFileSync(PATH, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    expect(Object.keys(document.paths)).toHaveLength(20);
    expect(Object.keys(document.paths).sort()).toEqual([...routeTemplates()].sort());
    for (const [path, item] of Object.entries(document.paths)) expect(item.get.responses['200'], path).toBeDefined();
  });

  it('is served by the sandbox at /openapi.json with its own bounds, without a key', async () => {
    const server = await sandbox();
    try {
      const response = await fetch(`${server.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(sandboxOpenApiDocument());
      // Everything else still needs the key.
      expect((await fetch(`${server.url}/api/data/people`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
