/**
 * DuckDB (its Node package, a dev dependency) as the independent reader of the Parquet files
 * newsstats writes: column types as DuckDB sees them, and values as JSON text (BIGINT as a string of
 * all its digits, so nothing is rounded on the way back).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

let connection: Promise<DuckDBConnection> | undefined;

async function connect(): Promise<DuckDBConnection> {
  connection ??= DuckDBInstance.create(':memory:').then((instance) => instance.connect());
  return connection;
}

/** A path as a SQL string literal. */
export function sqlText(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Rows of a query, each value as DuckDB's JSON form (big integers as digit strings). */
export async function duckRows(sql: string): Promise<Array<Record<string, unknown>>> {
  const result = await (await connect()).runAndReadAll(sql);
  return result.getRowObjectsJson() as Array<Record<string, unknown>>;
}

/** Column name to DuckDB type of what a query returns. */
export async function duckTypes(sql: string): Promise<Record<string, string>> {
  const rows = await duckRows(`DESCRIBE ${sql}`);
  return Object.fromEntries(rows.map((row) => [String(row.column_name), String(row.column_type)]));
}

/** Every row of one Parquet file, in file order. */
export function readParquet(path: string): Promise<Array<Record<string, unknown>>> {
  return duckRows(`SELECT * FROM read_parquet(${sqlText(path)})`);
}
