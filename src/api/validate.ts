/**
 * Checks a parsed 200 against the contract at the client's edge, driven by the schemas in types.ts:
 * a body of the wrong top-level type, a field of the wrong type, a missing id, or a value no real answer holds
 * ends here as a ResponseShapeError, instead of turning into made-up rows, a TypeError deep in a
 * renderer, or an error that blames the user's input. Unknown fields, and null where the contract
 * allows it, pass.
 */
import { isLosslessNumber } from 'lossless-json';
import { ResponseShapeError } from './errors.js';
import { ENDPOINT_SHAPES, ENDPOINTS, isIdentifierKind, type Endpoint, type FieldKind, type FieldSchema, type ResponseShape } from './types.js';
import { isValidWeek, weeksBetween } from '../shared/weeks.js';

/** Values that are well-typed but impossible, by endpoint. Each returns the reason, or undefined when fine. */
const VALUE_CHECKS: Readonly<Partial<Record<Endpoint, (record: Record<string, unknown>) => string | undefined>>> = {
  '/api/data/weeks/current': checkWeekInfo,
};

const isParameter = (segment: string | undefined): boolean => segment?.startsWith('{') === true;

/**
 * Orders two templates the way routing decides between them: at the first segment where one is fixed
 * and the other a parameter, the fixed one wins (`/people/search` before `/people/{personHash}`,
 * `/countries/slug/{slug}` before `/countries/{countryId}/domestic-focus`).
 */
function fixedFirst(a: string, b: string): number {
  const left = a.split('/');
  const right = b.split('/');
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const fixedLeft = !isParameter(left[index]);
    const fixedRight = !isParameter(right[index]);
    if (fixedLeft !== fixedRight) return fixedLeft ? -1 : 1;
  }
  return 0;
}

/** ENDPOINTS as patterns, fixed segments before the parameters they look like. */
const ENDPOINT_PATTERNS: ReadonlyArray<[RegExp, Endpoint]> = [...ENDPOINTS].sort(fixedFirst).map((template) => [
  new RegExp(`^${template.split('/').map((segment) => (isParameter(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`),
  template,
]);

/** The contract's endpoint for a path (without query), or undefined for a path the contract does not list. */
export function endpointFor(path: string): Endpoint | undefined {
  return ENDPOINT_PATTERNS.find(([pattern]) => pattern.test(path))?.[1];
}

/**
 * Throws ResponseShapeError when `data`, the parsed answer to GET `path` (the API path without
 * query, e.g. /api/data/people/p-1), is not what the contract promises for `endpoint`.
 */
export function checkResponseShape(endpoint: Endpoint, path: string, data: unknown): void {
  const reason = shapeProblem(endpoint, data);
  if (reason !== undefined) throw new ResponseShapeError({ status: 200, method: 'GET', url: path }, reason);
}

/**
 * The reason `data` does not fit the endpoint's shape, or undefined when it fits. Typed by the
 * endpoint, not a path: every typed request names its endpoint (resources/base.ts), so there is no
 * path it could fail to know and leave unchecked.
 */
