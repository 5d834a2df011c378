/**
 * The tools' output schemas, derived from the one schema (src/schema/contract.ts), so a
 * field's MCP type cannot drift from the contract: identifiers are strings of digits (exact.ts),
 * other numbers numbers, and every field but the identifiers may be null or absent, as the
 * contract's reading rule says. Records are open: a field the service adds passes through.
 */
import * as z from 'zod';
import type { FieldSchema, FieldSpec } from '../api/types.js';
import { IDENTIFIER_FIELDS } from './exact.js';

function fieldType(name: string, spec: FieldSpec): z.ZodType {
  if (IDENTIFIER_FIELDS.has(name)) return z.string().describe(`${spec.description} An identifier: a string of decimal digits, exact at any size.`);
  switch (spec.type) {
    case 'string':
    case 'timestamp':
      return z.string().describe(spec.description);
    case 'integer':
    case 'number':
      return z.number().describe(spec.description);
    case 'boolean':
      return z.boolean().describe(spec.description);
    case 'array':
      return (spec.items === 'string' ? z.array(z.string().nullable()) : z.array(z.unknown())).describe(spec.description);
    case 'object':
      return z.record(z.string(), z.unknown()).describe(spec.description);
  }
}

/** One record of the contract as structured content: its fields typed and described (the one schema), anything else allowed. */
export function contractRecord(schema: FieldSchema, options: { omit?: readonly string[] } = {}) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(schema)) {
    if (options.omit?.includes(name)) continue;
    const type = fieldType(name, spec);
    shape[name] = spec.required ? type : type.nullable().optional();
  }
  return z.looseObject(shape);
}

/** A number the service may leave out or send as null. */
export const maybeNumber = z.number().nullable().optional();
export const maybeString = z.string().nullable().optional();

/** The week window a result covers, and whether its last week is still being counted. */
export const windowSchema = z.object({
  startWeek: z.number().int().describe('first ISO week, YYYYWW'),
  endWeek: z.number().int().describe('last ISO week, YYYYWW'),
  weeks: z.number().int().describe('how many weeks the window holds'),
  currentWeek: z.number().int().describe('the service\'s current week'),
  partial: z.boolean().describe('true when the window holds the current week: its counts are still growing, so it has fewer mentions than a full week'),
});

/** What a paged result adds: where the next page starts, when there may be one. */
export const pageSchema = {
  nextCursor: z.string().optional().describe('pass as `cursor` to get the next page; absent on the last page'),
};
