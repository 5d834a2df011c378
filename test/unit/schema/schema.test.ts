/**
 * The one schema holds together: a field name means one thing across the contract's records (the
 * codec, Parquet and Singer read fields by name), and the identifier names TypeScript knows
 * (IdentifierName, which types lossless results) are the ones the codec keeps exact at run time.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ENDPOINT_SPECS, type IdentifierName } from '../../../src/schema/contract.js';
import { IDENTIFIER_INTEGERS } from '../../../src/schema/knowledge.js';
import type { Fields } from '../../../src/schema/spec.js';

function everyField(): Array<[string, Fields[string]]> {
  const out: Array<[string, Fields[string]]> = [];
  const add = (fields: Fields | undefined): void => {
    for (const [name, spec] of Object.entries(fields ?? {})) {
      out.push([name, spec]);
      if (typeof spec.items === 'object') add(spec.items);
      if (spec.fields) add(spec.fields);
    }
  };
  for (const spec of Object.values(ENDPOINT_SPECS) as Array<{ schema: Fields; optional?: Fields }>) {
    add(spec.schema);
    add(spec.optional);
  }
  return out;
}

describe('the schema', () => {
  it('gives each field name one type, one identifier-ness and one form across its records', () => {
    const seen = new Map<string, string>();
    for (const [name, spec] of everyField()) {
      const kind = `${spec.type}${spec.identifier ? ' identifier' : ''}${spec.format ? ` ${spec.format}` : ''}`;
      expect(seen.get(name) ?? kind, name).toBe(kind);
      seen.set(name, kind);
    }
  });

  it('the identifier integers are the codec\'s, and the type-level list is the same', () => {
    expect([...IDENTIFIER_INTEGERS].sort()).toEqual(['articleHash', 'countryId', 'fromCountryId', 'postId', 'sourceId']);
    expectTypeOf<IdentifierName>().toEqualTypeOf<'articleHash' | 'countryId' | 'fromCountryId' | 'postId' | 'sourceId'>();
  });

  it('every field has a one-line description', () => {
    for (const [name, spec] of everyField()) expect(spec.description, name).toMatch(/^[^\n]{8,200}$/);
  });
});
