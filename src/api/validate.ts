/**
 * Checks a parsed 200 against the one schema (src/schema/contract.ts) at the client's edge, under the
 * schema's one tolerance rule (spec.ts, `mayBeMissing`): null, a field left out and fields the schema
 * does not name pass, except a `required` one; a value of its type outside the field's format or
 * bounds (a rank of 0, a colour that is not #RRGGBB) passes as sent. What cannot have the field's
 * declared type ends here as a ResponseShapeError naming the field (exit 5 in the CLI): the wrong JSON
 * type, a fraction in an integer (an identifier's above all), a timestamp that is no date, a week that
 * is no week, an identifier that is empty. So a broken answer fails at the edge, the same way for
 * every format, instead of turning into made-up rows or a TypeError deep in a renderer.
 */
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { ResponseShapeError } from './errors.js';
import { ENDPOINT_SPECS, ENDPOINTS, type Endpoint, type ResponseShape } from '../schema/contract.js';
import { mayBeMissing, type Fields, type FieldSpec } from '../schema/spec.js';
import { isIntegerText } from '../shared/exact-json/identifier.js';
import { isTimestamp } from '../shared/timestamp.js';
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

/**
 * ENDPOINTS as patterns, fixed segments before the parameters they look like. Made on the first
 * endpointFor(): the sandbox routes by them, while the client, which loads this module for every
 * request, knows its endpoint and never asks (the sort and 20 patterns were about 0.5 ms of CPU of
 * each query on Node 24).
 */
let endpointPatterns: ReadonlyArray<[RegExp, Endpoint]> | undefined;

/** The contract's endpoint for a path (without query), or undefined for a path the contract does not list. */
export function endpointFor(path: string): Endpoint | undefined {
  endpointPatterns ??= [...ENDPOINTS].sort(fixedFirst).map((template) => [
    new RegExp(`^${template.split('/').map((segment) => (isParameter(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`),
    template,
  ]);
  return endpointPatterns.find(([pattern]) => pattern.test(path))?.[1];
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
  const shape: ResponseShape = ENDPOINT_SPECS[endpoint];
  const check = VALUE_CHECKS[endpoint];
  const list = shape.list;
  // Looked up once an answer, not once a record.
  const checks = checksOf(shape.schema, false);
  const optional = shape.optional === undefined ? undefined : checksOf(shape.optional, true);
  if (!list) return recordProblem(data, checks, optional, check);
  if (!Array.isArray(data)) return `expected an array, got ${describe(data)}`;
  for (let index = 0; index < data.length; index++) {
    const problem = recordProblem(data[index], checks, optional, check);
    // The item's place is put in front only for a problem: a string for every item of every answer was
    // garbage of a bulk sync.
    if (problem !== undefined) return `item ${index + 1}: ${problem}`;
  }
  return undefined;
}

function recordProblem(
  value: unknown,
  checks: readonly FieldCheck[],
  optional: readonly FieldCheck[] | undefined,
  check: ((record: Record<string, unknown>) => string | undefined) | undefined,
): string | undefined {
  const problem = recordFieldsProblem(value, checks, optional);
  if (problem !== undefined) return problem;
  return check?.(value as Record<string, unknown>);
}

/**
 * What a value of a field must pass to be taken at once, decided from the field's spec once rather
 * than for each value (a sync checks some 300,000 values). A quick test only ever accepts: a value it
 * does not take, and so every problem, goes on to valueProblem, the one reading of the rule and its
 * messages, so the verdicts stay valueProblem's. Nearly every value of an answer is taken without the
 * switch over its spec's type, format and identifier flag, and without the library's getter test of a
 * LosslessNumber. The tests that read text stay calls to the regular expression and Number(), which
 * are as fast in a fresh process: loops over characters were faster once V8 had optimised them, but
 * slower in the first second a sync lasts.
 * - `text`: a string that is no identifier;
 * - `integer`: an integer, not a week: a safe integer, or a LosslessNumber of digits;
 * - `week`: such an integer that isValidWeek takes;
 * - `number`: a finite number, or a LosslessNumber whose text is one;
 * - `timestamp`, `boolean`: as valueProblem reads them;
 * - `none`: identifiers, arrays and objects (a ranking's countryRows, a person's countries).
 */
