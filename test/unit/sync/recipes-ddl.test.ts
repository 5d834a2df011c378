/**
 * docs/recipes.md's Athena table for the links stream, kept in step with the stream's columns: a
 * column the lake gains or renames, or a type it changes, must reach the DDL a team pastes into
 * Athena (a column left out there is silently never read; a wrong type fails every query).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { ParquetKind } from '../../../src/output/parquet.js';
import { STREAMS } from '../../../src/sync/streams.js';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** The Athena (Hive) type a reader must declare for each column kind the lake writes (docs/types.md). */
const ATHENA_TYPE: Record<ParquetKind, string> = {
  INT32: 'int',
  DECIMAL: 'decimal(38,0)',
  DOUBLE: 'double',
  TIMESTAMP: 'timestamp',
  UTF8: 'string',
  JSON: 'string',
  BOOLEAN: 'boolean',
};

it("docs/recipes.md's Athena DDL declares the links stream's columns, in order, with their types; week is the partition", () => {
  const recipes = readFileSync(join(REPO, 'docs', 'recipes.md'), 'utf8');
  const ddl = /CREATE EXTERNAL TABLE newsstats_links \(([\s\S]*?)\)\nPARTITIONED BY \(week int\)/.exec(recipes);
  expect(ddl, 'the links table of the Athena recipe').not.toBeNull();
  const declared = ddl![1]!.split(/,\s*(?![^(]*\))/).map((column) => column.trim().replaceAll('`', '').split(/\s+/));
  const expected = STREAMS.links.columns.filter((column) => column.name !== 'week').map((column) => [column.name, ATHENA_TYPE[column.kind]]);
  expect(declared).toEqual(expected);
});
