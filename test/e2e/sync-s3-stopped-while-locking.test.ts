/**
 * A sync of an s3:// lake stopped (SIGTERM, SIGINT) while it takes its lock (#33: kills at random
 * moments, remote). The signal's clean-up releases the lock; a lock PUT still on its way then landed
 * after it and stayed, naming a process that had exited. This host's next run takes such a lock over,
 * but a run on another host (the next pod of a CronJob) was refused for the whole lease, ten minutes.
 * The store's front holds the lock's PUT until the clean-up has begun, so the order is certain.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliWithProcess, standInProcess } from './harness.js';
import { localS3, passOn, storeFront, type LocalS3 } from './s3-server.js';

let s3: LocalS3;
let client: S3Client;
beforeAll(async () => {
  s3 = await localS3('lake');
  client = new S3Client({ region: 'us-east-1', endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
});

async function keys(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }));
  return (listed.Contents ?? []).map((object) => object.Key!.slice(prefix.length + 1)).sort();
}

describe('sync s3:// stopped by a signal before it opened the lake', () => {
  it('takes no lock afterwards', async () => {
    const { proc, exit } = standInProcess();
    // SIGTERM as soon as the run listens for it: before the sync knows its lake, so its clean-up has
    // none to close. The stand-in never exits, so the run goes on, as a real one does until its exit.
    const listen = proc.once.bind(proc);
    proc.once = (event: string | symbol, listener: (...args: unknown[]) => void) => {
      listen(event, listener);
      if (event === 'SIGTERM') queueMicrotask(() => proc.emit('SIGTERM', 'SIGTERM'));
      return proc;
    };
    const saved = { ...process.env };
    // In this process the AWS SDK reads AWS's variables from the real environment.
    Object.assign(process.env, s3.env);
    const sent = s3.requests.length;
    try {
      await runCliWithProcess(['sync', 's3://lake/stopped-at-once', '--streams', 'rankings', '--depth', '2', '--retries', '0'], proc, {
        // Nothing answers there: the run must not get as far as asking.
        env: { ...s3.env, NEWSSTATS_BASE_URL: 'http://127.0.0.1:9', NEWSSTATS_API_KEY: 'k' },
      });
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    // The clean-up's exit, awaited: under load the run itself may end first.
    expect(await exit).toBe(143);
    expect(s3.requests.slice(sent).filter((request) => request.includes('stopped-at-once/_newsstats_sync.lock'))).toEqual([]);
    expect(await keys('stopped-at-once')).toEqual([]);
  });
});

/**
 * A front of the store that holds each request of `method` (a PUT unless said) whose path matches
 * until `release()`: `arrived` says the first is there, unanswered. The rest passes through.
 */
async function holdingPut(path: RegExp, method = 'PUT'): Promise<{ front: Awaited<ReturnType<typeof storeFront>>; arrived: Promise<void>; release: () => void }> {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const front = await storeFront(s3.url, (request, response) => {
    if (request.method !== method || !path.test(request.url ?? '')) return false;
    arrive();
    void released.then(() => passOn(s3.url, request, response));
    return true;
  });
  return { front, arrived, release };
}

