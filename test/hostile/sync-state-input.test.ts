/**
 * A lake's state is an input like any other (#35 items 3 and 7): a FIFO never hangs the run, an
 * oversized file is refused, a BOM is skipped, a field of the wrong type is one line naming it (exit 2),
 * a folder in its place is named with its path, and `"currentWeek": "abc"` never makes a run "up to date".
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { runCli, sandbox, sandboxEnv, tempDir } from '../e2e/harness.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const SMALL = ['--since', String(LAST), '--streams', 'rankings', '--depth', '3'];

let server: RunningSandbox;
let env: Record<string, string>;
beforeAll(async () => {
  server = await sandbox({ now: NOW });
  env = sandboxEnv(server);
});
afterAll(async () => {
  await server?.close();
});

function lakeWithState(content: string | Buffer): string {
  const dir = tempDir();
  writeFileSync(join(dir, '_newsstats_sync.json'), content);
  return dir;
}

describe('the state file', () => {
  it('a FIFO in the state\'s place is refused at once, never waited on', async () => {
    const dir = tempDir();
    execFileSync('mkfifo', [join(dir, '_newsstats_sync.json')]);
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/_newsstats_sync\.json is not a regular file/);
  });

  it('a folder in the state\'s place is named with its path', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '_newsstats_sync.json'));
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`error: ${join(dir, '_newsstats_sync.json')} is a folder, not a file: remove it`);
  });

  it('a state larger than any real one is refused without being read whole', async () => {
    const dir = lakeWithState(Buffer.alloc(5 * 1024 * 1024, 0x20));
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is 5242880 bytes, more than a newsstats file there can be/);
  });

  it('a BOM before the JSON is skipped', async () => {
    const dir = lakeWithState('\uFEFF{"version": 2, "streams": {}}\n');
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect(result.code, result.stderr).toBe(0);
  });

  it.each([
    ['{"version": 2, "streams": {"rankings": {"weeks": "abc"}}}', 'streams.rankings.weeks is not a list of weeks'],
    ['{"version": 2, "currentWeek": "abc", "streams": {}}', 'currentWeek is not a week'],
    ['{"version": 2, "streams": []}', 'streams is not an object'],
    ['{"version": 2, "streams": {"rankings": {"query": {"depth": {}}}}}', 'streams.rankings.query.depth is not a string, number or boolean'],
    ['{"version": 2, "streams": {"nonsense": {}}}', 'streams.nonsense is not a stream'],
    ['{"version": "2", "streams": {}}', 'version is not 2'],
  ])('a wrong type is one line naming the field, exit 2: %s', async (text, message) => {
    const dir = lakeWithState(text);
    const result = await runCli(['sync', dir, ...SMALL], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(message);
    expect(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')).toBe(text);
  });
});

describe('the links index', () => {
  it.each(['not json', '[1, 2]', '{"p\\u0000123": "202601"}'])('one that is not an index of links is one line naming it, exit 2: %s', async (text) => {
    const dir = tempDir();
    const links = ['--since', String(LAST), '--streams', 'links', '--top', '1', '--links-limit', '2'];
    expect((await runCli(['sync', dir, ...links], { env })).code).toBe(0);
    writeFileSync(join(dir, '_newsstats', 'links', 'index.json'), text);
    const result = await runCli(['sync', dir, ...links, '--refresh', String(LAST)], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('_newsstats/links/index.json is not an index of links (key to week): remove it, and the next run builds it again');
  });
});
