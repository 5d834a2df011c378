/**
 * Lakes synced from the wild sandbox (everything the contract allows: nulls, unknown fields, integers
 * beyond 2^53 and 2^64, any Unicode), read by DuckDB as a data engineer would (#30): no allowed answer
 * aborts the sync, every partition of a stream has the same column types (so a glob over the stream
 * reads), the week is stored in each file as INT32 as well as in its path, timestamps are UTC-adjusted
 * (TIMESTAMP WITH TIME ZONE), identifiers are DECIMAL(38,0), and key columns are REQUIRED; fields
 * the contract does not name reach the lake in `_extra` (#33), every digit as sent.
 */
import { join } from 'node:path';
import { parse as parseLossless, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { duckRows, duckTypes, sqlText } from '../duckdb.js';
import { runCli, sandbox, sandboxEnv, tempDir } from './harness.js';

const SEEDS = [1, 7, 11];
const STREAMS = ['rankings', 'country_stats', 'links', 'people', 'countries', 'sources'];
/** Columns a row can't be told apart without: never null in any file. */
const KEYS: Record<string, string[]> = {
  rankings: ['week', 'personHash'],
  country_stats: ['week', 'personHash', 'countryId'],
  links: ['week', 'personHash', 'articleHash'],
};

describe.each(SEEDS)('a lake synced from the wild sandbox, seed %i', (seed) => {
  it('is read whole by DuckDB, typed the same in every partition, keys required', async () => {
    const server = await sandbox({ wild: true, seed });
    const dir = join(tempDir(), 'lake');
    let ranking: Array<Record<string, unknown>>;
    try {
      const result = await runCli(['sync', dir, '--since', '202644', '--depth', '8', '--top', '3', '--links-limit', '5'], { env: sandboxEnv(server), timeoutMs: 60_000 });
      expect(result.code, result.stderr).toBe(0);
      const top = await runCli(['people', 'top', '--weeks', '202645', '--limit', '8', '-f', 'json'], { env: sandboxEnv(server) });
      expect(top.code, top.stderr).toBe(0);
      ranking = parseLossless(top.stdout) as Array<Record<string, unknown>>;
    } finally {
      await server.close();
    }

    // Fields the contract does not name reach the lake: in _extra, as sent, every digit kept.
    const known = new Set(Object.keys(await duckTypes(`SELECT * FROM read_parquet(${sqlText(join(dir, 'rankings', '*', '*.parquet'))}, hive_partitioning = false)`)));
    const lake = await duckRows(`SELECT personHash, _extra::VARCHAR AS extra FROM read_parquet(${sqlText(join(dir, 'rankings', 'week=202645', '*.parquet'))})`);
    const extraOf = new Map(lake.map((row) => [String(row.personHash), row.extra === null ? null : stringify(parseLossless(String(row.extra)))]));
    expect(extraOf.size).toBe(ranking.length);
    let withExtra = 0;
    for (const person of ranking) {
      const sent = Object.fromEntries(Object.entries(person).filter(([name]) => !known.has(name)));
      if (Object.keys(sent).length > 0) withExtra += 1;
      expect(extraOf.get(String(person.personHash)), String(person.personHash)).toBe(Object.keys(sent).length === 0 ? null : stringify(sent));
    }
    expect(withExtra, 'the wild sandbox sent some unknown fields').toBeGreaterThan(0);

    const whole = await duckRows(`SELECT count(*) AS n FROM read_parquet(${sqlText(join(dir, '**', '*.parquet'))}, hive_partitioning = true, union_by_name = true)`);
    expect(Number(whole[0]!.n)).toBeGreaterThan(0);

    const schema = await duckRows(`SELECT file_name, name, type, repetition_type, logical_type FROM parquet_schema(${sqlText(join(dir, '**', '*.parquet'))})`);
    for (const stream of STREAMS) {
      const files = new Set(schema.filter((row) => String(row.file_name).includes(`/${stream}/`)).map((row) => String(row.file_name)));
      expect(files.size, stream).toBeGreaterThan(0);
      // One glob over the stream reads every partition without union_by_name: the same columns, the same
      // types. The files' own week is INTEGER; read with its path's key=value, DuckDB types the week
      // from the path (BIGINT), the same for every partition.
      const glob = sqlText(join(dir, stream, '*', '*.parquet'));
      expect((await duckTypes(`SELECT * FROM read_parquet(${glob}, hive_partitioning = false)`)).week, stream).toBe('INTEGER');
      expect((await duckTypes(`SELECT * FROM read_parquet(${glob}, hive_partitioning = true)`)).week, stream).toBe('BIGINT');
      for (const file of files) {
        const columns = schema.filter((row) => row.file_name === file);
        const week = columns.find((row) => row.name === 'week');
        expect(week?.type, `${file}: the week stored in the file`).toBe('INT32');
        for (const key of KEYS[stream] ?? []) expect(columns.find((row) => row.name === key)?.repetition_type, `${file}: ${key}`).toBe('REQUIRED');
      }
    }

    const links = await duckTypes(`SELECT * FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))}, hive_partitioning = true)`);
    expect(links.articleHash).toBe('DECIMAL(38,0)');
    expect(links.mentionDate).toBe('TIMESTAMP WITH TIME ZONE');
    const nullKeys = await duckRows(`SELECT count(*) AS n FROM read_parquet(${sqlText(join(dir, 'links', '*', '*.parquet'))}) WHERE articleHash IS NULL OR personHash IS NULL`);
    expect(Number(nullKeys[0]!.n)).toBe(0);
  }, 90_000);
});
