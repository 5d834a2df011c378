/**
 * The vocabulary the one schema of the contract (contract.ts) is written in: per field its type,
 * whether it is an identifier, whether the contract promises it (always there, never null), its format
 * and bounds, and a one-line description. Everything typed derives from it: the TypeScript types
 * (records.ts, generated), the client's checks (api/validate.ts), the exact-JSON codec's field
 * knowledge (api/json.ts), Parquet and Singer column types, the sandbox's wild answers and
 * docs/openapi.json. docs/types.md is the table of what each kind becomes in each sink.
 */

/** A field's type as the contract writes it ("timestamp" is its own: text of one fixed form). */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'array' | 'object';

/**
 * A form the contract gives a value beyond its JSON type:
 * - `week`: an ISO week written YYYYWW (202647), a real week of a real year;
 * - `url`: an absolute URL;
 * - `color`: `#RRGGBB`;
 * - `hash-list`: personHash values separated by commas.
 */
export type FieldFormat = 'week' | 'url' | 'color' | 'hash-list';

/** The fields of one record, in the contract's order. */
export type Fields = Readonly<Record<string, FieldSpec>>;

export interface FieldSpec {
  readonly type: FieldType;
  /** One line, for TSDoc on hover, the OpenAPI document and tool descriptions. */
  readonly description: string;
  /**
   * An identifier: integers are kept exact at any size in every sink (a string of digits in the
   * library's native mode, DECIMAL(38,0) in Parquet), strings are used as they are.
   */
  readonly identifier?: true;
  /**
   * Promised by the contract and needed by the client: always there, never null. Every other field
   * may be null or left out (the contract: "Optional or partial fields can be null").
   */
  readonly required?: true;
  readonly format?: FieldFormat;
  /** The least value the contract allows (rank: 1). */
  readonly minimum?: number;
  /** Items of an array: strings, or records of these fields. Unset: the contract does not show them. */
  readonly items?: 'string' | Fields;
  /** Fields of an object, where the contract names them. Unset: the contract does not show them. */
  readonly fields?: Fields;
}

/** Writes a record's fields keeping their literal types, so TypeScript can derive from them. */
export function fields<const F extends Record<string, FieldSpec>>(spec: F): F {
  return spec;
}

/** Field names of a record, in contract order. */
export function fieldsOf(schema: Fields): string[] {
  return Object.keys(schema);
}

/** An integer that must be kept exact whatever its size: sent back in paths, joined on, keyed by. */
export function isExactInteger(spec: FieldSpec): boolean {
  return spec.type === 'integer' && spec.identifier === true;
}

/**
 * The client's tolerance, the one rule over the schema (docs/types.md, "What the client accepts"):
 * null and absence are accepted for every field the contract does not make `required`, and for every
 * item of a list; fields the schema does not name are accepted and passed on. A value of the right
 * type outside its format or bounds (a rank of 0, a colour that is not #RRGGBB, a URL that does not
 * parse) passes as sent. What cannot have the field's declared type (the wrong JSON type, a fraction
 * in an integer, a timestamp that is no date, a week that is no week) is a contract violation.
 */
export function mayBeMissing(spec: FieldSpec): boolean {
  return spec.required !== true;
}