type Quick = 'none' | 'text' | 'integer' | 'week' | 'number' | 'timestamp' | 'boolean';

/** A field to check: its name, its spec, its quick test, and whether it must be present and not null. */
interface FieldCheck {
  readonly field: string;
  readonly spec: FieldSpec;
  readonly quick: Quick;
  readonly needed: boolean;
}

function quickTest(spec: FieldSpec): Quick {
  switch (spec.type) {
    case 'string':
      return spec.identifier ? 'none' : 'text';
    case 'integer':
      return spec.format === 'week' ? 'week' : 'integer';
    case 'number':
      return 'number';
    case 'timestamp':
      return 'timestamp';
    case 'boolean':
      return 'boolean';
    // A quick test of an array of records, which called checksProblem again, made V8's optimised code
    // of the check so large it came later and slower (fresh processes, Node 24).
    case 'array':
    case 'object':
      return 'none';
  }
}

/**
 * Each schema's fields as a list of checks, made on its first answer (an endpoint never called costs
 * nothing) and then kept: a ranking checks the same schema a hundred times. Apart for a shape's
 * optional fields, which are never needed. Walked by index: for...of over the entries, with their
 * destructuring, made an iterator result per field of every record.
 */
const fieldChecks = new WeakMap<Fields, readonly FieldCheck[]>();
const optionalFieldChecks = new WeakMap<Fields, readonly FieldCheck[]>();
function checksOf(schema: Fields, mayBeAbsent: boolean): readonly FieldCheck[] {
  const cache = mayBeAbsent ? optionalFieldChecks : fieldChecks;
  let checks = cache.get(schema);
  if (checks === undefined) {
    checks = Object.entries(schema).map(([field, spec]) => ({
      field,
      spec,
      quick: quickTest(spec),
      // The tolerance rule: null and a field left out are expected, except where the client cannot go on.
      needed: !mayBeMissing(spec) && !mayBeAbsent,
    }));
    cache.set(schema, checks);
  }
  return checks;
}

/**
 * The problem of a record with `checks`' fields (and `optional`'s, which may be left out), without
 * its place: each level puts its place in front of a problem found below it.
 */
function recordFieldsProblem(value: unknown, checks: readonly FieldCheck[], optional: readonly FieldCheck[] | undefined): string | undefined {
  if (!isRecord(value)) return `expected an object, got ${describe(value)}`;
  const problem = checksProblem(value, checks);
  if (problem !== undefined || optional === undefined) return problem;
  return checksProblem(value, optional);
}

