/**
 * A sync to object storage does not wait for one round trip after another (#33 items 1 and 6). Each
 * PUT and each merge store's GET was sent only once the one before had been answered: at a store's
 * real latency (40 ms a request) 11 weeks of the bench's streams took 12.5 s against 0.54 s to a
 * folder. The files now go out together, and a links merge asks for its stores ahead, while the state,
 * the run's commit, is still sent only once every file before it has landed.
 *
 * The store's front holds the first partition's PUT (and the first merge store's GET) until another
 * arrives beside it: sent one after another, none would, and the test fails at once, whatever the
 * machine's load.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { FIXED_NOW, sandbox, sandboxEnv, spawnCli } from './harness.js';
import { localS3, passOn, storeFront, type LocalS3 } from './s3-server.js';

let server: RunningSandbox;
let s3: LocalS3;
beforeAll(async () => {
  server = await sandbox({ now: FIXED_NOW });
  s3 = await localS3('lake');
});
afterAll(async () => {
  await s3?.close();
  await server?.close();
});

/** What the front saw: the most requests of a kind under way at once, and the state PUTs that came while files were. */
interface Seen {
  mostPutsAtOnce: number;
  mostStoreReadsAtOnce: number;
  statePutsBesideFiles: string[];
  released: { puts: boolean; reads: boolean };
}

/** `holding`: the first PUT and GET wait for a second beside them; else every request passes at once. */
function watchingFront(prefix: string, holding = true): Promise<{ front: Awaited<ReturnType<typeof storeFront>>; seen: Seen }> {
  const seen: Seen = { mostPutsAtOnce: 0, mostStoreReadsAtOnce: 0, statePutsBesideFiles: [], released: { puts: !holding, reads: !holding } };
  const filePuts = new Set<ServerResponse>();
  const storeReads = new Set<ServerResponse>();
  // The first of each kind waits for a second one (or, sent one after another, for 5 s, and the test fails).
  const held: Record<'puts' | 'reads', Array<() => void>> = { puts: [], reads: [] };
  const hold = (kind: 'puts' | 'reads', request: IncomingMessage, response: ServerResponse, underWay: Set<ServerResponse>) => {
    underWay.add(response);
    response.on('close', () => underWay.delete(response));
    const pass = () => passOn(s3.url, request, response);
    if (seen.released[kind]) return pass();
    held[kind].push(pass);
    const releaseAll = () => {
      seen.released[kind] = true;
      for (const each of held[kind].splice(0)) each();
    };
    if (held[kind].length >= 2) releaseAll();
    else setTimeout(releaseAll, 5_000).unref();
  };
  return storeFront(s3.url, (request, response) => {
    const url = decodeURIComponent(request.url ?? '');
    if (!url.startsWith(`/lake/${prefix}/`)) return false;
    if (request.method === 'PUT' && /_newsstats_sync\.json/.test(url) && filePuts.size > 0) seen.statePutsBesideFiles.push(url);
    if (request.method === 'PUT' && /part-0\.parquet|\.ndjson/.test(url)) {
      hold('puts', request, response, filePuts);
      seen.mostPutsAtOnce = Math.max(seen.mostPutsAtOnce, filePuts.size);
      return true;
    }
    if (request.method === 'GET' && /_newsstats\/links\/week=\d+\.ndjson/.test(url)) {
      hold('reads', request, response, storeReads);
      seen.mostStoreReadsAtOnce = Math.max(seen.mostStoreReadsAtOnce, storeReads.size);
      return true;
    }
    return false;
  }).then((front) => ({ front, seen }));
}

describe('sync to object storage, at a store\'s latency', () => {
  const sync = (prefix: string, frontUrl: string, env: Record<string, string> = {}) =>
    spawnCli(['sync', `s3://lake/${prefix}`, '--since', String(addWeeks(isoWeekOf(FIXED_NOW), -4)), '--streams', 'rankings,links', '--depth', '5', '--top', '3', '--links-limit', '5'], {
      env: { ...sandboxEnv(server), ...s3.env, AWS_ENDPOINT_URL_S3: frontUrl, ...env },
      timeoutMs: 60_000,
    });

  it('sends the files together and reads the merge stores ahead, the state only once they have landed', async () => {
    const { front, seen } = await watchingFront('together');
    try {
      const result = await sync('together', front.url);
      expect(result.code, result.stderr).toBe(0);
      expect(seen.mostPutsAtOnce).toBeGreaterThan(1);
      expect(seen.mostPutsAtOnce).toBeLessThanOrEqual(16);
      expect(seen.mostStoreReadsAtOnce).toBeGreaterThan(1);
      expect(seen.mostStoreReadsAtOnce).toBeLessThanOrEqual(8);
      expect(seen.statePutsBesideFiles).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it('NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS=1: one request at a time, as before', async () => {
    const { front, seen } = await watchingFront('one-at-a-time', false);
    try {
      const result = await sync('one-at-a-time', front.url, { NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS: '1' });
      expect(result.code, result.stderr).toBe(0);
      expect({ puts: seen.mostPutsAtOnce, reads: seen.mostStoreReadsAtOnce, statePutsBesideFiles: seen.statePutsBesideFiles }).toEqual({ puts: 1, reads: 1, statePutsBesideFiles: [] });
    } finally {
      await front.close();
    }
  });

  it('NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS other than 1-64 is refused in one line before anything is sent (exit 2)', async () => {
    const sent = s3.requests.length;
    for (const value of ['0', '65', '1e3', 'many', '-4']) {
      const result = await sync('refused', s3.url, { NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS: value });
      expect({ code: result.code, stdout: result.stdout }, value).toEqual({ code: 2, stdout: '' });
      expect(result.stderr, value).toBe(`error: NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS must be a whole number from 1 to 64, not ${JSON.stringify(value)}\n`);
    }
    expect(s3.requests.slice(sent)).toEqual([]);
  });
});