export function shapeProblem(endpoint: Endpoint, data: unknown): string | undefined {
  const shape: ResponseShape = ENDPOINT_SHAPES[endpoint];
  const check = VALUE_CHECKS[endpoint];
  if (!shape.list) return recordProblem(data, shape, check, '');
  if (!Array.isArray(data)) return `expected an array, got ${describe(data)}`;
  for (let index = 0; index < data.length; index++) {
    const problem = recordProblem(data[index], shape, check, `item ${index + 1}: `);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function recordProblem(
  value: unknown,
  shape: ResponseShape,
  check: ((record: Record<string, unknown>) => string | undefined) | undefined,
  where: string,
): string | undefined {
  const problem = fieldsProblem(value, shape.schema, shape.optional, where);
  if (problem !== undefined) return problem;
  const record = value as Record<string, unknown>;
  for (const [field, schema] of Object.entries(shape.nested ?? {})) {
    const rows = (record[field] ?? []) as unknown[];
    for (let index = 0; index < rows.length; index++) {
      const nestedProblem = fieldsProblem(rows[index], schema, undefined, `${where}${field}[${index + 1}]: `);
      if (nestedProblem !== undefined) return nestedProblem;
    }
  }
  return check?.(record);
}

/** Each schema's fields as a list, made once: a ranking checks the same schema a hundred times. */
const schemaFields = new WeakMap<FieldSchema, ReadonlyArray<[string, FieldKind]>>();
function fieldsOf(schema: FieldSchema): ReadonlyArray<[string, FieldKind]> {
  let fields = schemaFields.get(schema);
  if (fields === undefined) schemaFields.set(schema, (fields = Object.entries(schema)));
  return fields;
}

function fieldsProblem(value: unknown, schema: FieldSchema, optional: FieldSchema | undefined, where: string): string | undefined {
  if (!isRecord(value)) return `${where}expected an object, got ${describe(value)}`;
  for (const [field, kind] of fieldsOf(schema)) {
    const problem = fieldProblem(value, field, kind, false);
    if (problem !== undefined) return `${where}${problem}`;
  }
  if (optional === undefined) return undefined;
  for (const [field, kind] of fieldsOf(optional)) {
    const problem = fieldProblem(value, field, kind, true);
    if (problem !== undefined) return `${where}${problem}`;
  }
  return undefined;
}

function fieldProblem(record: Record<string, unknown>, field: string, kind: FieldKind, mayBeAbsent: boolean): string | undefined {
  // The contract's rule: null, a field left out and fields it does not name are expected. Only an
  // identifier or week that later requests are built from must be there and usable.
  const identifier = isIdentifierKind(kind) && !mayBeAbsent;
  const value = record[field];
  if (!Object.hasOwn(record, field)) return identifier ? `field "${field}" is missing` : undefined;
  if (value === null) return identifier ? `field "${field}" is null` : undefined;
  if (!fitsKind(value, kind)) return `field "${field}": expected ${KIND_NAMES[kind]}, got ${describe(value)}`;
  if (identifier && typeof value === 'string') return identifierProblem(field, value);
  return undefined;
}

const KIND_NAMES: Readonly<Record<FieldKind, string>> = {
  string: 'a string', 'string!': 'a string',
  integer: 'a number', 'integer!': 'a number up to 2^53',
  biginteger: 'a number',
  number: 'a number',
  boolean: 'true or false',
  timestamp: 'a timestamp string',
  'string[]': 'an array of strings',
  array: 'an array',
  object: 'an object',
};

function fitsKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string': case 'string!': case 'timestamp':
      return typeof value === 'string';
    case 'integer!':
      // An id is put back into a path or compared as a number: beyond 2^53 no JavaScript number
      // holds it exactly, so it would address the wrong thing.
      return Math.abs(numericValue(value)) <= Number.MAX_SAFE_INTEGER;
    case 'integer': case 'biginteger':
      // Any size, and a decimal too: the digits pass through as sent (a bigint in native mode), and
      // refusing a whole answer over a count written `3.0` would help no one.
      return typeof value === 'bigint' || (isNumeric(value) && (/^-?\d+$/.test(String(value)) || Number.isFinite(numericValue(value))));
    case 'number':
      return Number.isFinite(numericValue(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      // An item may be null, as any value the contract does not make an identifier.
      return Array.isArray(value) && value.every((item) => item === null || typeof item === 'string');
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
  }
}

function isNumeric(value: unknown): boolean {
  return typeof value === 'number' || isLosslessNumber(value);
}

/** A number from either number mode; NaN for anything else (a bigint is beyond 2^53 by construction). */
function numericValue(value: unknown): number {
  if (typeof value === 'number') return value;
  return isLosslessNumber(value) ? Number(String(value)) : Number.NaN;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** An identifier is later put in a path: empty or broken Unicode would address nothing, or crash encoding. */
function identifierProblem(field: string, value: string): string | undefined {
  if (value === '') return `field "${field}" is empty`;
  if (LONE_SURROGATE.test(value)) return `field "${field}" is not valid Unicode (a lone surrogate)`;
  return undefined;
}

/** Week info drives every relative window: both must be real weeks, the window ending at the current one. */
function checkWeekInfo(record: Record<string, unknown>): string | undefined {
  const current = numericValue(record.currentWeek);
  const start = numericValue(record.last4StartWeek);
  if (!isValidWeek(current)) return `currentWeek ${current} is not a week (YYYYWW)`;
  if (!isValidWeek(start)) return `last4StartWeek ${start} is not a week (YYYYWW)`;
  const span = weeksBetween(start, current);
  // A 4-week window ends at the current week; a year's slack, never a window that runs backwards.
  if (span < 0 || span > 52) return `last4StartWeek ${start} is not within a year before currentWeek ${current}`;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isLosslessNumber(value) || typeof value === 'number' || typeof value === 'bigint') {
    const text = String(value);
    return `the number ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
  }
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return 'a boolean';
  return 'an object';
}