function checksProblem(record: Record<string, unknown>, checks: readonly FieldCheck[]): string | undefined {
  for (let index = 0; index < checks.length; index++) {
    const check = checks[index]!;
    const field = check.field;
    if (!Object.hasOwn(record, field)) {
      if (check.needed) return `field "${field}" is missing`;
      continue;
    }
    const value = record[field];
    if (value === null) {
      if (check.needed) return `field "${field}" is null`;
      continue;
    }
    if (quicklyAccepted(value, check.quick)) continue;
    const problem = valueProblem(value, check.spec, field);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** True when valueProblem would surely find nothing in `value`; false leaves it to valueProblem. */
function quicklyAccepted(value: unknown, quick: Quick): boolean {
  switch (quick) {
    case 'text':
      return typeof value === 'string';
    case 'integer':
      if (typeof value === 'number') return Number.isSafeInteger(value);
      // instanceof rather than the library's test, a getter call: a LosslessNumber of another copy of
      // the library, which instanceof misses, goes the long way.
      return value instanceof LosslessNumber && isIntegerText(value.value);
    case 'week':
      if (typeof value === 'number') return Number.isSafeInteger(value) && isValidWeek(value);
      return value instanceof LosslessNumber && isIntegerText(value.value) && isValidWeek(Number(value.value));
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value);
      return value instanceof LosslessNumber && Number.isFinite(Number(value.value));
    case 'timestamp':
      return typeof value === 'string' && isTimestamp(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'none':
      return false;
  }
}

/** Why `value` cannot be a value of `spec`, or undefined when it can. */
function valueProblem(value: unknown, spec: FieldSpec, field: string): string | undefined {
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return expected(field, 'a string', value);
      return spec.identifier ? identifierProblem(field, value) : undefined;
    case 'timestamp':
      if (typeof value !== 'string') return expected(field, 'a timestamp string', value);
      return isTimestamp(value) ? undefined : `field "${field}": expected a timestamp YYYY-MM-DDTHH:MM:SS that is a real time, got ${shownText(value)}`;
    case 'integer':
      return integerProblem(value, spec, field);
    case 'number':
      return Number.isFinite(numericValue(value)) ? undefined : expected(field, 'a number', value);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : expected(field, 'true or false', value);
    case 'array': {
      if (!Array.isArray(value)) return expected(field, spec.items === 'string' ? 'an array of strings' : 'an array', value);
      const items = spec.items;
      if (items === undefined) return undefined;
      const itemChecks = items === 'string' ? undefined : checksOf(items, false);
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        if (itemChecks === undefined) {
          // An item may be null: the tolerance rule holds for every item of a list.
          if (item !== null && typeof item !== 'string') return `field "${field}": expected an array of strings, got ${describe(item)} at item ${index + 1}`;
        } else {
          const problem = recordFieldsProblem(item, itemChecks, undefined);
          if (problem !== undefined) return `${field}[${index + 1}]: ${problem}`;
        }
      }
      return undefined;
    }
    case 'object': {
      if (!isRecord(value)) return expected(field, 'an object', value);
      const problem = spec.fields === undefined ? undefined : recordFieldsProblem(value, checksOf(spec.fields, false), undefined);
      return problem === undefined ? undefined : `${field}.${problem}`;
    }
  }
}

/**
 * An integer is written as digits (in lossless mode, the text sent) or, in native mode, is a whole
 * number; an identifier there is the string of its digits the codec made (or one sent as a string).
 */
function integerProblem(value: unknown, spec: FieldSpec, field: string): string | undefined {
  const what = spec.format === 'week' ? 'a week (YYYYWW)' : 'an integer';
  let text: string;
  if (isLosslessNumber(value)) text = value.value;
  else if (typeof value === 'bigint') text = value.toString();
  // Native mode reads a number as JavaScript does: 1e3 is the integer 1000 there, 1.5 no integer.
  else if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string' && spec.identifier && isIntegerText(value)) text = value;
  else return expected(field, what, value);
  const written = typeof value === 'number' ? Number.isSafeInteger(value) || (!spec.identifier && Number.isInteger(value)) : isIntegerText(text);
  if (!written) return `field "${field}": expected ${what}, got ${text.length > 40 ? `${text.slice(0, 40)}…` : text}`;
  if (spec.format === 'week' && !isValidWeek(Number(text))) return `field "${field}": ${text.length > 40 ? `${text.slice(0, 40)}…` : text} is not a week (YYYYWW)`;
  return undefined;
}

function expected(field: string, what: string, value: unknown): string {
  return `field "${field}": expected ${what}, got ${describe(value)}`;
}

/** A number from either number mode; NaN for anything else. */
function numericValue(value: unknown): number {
  if (typeof value === 'number') return value;
  return isLosslessNumber(value) ? Number(value.value) : Number.NaN;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** An identifier is later put in a path: empty or broken Unicode would address nothing, or crash encoding. */
function identifierProblem(field: string, value: string): string | undefined {
  if (value === '') return `field "${field}" is empty`;
  if (LONE_SURROGATE.test(value)) return `field "${field}" is not valid Unicode (a lone surrogate)`;
  return undefined;
}

/** Week info drives every relative window: the window must end at the current week. */
function checkWeekInfo(record: Record<string, unknown>): string | undefined {
  const current = numericValue(record.currentWeek);
  const start = numericValue(record.last4StartWeek);
  const span = weeksBetween(start, current);
  // A 4-week window ends at the current week; a year's slack, never a window that runs backwards.
  if (span < 0 || span > 52) return `last4StartWeek ${start} is not within a year before currentWeek ${current}`;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** Text sent, quoted and cut short for a message. */
function shownText(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
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
