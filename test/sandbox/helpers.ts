/**
 * Shared helpers of the sandbox tests: real HTTP requests (undici, keep-alive) and a checker of
 * response bodies against the contract's field schemas.
 */
import { isLosslessNumber, parse, type LosslessNumber } from 'lossless-json';
import { Agent, request } from 'undici';
import { expect } from 'vitest';
import type { FieldSchema, FieldSpec } from '../../src/api/types.js';
import { isValidWeek } from '../../src/shared/weeks.js';

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent, for byte comparisons. */
  text: string;
  /** Parsed with lossless-json: every number is a LosslessNumber holding the digits sent. */
  body: unknown;
}

export interface GetOptions {
  /** The key to send; null sends no X-Api-Key header. */
  key?: string | null;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';
  dispatcher?: Agent;
}

/** A client bound to one sandbox. */
export function client(baseUrl: string, defaultKey: string) {
  const dispatcher = new Agent({ keepAliveTimeout: 2_000 });
  return {
    dispatcher,
    /** GET (or another method) of a path under the base URL; the query is part of `path`. */
    async get(path: string, options: GetOptions = {}): Promise<Response> {
      const key = options.key === undefined ? defaultKey : options.key;
      const headers: Record<string, string> = { accept: 'application/json' };
      if (key !== null) headers['x-api-key'] = key;
      const response = await request(baseUrl + path, {
        method: options.method ?? 'GET',
        headers,
        dispatcher: options.dispatcher ?? dispatcher,
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        text,
        body: text === '' ? undefined : parse(text),
      };
    },
    close: () => dispatcher.close(),
  };
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** Why `value` is not a value the schema's `spec` promises, or undefined when it is. */
function kindMismatch(value: unknown, spec: FieldSpec): string | undefined {
  // The contract lets any field but a required one be null (the sandbox sends a few such nulls).
  if (value === null) return spec.required ? 'is null but is required' : undefined;
  if (value === undefined) return 'is missing';
  switch (spec.type) {
    case 'string':
      if (typeof value !== 'string') return 'is not a string';
      if (spec.format === 'color' && !/^#[0-9A-Fa-f]{6}$/.test(value)) return 'is not #RRGGBB';
      if (spec.format === 'url' && !URL.canParse(value)) return 'is not a URL';
      return undefined;
    case 'timestamp':
      return typeof value === 'string' && TIMESTAMP.test(value) ? undefined : `is not a YYYY-MM-DDTHH:MM:SS timestamp`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not a boolean';
    case 'number':
      return isLosslessNumber(value) && Number.isFinite(Number(value.value)) ? undefined : 'is not a number';
    case 'integer': {
      if (!isLosslessNumber(value) || !/^-?\d+$/.test(value.value)) return 'is not an integer';
      if (spec.format === 'week' && !isValidWeek(Number(value.value))) return 'is not a week';
      if (spec.minimum !== undefined && BigInt(value.value) < BigInt(spec.minimum)) return `is below ${spec.minimum}`;
      return undefined;
    }
    case 'array':
      if (!Array.isArray(value)) return 'is not an array';
      return spec.items === 'string' && !value.every((item) => typeof item === 'string') ? 'is not an array of strings' : undefined;
    case 'object':
      return isPlainObject(value) ? undefined : 'is not an object';
  }
}

/**
 * Checks that every field of the schema is present with its JSON type. Extra fields are allowed
 * (the contract calls additive fields non-breaking). `absent` lists schema fields that must NOT be
 * present (context fields when a context flag is false).
 */
export function expectMatchesSchema(value: unknown, schema: FieldSchema, label = 'value'): void {
  expect(isPlainObject(value), `${label} is an object`).toBe(true);
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, kind] of Object.entries(schema)) {
    if (!(field in record)) {
      problems.push(`${field} is missing`);
      continue;
    }
    const mismatch = kindMismatch(record[field], kind);
    if (mismatch) problems.push(`${field} (${kind.type}) ${mismatch}: ${JSON.stringify(record[field])}`);
  }
  expect(problems, `${label} matches its schema`).toEqual([]);
}

export function expectEachMatchesSchema(items: unknown, schema: FieldSchema, label: string): void {
  expect(Array.isArray(items), `${label} is an array`).toBe(true);
  (items as unknown[]).forEach((item, index) => expectMatchesSchema(item, schema, `${label}[${index}]`));
}

/** A LosslessNumber (or plain number) as a JS number, for comparisons in tests. */
export function num(value: unknown): number {
  if (isLosslessNumber(value)) return Number((value as LosslessNumber).value);
  if (typeof value === 'number') return value;
  throw new Error(`not a number: ${JSON.stringify(value)}`);
}
