/**
 * A table reads a field by its name (output/columns.ts), the schema by its type (src/schema/): a
 * field added to a schema must get the column kind its field kind implies, or a timestamp would be
 * cut as text and an identifier hidden for lack of room.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_SHAPES, type FieldSchema, type FieldSpec, type ResponseShape } from '../../../src/api/types.js';
import { columnKind } from '../../../src/output/columns.js';

/** Every field of every answer the contract describes, with its kind (a name may recur: each is checked). */
function contractFields(): Array<[string, FieldSpec]> {
  const nested = (fields: FieldSchema): FieldSchema[] => Object.values(fields).flatMap((spec) => (typeof spec.items === 'object' ? [spec.items] : []));
  return Object.values(ENDPOINT_SHAPES as Readonly<Record<string, ResponseShape>>).flatMap(({ schema, optional = {} }) =>
    [schema, optional, ...nested(schema)].flatMap((fields) => Object.entries(fields)));
}

describe('column kinds of the contract\'s fields', () => {
  const fields = contractFields();

  it('reads every field of every shape', () => {
    expect(fields.length).toBeGreaterThan(100);
  });

  it('a timestamp is a date column (its day shown, never cut)', () => {
    const wrong = fields.filter(([field, spec]) => spec.type === 'timestamp' && columnKind(field, false) !== 'date');
    expect(wrong).toEqual([]);
  });

  it('a required identifier (a key) is an identifier column (never cut, never hidden)', () => {
    const wrong = fields.filter(([field, spec]) => spec.identifier && spec.required && columnKind(field, true) !== 'identifier');
    expect(wrong).toEqual([]);
  });
});
