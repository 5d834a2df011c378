/**
 * What the schema says about a field by its name alone, for the code that meets fields outside any one
 * record: the exact-JSON codec (which reads a key, not a record) and the column types of Parquet and
 * Singer. A field name means one thing across the contract's records (test/unit/schema/schema.test.ts
 * checks it), the 400 body's fields aside.
 */
import { ENDPOINT_SPECS } from './contract.js';
import { isExactInteger, type Fields, type FieldSpec } from './spec.js';

function collect(): Map<string, FieldSpec> {
  const byName = new Map<string, FieldSpec>();
  const add = (schema: Fields | undefined): void => {
    for (const [name, spec] of Object.entries(schema ?? {})) {
      if (!byName.has(name)) byName.set(name, spec);
      if (spec.items !== undefined && spec.items !== 'string') add(spec.items);
      if (spec.fields !== undefined) add(spec.fields);
    }
  };
  for (const spec of Object.values(ENDPOINT_SPECS) as Array<{ schema: Fields; optional?: Fields }>) {
    add(spec.schema);
    add(spec.optional);
  }
  return byName;
}

/** Every field the contract's answers hold, by name (the first record naming it gives its spec). */
export const FIELDS_BY_NAME: ReadonlyMap<string, FieldSpec> = collect();

/** The field names that are identifier integers wherever they appear: exact at any size. */
export const IDENTIFIER_INTEGERS: ReadonlySet<string> = new Set(
  [...FIELDS_BY_NAME].filter(([, spec]) => isExactInteger(spec)).map(([name]) => name),
);

/** The schema's spec of a field by name; undefined for a field the contract does not name. */
export function fieldSpec(name: string): FieldSpec | undefined {
  return FIELDS_BY_NAME.get(name);
}
