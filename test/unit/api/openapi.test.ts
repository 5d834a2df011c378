/**
 * docs/openapi.json, the contract as OpenAPI 3.1, shipped in the package and served by the sandbox at
 * /openapi.json, must say what the client's shape table (ENDPOINT_SHAPES) and the sandbox's routes say:
 * the same endpoints, the same fields and kinds, identifiers required and non-null, every other field
 * nullable and optional. `UPDATE_OPENAPI=1 npx vitest run test/unit/api/openapi.test.ts` rewrites it
 * from the table after a change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNDS, ENDPOINT_SHAPES, ENDPOINTS, isIdentifierKind, type FieldKind, type FieldSchema, type ResponseShape } from '../../../src/api/types.js';
import { routeTemplates } from '../../../src/sandbox/http/routes.js';
import { REPO, sandbox } from '../../e2e/harness.js';

const PATH = join(REPO, 'docs', 'openapi.json');
/** The same document as a module the sandbox imports when /openapi.json is asked for (a file path is not known in a bundle). */
const MODULE = join(REPO, 'src', 'sandbox', 'openapi-document.ts');

function moduleText(document: Json): string {
  return `// Generated from the shape table by test/unit/api/openapi.test.ts (UPDATE_OPENAPI=1); do not edit.\n// The same document as docs/openapi.json, compact: what \`newsstats sandbox\` serves at /openapi.json.\nexport const OPENAPI_JSON = ${JSON.stringify(JSON.stringify(document))};\n`;
}

type Json = Record<string, unknown>;

function kindSchema(kind: FieldKind): Json {
  switch (kind) {
    case 'string': case 'string!': return { type: 'string' };
    case 'timestamp': return { type: 'string', format: 'YYYY-MM-DDTHH:MM:SS', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' };
    case 'integer': return { type: 'integer' };
    case 'integer!': return { type: 'integer', maximum: Number.MAX_SAFE_INTEGER, minimum: -Number.MAX_SAFE_INTEGER };
    case 'biginteger': return { type: 'integer', description: 'Beyond 2^53: read it with every digit.' };
    case 'number': return { type: 'number' };
    case 'boolean': return { type: 'boolean' };
    case 'string[]': return { type: 'array', items: { type: ['string', 'null'] } };
    case 'array': return { type: 'array' };
    case 'object': return { type: 'object' };
  }
}

function objectSchema(schema: FieldSchema, optional: FieldSchema = {}, nested: Readonly<Record<string, FieldSchema>> = {}): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const [field, kind] of Object.entries(schema)) {
    const base = nested[field] ? { type: 'array', items: objectSchema(nested[field]) } : kindSchema(kind);
    if (isIdentifierKind(kind)) {
      required.push(field);
      properties[field] = { ...base, description: 'Identifier later requests are built from: always present and usable.' };
    } else {
      properties[field] = { ...base, type: [base.type as string, 'null'] };
    }
  }
  for (const [field, kind] of Object.entries(optional)) {
    const base = kindSchema(kind);
    properties[field] = { ...base, type: [base.type as string, 'null'], description: 'Context field: absent when the context flag is false.' };
  }
  return { type: 'object', properties, required, additionalProperties: true };
}

const integer = (name: string, bounds?: { min: number; max: number }, description?: string): Json => ({
  name, in: 'query', required: false, schema: { type: 'integer', ...(bounds ? { minimum: bounds.min, maximum: bounds.max } : {}) }, ...(description ? { description } : {}),
});
const text = (name: string): Json => ({ name, in: 'query', required: false, schema: { type: 'string' } });
const flag = (name: string, defaultValue?: boolean): Json => ({ name, in: 'query', required: false, schema: { type: 'boolean', ...(defaultValue === undefined ? {} : { default: defaultValue }) } });
const week = (name: string): Json => integer(name, undefined, 'A week, YYYYWW.');

