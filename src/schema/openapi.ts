/**
 * docs/openapi.json, derived from the one schema: what the API *promises*, so anyone can check a
 * server with it. Required fields are the schema's `required` ones; every other field may be null or
 * absent, as the contract's convention says; formats and bounds are the contract's (weeks YYYYWW,
 * rank from 1, #RRGGBB, URLs, the 400 body's fields); identifiers have no size bound, as the contract
 * sets none. The client's tolerance beyond it is documented beside it (docs/types.md).
 *
 * The sandbox serves the same document with its own bounds added (`sandboxDocument`): a ranking of at
 * most 1000, week windows that end by the current week.
 */
import { ENDPOINT_SPECS, ENDPOINTS, PATH_PARAMETERS, RECORDS, type EndpointSpec, type ParameterSpec } from './contract.js';
import type { Fields, FieldSpec } from './spec.js';

type Json = { [key: string]: unknown };

/** The least and greatest YYYYWW values; a week's number must also exist in its year (52 or 53). */
const WEEK_RANGE = { minimum: 100001, maximum: 999953 } as const;
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';
const COLOR_PATTERN = '^#[0-9A-Fa-f]{6}$';

const recordNames = new Map<Fields, string>(Object.entries(RECORDS).map(([name, { schema }]) => [schema, name]));

/** The JSON Schema of a value of `spec`, without null. */
function valueSchema(spec: FieldSpec): Json {
  switch (spec.type) {
    case 'string':
      if (spec.format === 'url') return { type: 'string', format: 'uri' };
      if (spec.format === 'color') return { type: 'string', pattern: COLOR_PATTERN };
      return { type: 'string' };
    case 'timestamp':
      return { type: 'string', pattern: TIMESTAMP_PATTERN };
    case 'integer':
      if (spec.format === 'week') return { type: 'integer', ...WEEK_RANGE };
      return { type: 'integer', ...(spec.minimum === undefined ? {} : { minimum: spec.minimum }) };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'array':
      if (spec.items === 'string') return { type: 'array', items: { type: 'string' } };
      if (spec.items !== undefined) return { type: 'array', items: recordReference(spec.items) };
      return { type: 'array' };
    case 'object':
      return spec.fields === undefined ? { type: 'object' } : recordSchema(spec.fields);
  }
}

function fieldSchema(spec: FieldSpec, mayBeMissing: boolean): Json {
  const value = valueSchema(spec);
  const description = spec.identifier && spec.type === 'integer' ? `${spec.description} An integer of any size.` : spec.description;
  if (!mayBeMissing) return { ...value, description };
  // Null too: JSON Schema 2020-12 (OpenAPI 3.1) writes it as a second type.
  return { ...value, type: [value.type as string, 'null'], description };
}

/** The schema of a record: its `required` fields required and non-null, the rest nullable; more fields allowed. */
export function recordSchema(fields: Fields, optional: Fields = {}): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(fields)) {
    if (spec.required) required.push(name);
    properties[name] = fieldSchema(spec, !spec.required);
  }
  for (const [name, spec] of Object.entries(optional)) properties[name] = fieldSchema(spec, true);
  return { type: 'object', properties, required, additionalProperties: true };
}

function recordReference(fields: Fields): Json {
  const name = recordNames.get(fields);
  return name === undefined ? recordSchema(fields) : { $ref: `#/components/schemas/${name}` };
}

function parameterSchema(spec: ParameterSpec): Json {
  if (spec.type === 'integer' && spec.format === 'week') return { type: 'integer', ...WEEK_RANGE };
  return {
    type: spec.type,
    ...(spec.minimum === undefined ? {} : { minimum: spec.minimum }),
    ...(spec.maximum === undefined ? {} : { maximum: spec.maximum }),
    ...(spec.enum === undefined ? {} : { enum: [...spec.enum] }),
    ...(spec.default === undefined ? {} : { default: spec.default }),
  };
}

