/**
 * A store that ignores conditional writes (#33 item 1: "two syncs of one lake never clobbering each
 * other"). The lock and the state are kept apart by If-None-Match and If-Match, and a store that
 * accepts both without checking them (s3rver does; so do some S3-compatible stores) let a second sync
 * take a held lock and overwrite the first's files, with no word of it. The run now asks once, right
 * after taking its lock, and says so in one line; it goes on as before. The front plays that store for
 * the lock's second If-None-Match PUT only, so the rest of the lake is s3rver's as in every other test.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { FIXED_NOW, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, passOn, storeFront, type LocalS3 } from './s3-server.js';

let server: RunningSandbox;
let s3: LocalS3;
let front: Awaited<ReturnType<typeof storeFront>>;
/** The front accepts a lock PUT with If-None-Match: * once the lock exists, as a store that ignores the condition does. */
let ignoreConditions = false;
/** Lock PUTs with If-None-Match: * the front saw, per lake. */
const lockCreates = new Map<string, number>();

beforeAll(async () => {
  server = await sandbox({ now: FIXED_NOW });
  s3 = await localS3('lake');
  front = await storeFront(s3.url, (request: IncomingMessage, response: ServerResponse) => {
    const key = decodeURIComponent(new URL(request.url ?? '/', 'http://front').pathname);
    if (request.method !== 'PUT' || !key.endsWith('/_newsstats_sync.lock') || request.headers['if-none-match'] !== '*') return false;
    const seen = (lockCreates.get(key) ?? 0) + 1;
    lockCreates.set(key, seen);
    if (!ignoreConditions || seen === 1) {
      passOn(s3.url, request, response);
      return true;
    }
    request.resume();
    response.writeHead(200, { etag: '"0123456789abcdef0123456789abcdef"' });
    response.end();
    return true;
  });
});
afterAll(async () => {
  await front?.close();
  await s3?.close();
  await server?.close();
});

const sync = (lake: string, ...flags: string[]) =>
  spawnCli(['sync', `s3://lake/${lake}`, '--since', '202640', '--until', '202641', '--streams', 'rankings', '--depth', '3', ...flags], {
    env: { ...sandboxEnv(server), ...s3.env, AWS_ENDPOINT_URL_S3: front.url },
    timeoutMs: 60_000,
  });

const WARNING = /^sync: s3:\/\/lake\/\S+: the store ignores conditional writes \(it accepted If-None-Match: \* for _newsstats_sync\.lock, which exists\), so it cannot keep two syncs of this lake from overwriting each other's files: run one at a time$/m;

describe('sync to a store that ignores conditional writes', () => {
  it('says so in one line, and the run goes on (exit 0)', async () => {
    ignoreConditions = true;
    const result = await sync('ignoring');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(WARNING);
    expect(result.stderr.match(new RegExp(WARNING.source, 'gm'))).toHaveLength(1);
    // Asked once a run: the lock's creation, then the probe.
    expect(lockCreates.get('/lake/ignoring/_newsstats_sync.lock')).toBe(2);
  });

  it('a store that refuses the second If-None-Match PUT (S3, MinIO, R2) gets no such line', async () => {
    ignoreConditions = false;
    const result = await sync('honouring');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/conditional writes/);
    expect(lockCreates.get('/lake/honouring/_newsstats_sync.lock')).toBe(2);
  });

  it('is silent under --quiet, as the run\'s other notes are, and in --summary\'s notes all the same', async () => {
    ignoreConditions = true;
    const summary = join(tempDir(), 'summary.json');
    const result = await sync('ignoring-quietly', '-q', '--summary', summary);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const { outcome, notes } = JSON.parse(readFileSync(summary, 'utf8')) as { outcome: string; notes: string[] };
    expect(outcome).toBe('ok');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(WARNING);
  });
});