const PARAMETERS: Readonly<Record<string, Json[]>> = {
  '/api/data/people/search': [text('q'), text('personHash'), text('fullName'), flag('exactName'), integer('countryId'), integer('gender'), integer('limit', BOUNDS.searchLimit)],
  '/api/data/people/top': [week('startWeek'), week('endWeek'), integer('limit'), flag('fresh'), integer('countryId'), integer('fromCountryId'), integer('gender'), integer('minAge'), integer('maxAge'), text('newsCategory'), { name: 'sortBy', in: 'query', required: false, schema: { type: 'string', enum: ['mentions', 'dominance'] } }],
  '/api/data/people/{personHash}/links': [integer('limit', BOUNDS.linksLimit), flag('includeContext', true)],
  '/api/data/people/{personHash}/country-stats': [week('startWeek'), week('endWeek')],
  '/api/data/countries/{countryId}/domestic-focus': [week('startWeek'), week('endWeek')],
  '/api/data/sources': [integer('countryId')],
  '/api/data/sources/{sourceId}/links': [flag('applyFilter', true)],
  '/api/data/posts/recent': [integer('count', BOUNDS.postsCount)],
  '/api/data/articles/recent': [integer('limit', BOUNDS.articlesLimit), flag('includeSourceContext', true)],
  '/api/data/articles/stats': [integer('days', BOUNDS.statsDays)],
};

const PATH_PARAMETER_TYPES: Readonly<Record<string, string>> = { personHash: 'string', countryId: 'integer', sourceId: 'integer', slug: 'string' };

function problem(description: string): Json {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } } };
}

/** The document the table says. */
export function openApiDocument(): Json {
  const paths: Json = {};
  for (const endpoint of ENDPOINTS) {
    const shape: ResponseShape = ENDPOINT_SHAPES[endpoint];
    const record = objectSchema(shape.schema, shape.optional, shape.nested);
    const pathParameters = [...endpoint.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: PATH_PARAMETER_TYPES[name!] } }));
    paths[endpoint] = {
      get: {
        operationId: endpoint.replace('/api/data/', '').replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase()),
        parameters: [...pathParameters, ...(PARAMETERS[endpoint] ?? [])],
        responses: {
          200: { description: 'Success.', content: { 'application/json': { schema: shape.list ? { type: 'array', items: record } : record } } },
          400: problem('Invalid range or query combination.'),
          401: problem('Missing or invalid API key.'),
          ...(pathParameters.length > 0 ? { 404: problem('Not found.') } : {}),
          500: problem('Server-side failure.'),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Data API for News-Mention Statistics',
      version: 'unversioned',
      description: 'Written from api-contract.md. Reading rule: any field but an identifier may be null or absent, and fields not named here may appear (additive changes are non-breaking).',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:8787' } } }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas: {
        ProblemDetails: { type: 'object', properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, traceId: { type: 'string' } }, additionalProperties: true },
      },
    },
  };
}

describe('docs/openapi.json', () => {
  it('is what the shape table says, endpoint by endpoint and field by field', () => {
    const document = openApiDocument();
    const expected = `${JSON.stringify(document, null, 2)}\n`;
    if (process.env.UPDATE_OPENAPI === '1') {
      writeFileSync(PATH, expected);
      writeFileSync(MODULE, moduleText(document));
    }
    expect(readFileSync(PATH, 'utf8')).toBe(expected);
    expect(readFileSync(MODULE, 'utf8')).toBe(moduleText(document));
  });

  it('lists the 20 endpoints the sandbox routes, and each has a 200 schema', () => {
    const document = JSON.parse(readFileSync(PATH, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    expect(Object.keys(document.paths)).toHaveLength(20);
    expect(Object.keys(document.paths).sort()).toEqual([...routeTemplates()].sort());
    for (const [path, item] of Object.entries(document.paths)) expect(item.get.responses['200'], path).toBeDefined();
  });

  it('is served by the sandbox at /openapi.json, without a key', async () => {
    const server = await sandbox();
    try {
      const response = await fetch(`${server.url}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(JSON.parse(readFileSync(PATH, 'utf8')));
      // Everything else still needs the key.
      expect((await fetch(`${server.url}/api/data/people`)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