function parameter(name: string, where: 'path' | 'query', spec: ParameterSpec): Json {
  return { name, in: where, required: where === 'path', schema: parameterSchema(spec), description: spec.description };
}

function operationId(endpoint: string): string {
  return endpoint.replace('/api/data/', '').replace(/[{}]/g, '').replace(/[/-](\w)/g, (_match, letter: string) => letter.toUpperCase());
}

/** The API's document: what it promises. */
export function openApiDocument(): Json {
  const paths: Json = {};
  for (const endpoint of ENDPOINTS) {
    const spec: EndpointSpec = ENDPOINT_SPECS[endpoint];
    const record = { $ref: `#/components/schemas/${spec.record}` };
    const pathNames = [...endpoint.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
    paths[endpoint] = {
      get: {
        operationId: operationId(endpoint),
        parameters: [
          ...pathNames.map((name) => parameter(name, 'path', PATH_PARAMETERS[name]!)),
          ...Object.entries(spec.query ?? {}).map(([name, query]) => parameter(name, 'query', query)),
        ],
        responses: {
          200: { description: 'Success.', content: { 'application/json': { schema: spec.list ? { type: 'array', items: record } : record } } },
          400: {
            description: 'Invalid range or invalid query combination.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
          },
          // The contract does not show these bodies.
          401: { description: 'Missing or invalid API key.' },
          ...(pathNames.length > 0 ? { 404: { description: 'The person, source, post or country addressed does not exist.' } } : {}),
          500: { description: 'Server-side failure.' },
        },
      },
    };
  }
  const schemas: Json = {};
  for (const [name, { schema, description }] of Object.entries(RECORDS)) {
    const endpoint = Object.values(ENDPOINT_SPECS).find((spec: EndpointSpec) => spec.record === name && spec.optional !== undefined) as EndpointSpec | undefined;
    schemas[name] = { ...recordSchema(endpoint?.schema ?? schema, endpoint?.optional), description };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Data API for News-Mention Statistics',
      version: 'unversioned',
      description:
        'What the API promises, written from its contract (api-contract.md) by newsstats from its one schema. Fields not listed as ' +
        'required may be null or absent ("Optional or partial fields can be null"), and fields not named here may appear ' +
        '("Additive fields are non-breaking"). Identifiers are integers of any size. What the newsstats client accepts beyond ' +
        'this promise is in docs/types.md, "What the client accepts".',
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://127.0.0.1:8787' } } }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas,
    },
  };
}

/** The sandbox's own bounds beyond the contract's, by endpoint and parameter. */
export const SANDBOX_RULES = {
  topLimit: { min: 1, max: 1000 },
  weeks: 'The sandbox answers 400 for a window that ends after the current week or starts after it ends; only endWeek given is the 4 weeks ending there, only startWeek runs to the current week.',
} as const;

/** The document the sandbox serves at /openapi.json: the API's, with the sandbox's own bounds stated. */
export function sandboxOpenApiDocument(): Json {
  const document = openApiDocument();
  const paths = document.paths as Record<string, { get: { parameters: Json[] } }>;
  for (const [path, item] of Object.entries(paths)) {
    for (const entry of item.get.parameters) {
      const schema = entry.schema as Json;
      if (path === '/api/data/people/top' && entry.name === 'limit') {
        entry.schema = { ...schema, minimum: SANDBOX_RULES.topLimit.min, maximum: SANDBOX_RULES.topLimit.max };
        entry.description = `${String(entry.description)} The sandbox takes 1 to 1000.`;
      }
      if (entry.name === 'startWeek' || entry.name === 'endWeek') entry.description = `${String(entry.description)} ${SANDBOX_RULES.weeks}`;
    }
  }
  const info = document.info as Json;
  return {
    ...document,
    info: {
      ...info,
      title: 'newsstats sandbox: Data API for News-Mention Statistics',
      description: `${String(info.description)} Served by the newsstats sandbox, with its own bounds stated on the parameters they concern (docs/sandbox.md).`,
    },
  };
}

