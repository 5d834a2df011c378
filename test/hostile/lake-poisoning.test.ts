/**
 * The service can't poison the lake (#35 item 6): a current week far from the local clock is refused
 * for that run and not stored (no empty far-future partition, later runs ask again), nor the tap's
 * state (a bookmark past weeks that have not happened would skip them for good); an identifier that
 * is not valid text fails its partition (exit 7) and is never requested or recorded as done.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { runCli, tempDir } from '../e2e/harness.js';
import { COUNTRIES, hostileServer, json, KEY, type HostileServer, type Route } from './servers.js';

const CURRENT = isoWeekOf(new Date());
const LAST = addWeeks(CURRENT, -1);
const SMALL = ['--since', String(LAST), '--streams', 'rankings,country_stats', '--depth', '2', '--top', '2', '--retries', '0'];

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function envOf(running: HostileServer) {
  return { NEWSSTATS_BASE_URL: running.url, NEWSSTATS_API_KEY: KEY };
}

/** people top with a personHash whose bytes are not UTF-8 (0xFF), as raw bytes on the wire. */
const badHashRanking: Route = (_request, response) => {
  const body = Buffer.concat([
    Buffer.from('[{"rank":1,"personHash":"ok1","fullName":"A","mentionCount":3},{"rank":2,"personHash":"b'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('d","fullName":"B","mentionCount":2}]'),
  ]);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
};

describe('the service cannot poison the lake', () => {
  it('a current week far ahead of the local clock is refused for the run and not stored', async () => {
    server = await hostileServer({ '/api/data/weeks/current': json({ currentWeek: 999952, last4StartWeek: 999949 }), '/api/data/countries': json(COUNTRIES) });
    const dir = tempDir();
    const result = await runCli(['sync', dir, '--streams', 'rankings'], { env: envOf(server) });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/current week is 999952, \d+ weeks after the local clock's/);
    expect(existsSync(join(dir, '_newsstats_sync.json'))).toBe(false);
    expect(existsSync(join(dir, 'rankings'))).toBe(false);
  });

  it('a far-future week already in a state decides nothing: the service is asked again', async () => {
    server = await hostileServer({ '/api/data/weeks/current': json({ currentWeek: 999952, last4StartWeek: 999949 }) });
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, '_newsstats_sync.json'), JSON.stringify({ version: 2, currentWeek: 999952, streams: {} }));
    const result = await runCli(['sync', dir, '--streams', 'rankings'], { env: envOf(server) });
    expect(result.code).toBe(5);
    expect(server.requests.some((request) => request.startsWith('/api/data/weeks/current'))).toBe(true);
    expect(result.stderr).not.toMatch(/up to date/);
  });

  it('the tap refuses a current week far ahead of the local clock too: no RECORD, no STATE that would skip weeks for good', async () => {
    const ahead = addWeeks(CURRENT, 8);
    server = await hostileServer({ '/api/data/weeks/current': json({ currentWeek: ahead, last4StartWeek: addWeeks(ahead, -3) }), '/api/data/people/top': json([]) });
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ streams: 'rankings', start_week: LAST }));
    const result = await runCli(['tap', '--config', config], { env: envOf(server) });
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(new RegExp(`current week is ${ahead}, 8 weeks after the local clock's ${CURRENT}`));
    expect(result.stdout).toBe('');
    expect(server.requests.filter((request) => request.startsWith('/api/data/people/top'))).toEqual([]);
  });

  it('an identifier that is not valid text fails its partitions (exit 7), is never requested, and nothing of the week is recorded', async () => {
    server = await hostileServer({
      '/api/data/weeks/current': json({ currentWeek: CURRENT, last4StartWeek: addWeeks(CURRENT, -3) }),
      '/api/data/people/top': badHashRanking,
      '/api/data/countries': json(COUNTRIES),
    });
    const dir = tempDir();
    const result = await runCli(['sync', dir, ...SMALL], { env: envOf(server) });
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toMatch(/personHash "b\uFFFD\uFFFDd" is not valid text/);
    expect(server.requests.filter((request) => request.includes('/people/b'))).toEqual([]);
    const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: Record<string, { weeks?: number[] }> };
    expect(state.streams.rankings?.weeks ?? []).toEqual([]);
    expect(state.streams.country_stats?.weeks ?? []).toEqual([]);
    expect(existsSync(join(dir, 'rankings')) ? readdirSync(join(dir, 'rankings')) : []).toEqual([]);
  });
});
