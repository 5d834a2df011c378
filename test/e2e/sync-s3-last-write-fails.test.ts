/**
 * A write that fails is the run's failure even when it is the run's last (#33 item 1): the store's
 * PUTs are sent without waiting for each to land, and a failure is reported by the next state write,
 * which waits for them all. A run that finishes a stopped links merge ends with emptying its journal
 * (`merging.json`), and where it then has nothing more to write, no state write came after: a 500 on
 * that PUT ended the run with exit 0, the journal still naming the merge. And a partition whose PUT
 * failed was still counted as written (--summary). The store's front answers every PUT of the named
 * objects 500, so nothing depends on timing.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { FIXED_NOW, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, storeFront, type LocalS3 } from './s3-server.js';

let server: RunningSandbox;
let s3: LocalS3;
let front: Awaited<ReturnType<typeof storeFront>>;
/** The objects whose every PUT the front answers 500. */
let failing: RegExp | undefined;

beforeAll(async () => {
  server = await sandbox({ now: FIXED_NOW });
  s3 = await localS3('lake');
  front = await storeFront(s3.url, (request: IncomingMessage, response: ServerResponse) => {
    const key = decodeURIComponent(new URL(request.url ?? '/', 'http://front').pathname);
    if (request.method !== 'PUT' || failing === undefined || !failing.test(key)) return false;
    request.resume();
    response.writeHead(500, { 'content-type': 'application/xml' });
    response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>');
    return true;
  });
});
afterAll(async () => {
  await front?.close();
  await s3?.close();
  await server?.close();
});

describe('sync to object storage, when a write fails', () => {
  const sync = (week: number) =>
    spawnCli(['sync', 's3://lake/last-write', '--since', String(week), '--until', String(week), '--streams', 'links', '--depth', '5', '--top', '8', '--links-limit', '30'], {
      // One attempt a request: the front fails every one anyway.
      env: { ...sandboxEnv(server), ...s3.env, AWS_ENDPOINT_URL_S3: front.url, AWS_MAX_ATTEMPTS: '1' },
      timeoutMs: 60_000,
    });
  const merging = async () => (await fetch(`${s3.url}/lake/last-write/_newsstats/links/merging.json`)).text();

  it('a failed PUT of the finished merge\'s journal ends the run with exit 6 naming it, and the next run finishes the merge', async () => {
    failing = undefined;
    expect((await sync(202640)).code).toBe(0);
    // A merge stopped by a links partition that cannot be written: its journal stays.
    failing = /\/links\/week=\d+\/part-0\.parquet$/;
    const stopped = await sync(202620);
    expect(stopped.code, stopped.stderr).toBe(6);
    expect(await merging()).toMatch(/"weeks":\[\d/);
    // A run with nothing to fetch (202640 is done) finishes that merge, and cannot empty its journal.
    failing = /\/merging\.json$/;
    const finishing = await sync(202640);
    expect(finishing.code, finishing.stderr).toBe(6);
    expect(finishing.stderr).toMatch(/^error: cannot write to s3:\/\/lake\/last-write\/_newsstats\/links\/merging\.json: InternalError/m);
    expect(await merging()).toMatch(/"weeks":\[\d/);
    failing = undefined;
    const again = await sync(202640);
    expect(again.code, again.stderr).toBe(0);
    expect(await merging()).toBe('{}\n');
  });

  it('a partition whose PUT failed is not counted as written (--summary)', async () => {
    // The weeks fetched one after another (--concurrency 1), their PUTs under way together all the same:
    // the failed one was counted as each was handed to the store, and stayed in the account.
    failing = /\/rankings\/week=202638\/part-0\.parquet$/;
    const summary = join(tempDir(), 'summary.json');
    const result = await spawnCli(['sync', 's3://lake/counted', '--since', '202636', '--until', '202640', '--streams', 'rankings', '--depth', '5', '--concurrency', '1', '--summary', summary], {
      env: { ...sandboxEnv(server), ...s3.env, AWS_ENDPOINT_URL_S3: front.url, AWS_MAX_ATTEMPTS: '1' },
      timeoutMs: 60_000,
    });
    failing = undefined;
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(/^error: cannot write to s3:\/\/lake\/counted\/rankings\/week=202638\/part-0\.parquet: InternalError/m);
    const account = JSON.parse(readFileSync(summary, 'utf8')) as { outcome: string; written: Array<{ stream: string; week: number }> };
    expect(account.outcome).toBe('failed');
    expect(account.written.map(({ week }) => week)).not.toContain(202638);
    const landed = await (await fetch(`${s3.url}/lake?list-type=2&prefix=counted/rankings/`)).text();
    for (const { week } of account.written) expect(landed).toContain(`counted/rankings/week=${week}/part-0.parquet`);
  });
});
