/**
 * Singer (JSON Schema draft 4, as Singer targets read it) schemas derived from the one schema, for the
 * tap (src/sync/singer.ts): one field, or a whole record. What each kind becomes is docs/types.md's
 * table: identifiers and other integers `integer` (JSON Schema's integer has no size bound), numbers
 * `number`, timestamps `string` with `format: date-time` (the tap writes them with their `Z`), lists of
 * strings `array` of strings, unshown shapes an unconstrained array or object.
 *
 * Nullability is the tolerance rule (spec.ts, `mayBeMissing`): a field the client may deliver as null
 * or absent is `["null", type]`; a key (`key: true`) never is, and the tap must not send a record
 * whose key is null.
 */
import { mayBeMissing, type Fields, type FieldSpec } from './spec.js';
import { fieldSpec } from './knowledge.js';

export type JsonSchema = { [key: string]: unknown };

function typed(type: string, nullable: boolean, extra: JsonSchema = {}): JsonSchema {
  return { type: nullable ? ['null', type] : type, ...extra };
}

/**
 * The Singer schema of one field: nullable as the tolerance rule says (or as `nullable` says), except
 * a `key`, which never is.
 */
export function singerFieldSchema(spec: FieldSpec, options: { key?: boolean; nullable?: boolean } = {}): JsonSchema {
  const nullable = options.key !== true && (options.nullable ?? mayBeMissing(spec));
  const described = { description: spec.description };
  switch (spec.type) {
    case 'string':
      return typed('string', nullable, described);
    case 'timestamp':
      return typed('string', nullable, { format: 'date-time', ...described });
    case 'integer':
      return typed('integer', nullable, described);
    case 'number':
      return typed('number', nullable, described);
    case 'boolean':
      return typed('boolean', nullable, described);
    case 'array':
      if (spec.items === 'string') return typed('array', nullable, { items: { type: ['null', 'string'] }, ...described });
      if (spec.items !== undefined) return typed('array', nullable, { items: singerSchemaOf(spec.items), ...described });
      return typed('array', nullable, described);
    case 'object':
      return spec.fields === undefined ? typed('object', nullable, described) : { ...singerSchemaOf(spec.fields), type: nullable ? ['null', 'object'] : 'object', ...described };
  }
}

/**
 * The Singer schema of a record of `fields`: each field's schema, `keys` non-null and required. Fields
 * the schema does not name are allowed (the contract's additive rule).
 */
export function singerSchemaOf(fields: Fields, keys: readonly string[] = []): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, singerFieldSchema(spec, { key: keys.includes(name) })])),
    ...(keys.length > 0 ? { required: [...keys] } : {}),
  };
}

/**
 * The Singer schema of a field known by name anywhere in the contract (a stream's column); undefined
 * for one it does not name. A name required in one record (countryId of a country) may be missing in
 * another (a link's context), so by name only a `key` is non-null.
 */
export function singerSchemaOfField(name: string, options: { key?: boolean } = {}): JsonSchema | undefined {
  const spec = fieldSpec(name);
  return spec === undefined ? undefined : singerFieldSchema(spec, { key: options.key === true, nullable: options.key !== true });
}
