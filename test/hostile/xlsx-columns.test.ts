/**
 * A sheet holds at most 16,384 columns (issue #35 item 7): an answer whose rows carry 100,000 fields
 * the contract does not name (it allows unknown fields) is one line, exit 2, and no file, where exceljs
 * threw "16385 is out of bounds" (exit 1). What fits is written whole.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, tempDir } from '../e2e/harness.js';
import { KEY, WEEK_INFO, hostileServer, json, run, type HostileServer } from './servers.js';

function wide(count: number): Record<string, unknown> {
  const row: Record<string, unknown> = { rank: 1, personHash: 'p1', fullName: 'Person 1', mentionCount: 10 };
  for (let index = 0; index < count; index += 1) row[`extra${index}`] = index;
  return row;
}

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer({
    '/api/data/weeks/current': json(WEEK_INFO),
    '/api/data/people/top': (request, response) => json([wide(new URL(request.url!, 'http://x').searchParams.get('limit') === '1' ? 100_000 : 100)])(request, response),
  });
});
afterAll(() => server.close());

describe('xlsx and the service\'s unknown fields', () => {
  it('100,000 unknown fields: one line naming the limit and the way out, no file', async () => {
    const file = join(tempDir(), 'wide.xlsx');
    const result = await run(['people', 'top', '--limit', '1', '-o', file], { env: { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY } });
    expectFailure(result, 2, /^error: xlsx: 100,0\d\d columns, more than a sheet holds \(16,384\); choose some with --fields, or write csv or json$/);
    expect(existsSync(file)).toBe(false);
  });

  it('fewer fields than a sheet holds are all kept', async () => {
    const file = join(tempDir(), 'some.xlsx');
    const result = await run(['people', 'top', '--limit', '2', '-o', file], { env: { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY } });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(file)).toBe(true);
  });
});
