/**
 * A table reads a field by its name (output/columns.ts), the contract by its kind (api/types.ts): a
 * field added to a schema must get the column kind its field kind implies, or a timestamp would be
 * cut as text and an identifier hidden for lack of room.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_SHAPES, isIdentifierKind, type FieldKind, type ResponseShape } from '../../../src/api/types.js';
import { columnKind } from '../../../src/output/columns.js';

/** Every field of every answer the contract describes, with its kind (a name may recur: each is checked). */
function contractFields(): Array<[string, FieldKind]> {
  return Object.values(ENDPOINT_SHAPES as Readonly<Record<string, ResponseShape>>).flatMap(({ schema, optional = {}, nested = {} }) =>
    [schema, optional, ...Object.values(nested)].flatMap((fields) => Object.entries(fields)));
}

describe('column kinds of the contract\'s fields', () => {
  const fields = contractFields();

  it('reads every field of every shape', () => {
    expect(fields.length).toBeGreaterThan(100);
  });

  it('a timestamp is a date column (its day shown, never cut)', () => {
    const wrong = fields.filter(([field, kind]) => kind === 'timestamp' && columnKind(field, false) !== 'date');
    expect(wrong).toEqual([]);
  });

  it('an identifier (a `!` kind, or a biginteger hash) is an identifier column (never cut, never hidden)', () => {
    const wrong = fields.filter(([field, kind]) => (isIdentifierKind(kind) || kind === 'biginteger') && columnKind(field, true) !== 'identifier');
    expect(wrong).toEqual([]);
  });
});
