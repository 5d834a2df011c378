/**
 * A partition the state records but the lake no longer holds (deleted by hand, expired by a bucket's
 * lifecycle rule, dropped by a store that answered its PUT 200) is written again by the next run, in
 * a folder and in object storage: the lake then equals one never damaged. Before, the state alone
 * was trusted, and the lake lacked those files for good.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addWeeks } from '../../src/shared/weeks.js';
import { sandboxEnv, spawnCli, tempDir } from './harness.js';
import { W, download, files, stateOf, sync, useLakeServers } from './lake-fixture.js';
import { storeFront } from './s3-server.js';

const servers = useLakeServers();
const options = ['--since', String(addWeeks(W, -1)), '--depth', '6', '--top', '2', '--links-limit', '3'];
const data = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => !path.startsWith('_newsstats_sync')).sort();

let want: Map<string, Buffer>;
beforeAll(async () => {
  const reference = join(tempDir(), 'lake');
  await sync(servers, reference, servers.after, options);
  want = files(reference);
});

function expectUndamaged(got: Map<string, Buffer>): void {
  expect(data(got)).toEqual(data(want));
  for (const path of data(want)) expect(got.get(path)!.equals(want.get(path)!), path).toBe(true);
}

/** A ranking, a links partition, another week's links merge store and a reference table's snapshot. */
function victims(): string[] {
  const links = data(want).filter((path) => path.startsWith('links/week=') && path !== 'links/week=0/part-0.parquet');
  const stores = data(want).filter((path) => /^_newsstats\/links\/week=\d+\.ndjson$/.test(path));
  const store = stores.find((path) => !links[0]!.includes(path.slice(path.lastIndexOf('week='), -'.ndjson'.length))) ?? stores[0]!;
  return [`rankings/week=${W}/part-0.parquet`, links[0]!, store, data(want).find((path) => path.startsWith('people/'))!];
}

describe('a partition the state records and the lake lacks', () => {
  it('a folder: files deleted by hand are written again by the next run', async () => {
    const lake = join(tempDir(), 'lake');
    await sync(servers, lake, servers.after, options);
    for (const path of victims()) rmSync(join(lake, path));
    await sync(servers, lake, servers.after, options);
    expectUndamaged(files(lake));
  });

  it('object storage: objects a store answered 200 and never kept are written again by the next run', async () => {
    // In front of the store: the first PUT of each victim is answered 200 and dropped.
    const dropped = new Set(victims().map((path) => `/lake/dropped/${path}`));
    const front = await storeFront(servers.s3.url, (request, response) => {
      if (request.method !== 'PUT' || !dropped.delete(decodeURIComponent(request.url!.split('?')[0]!))) return false;
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { etag: '"00000000000000000000000000000000"' });
        response.end();
      });
      return true;
    });
    try {
      const first = await spawnCli(['sync', 's3://lake/dropped', ...options], { env: { ...sandboxEnv(servers.after), ...servers.s3.env, AWS_ENDPOINT_URL_S3: front.url } });
      expect(first.code, first.stderr).toBe(0);
      expect(dropped.size).toBe(0);
    } finally {
      await front.close();
    }
    await sync(servers, 's3://lake/dropped', servers.after, options);
    expectUndamaged(files(await download(servers, 'dropped')));
  });

  it('object storage: credentials that may not list the bucket (403) leave the run trusting its state', async () => {
    await sync(servers, 's3://lake/unlisted', servers.after, options);
    const front = await storeFront(servers.s3.url, (request, response) => {
      if (request.method !== 'GET' || !/[?&]list-type=2/.test(request.url!)) return false;
      request.resume();
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      return true;
    });
    try {
      const again = await spawnCli(['sync', 's3://lake/unlisted', ...options], { env: { ...sandboxEnv(servers.after), ...servers.s3.env, AWS_ENDPOINT_URL_S3: front.url } });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/^sync: up to date, /m);
    } finally {
      await front.close();
    }
  });

  it('a folder: a partition lost outside the run\'s weeks is no longer recorded, though the run writes nothing', async () => {
    const lake = join(tempDir(), 'lake');
    await sync(servers, lake, servers.after, options);
    const old = addWeeks(W, -1);
    rmSync(join(lake, `rankings/week=${old}/part-0.parquet`));
    // A run of the later week only: nothing to fetch, the lost week outside its range.
    await sync(servers, lake, servers.after, ['--since', String(W), ...options.slice(2)]);
    expect(Object.keys(stateOf(lake).streams.rankings!.taken!)).not.toContain(String(old));
    expect(stateOf(lake).streams.rankings!.weeks).not.toContain(old);
  });
});