describe('an s3:// lake closed while its lock is being taken', () => {
  it('is left without a lock, whether the lock PUT was on its way or not yet sent', async () => {
    // The lock's PUT, held until the test lets it through to the store.
    const { front, arrived: lockArrived, release } = await holdingPut(/_newsstats_sync\.lock/);
    const { S3Lake } = await import('../../src/sync/destinations/s3.js');
    const saved = { ...process.env };
    Object.assign(process.env, s3.env, { AWS_ENDPOINT_URL_S3: front.url });
    try {
      // On its way: the clean-up begins while the store has the PUT and has not answered.
      const onItsWay = S3Lake.fromAddress('s3://lake/stopped-locking');
      const opening = onItsWay.open().then(() => 'opened', (error: unknown) => `refused: ${String(error)}`);
      await lockArrived;
      const closing = onItsWay.close();
      release();
      await Promise.all([opening, closing]);
      expect(await keys('stopped-locking')).toEqual([]);

      // Not yet sent: a lake closed before its opening took the lock takes none afterwards.
      const notYet = S3Lake.fromAddress('s3://lake/stopped-early');
      const early = notYet.open().then(() => 'opened', (error: unknown) => `refused: ${String(error)}`);
      await notYet.close();
      expect(await early).toMatch(/^refused: .*stopped while it took the lake's lock/);
      await notYet.close();
      expect(await keys('stopped-early')).toEqual([]);

      // Closed before it was opened (a signal before the run opened the lake): opening it takes none.
      const before = S3Lake.fromAddress('s3://lake/stopped-before');
      await before.close();
      await expect(before.open()).rejects.toThrow(/stopped while it took the lake's lock/);
      expect(await keys('stopped-before')).toEqual([]);

      // Opened and closed, it may be opened again.
      const again = S3Lake.fromAddress('s3://lake/opened-again');
      release();
      await again.open();
      await again.close();
      await again.open();
      expect(await keys('opened-again')).toEqual(['_newsstats_sync.lock']);
      await again.close();
      expect(await keys('opened-again')).toEqual([]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await front.close();
    }
  });
});

describe('an s3:// lake closed while its writes are on their way', () => {
  it('releases its lock only once they have landed, and writes nothing after', async () => {
    // A partition's PUT, held until the test lets it through: a signal's clean-up comes meanwhile.
    const { front, arrived: partArrived, release } = await holdingPut(/part-0\.parquet/);
    const { S3Lake } = await import('../../src/sync/destinations/s3.js');
    const saved = { ...process.env };
    Object.assign(process.env, s3.env, { AWS_ENDPOINT_URL_S3: front.url });
    const sent = s3.requests.length;
    try {
      const lake = S3Lake.fromAddress('s3://lake/writes-on-their-way');
      await lake.open();
      const writing = lake.write('rankings/week=202601/part-0.parquet', [Buffer.from('PAR1')]);
      await partArrived;
      const closing = lake.close();
      release();
      await Promise.all([writing, closing]);
      // In the store's order of arrival: the lock (and the probe of the store's conditional writes,
      // refused), the partition, then the lock's release.
      const order = s3.requests.slice(sent).filter((request) => /writes-on-their-way\/(rankings|_newsstats_sync\.lock)/.test(request) && !request.startsWith('HEAD'));
      expect(order.map((request) => request.replace(/\?.*$/, ''))).toEqual([
        'PUT /lake/writes-on-their-way/_newsstats_sync.lock',
        'PUT /lake/writes-on-their-way/_newsstats_sync.lock',
        'PUT /lake/writes-on-their-way/rankings/week%3D202601/part-0.parquet',
        'DELETE /lake/writes-on-their-way/_newsstats_sync.lock',
      ]);
      await expect(lake.write('rankings/week=202602/part-0.parquet', [Buffer.from('PAR1')])).rejects.toThrow(/lock released: nothing more is written/);
      expect(await keys('writes-on-their-way')).toEqual(['rankings/week=202601/part-0.parquet']);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await front.close();
    }
  });
});

describe('an s3:// lake closed again while its lock is being released', () => {
  it('ends that second close only once the lock is gone', async () => {
    // The run's own close at its end asks whether the lock is still its own (a HEAD), held here, when
    // a SIGTERM's clean-up closes the lake too. That second close returned at once, the clean-up's
    // exit came before the lock's DELETE was sent, and the lock stayed: a run on another host was
    // refused until its lease ran out, ten minutes.
    const { front, arrived: headArrived, release } = await holdingPut(/_newsstats_sync\.lock/, 'HEAD');
    const { S3Lake } = await import('../../src/sync/destinations/s3.js');
    const saved = { ...process.env };
    Object.assign(process.env, s3.env, { AWS_ENDPOINT_URL_S3: front.url });
    try {
      const lake = S3Lake.fromAddress('s3://lake/closed-twice');
      await lake.open();
      const first = lake.close();
      await headArrived;
      // What the store holds at the moment the second close says it is done.
      const second = lake.close().then(() => keys('closed-twice'));
      release();
      await first;
      expect(await second).toEqual([]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await front.close();
    }
  });
});
