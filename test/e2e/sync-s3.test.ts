/**
 * A lake in object storage (#33 item 1): `sync s3://bucket/prefix` against a local S3-compatible store
 * (s3rver from npm, on 127.0.0.1 port 0), configured only by AWS's own variables. The objects are the
 * same files a local lake holds, byte for byte, and DuckDB reads them whole; a second run asks nothing;
 * a lake another run holds is refused; unknown schemes are refused in one line.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { duckRows, sqlText } from '../duckdb.js';
import { readLog, runCli, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { files as localFiles } from './lake-fixture.js';
import { localS3, type LocalS3 } from './s3-server.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const SMALL = ['--since', String(addWeeks(LAST, -1)), '--depth', '5', '--top', '2', '--links-limit', '3'];

let server: RunningSandbox;
let s3: LocalS3;
let env: Record<string, string>;
let log: string;
let client: S3Client;
beforeAll(async () => {
  log = join(tempDir('newsstats-log-'), 'requests.jsonl');
  server = await sandbox({ now: NOW, logFile: log });
  s3 = await localS3('lake');
  env = { ...sandboxEnv(server), ...s3.env };
  client = new S3Client({ region: 'us-east-1', endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
  await server?.close();
});

/** Every object under a prefix, downloaded into a folder by its key less the prefix. */
async function download(prefix: string): Promise<{ dir: string; files: Map<string, Buffer> }> {
  const dir = tempDir();
  const files = new Map<string, Buffer>();
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }));
  for (const object of listed.Contents ?? []) {
    const name = object.Key!.slice(prefix.length + 1);
    const body = Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: 'lake', Key: object.Key }))).Body!.transformToByteArray());
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
    files.set(name, body);
  }
  return { dir, files };
}

describe('sync to object storage', () => {
  it('writes the same lake as a local sync, read whole by DuckDB; a second run asks nothing', async () => {
    // A process of its own: the AWS SDK reads AWS's variables from the real environment.
    const remote = await spawnCli(['sync', 's3://lake/team/newsstats', ...SMALL], { env });
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stderr).toMatch(/^sync: wrote \d+ partitions .* s3:\/\/lake\/team\/newsstats$/m);
    const local = join(tempDir(), 'lake');
    const result = await runCli(['sync', local, ...SMALL], { env });
    expect(result.code, result.stderr).toBe(0);

    const { dir, files } = await download('team/newsstats');
    const want = localFiles(local);
    const parquet = (map: Map<string, Buffer>) => [...map.keys()].filter((key) => !key.startsWith('_newsstats_sync')).sort();
    expect(parquet(files)).toEqual(parquet(want));
    for (const key of parquet(want)) expect(files.get(key)!.equals(want.get(key)!), key).toBe(true);
    expect(files.has('_newsstats_sync.lock')).toBe(false);
    const streams = await duckRows(`SELECT DISTINCT regexp_extract(filename, '/([a-z_]+)/week=', 1) AS stream FROM read_parquet(${sqlText(join(dir, '**', '*.parquet'))}, hive_partitioning = true, union_by_name = true, filename = true) ORDER BY stream`);
    expect(streams.map((row) => row.stream)).toEqual(['countries', 'country_stats', 'links', 'people', 'rankings', 'sources']);

    const before = (await readLog(log)).length;
    const again = await spawnCli(['sync', 's3://lake/team/newsstats', ...SMALL], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^sync: up to date, 0 requests, /m);
    expect((await readLog(log)).length).toBe(before);
  });

  it('a lake another run holds (its lease not out) is refused in one line; an expired lease is taken over', async () => {
    const until = new Date(Date.now() + 60_000).toISOString();
    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: 'held/_newsstats_sync.lock', Body: JSON.stringify({ pid: 4242, host: 'elsewhere', since: '2026-11-27T10:00:00.000Z', until }) }));
    const held = await spawnCli(['sync', 's3://lake/held', ...SMALL, '--streams', 'rankings'], { env });
    expect(held.code).toBe(6);
    expect(held.stderr.trim()).toMatch(/^error: cannot write to s3:\/\/lake\/held: it is being synced by process 4242 on elsewhere since .*; wait for it to end, or delete s3:\/\/lake\/held\/_newsstats_sync\.lock if no sync is running/);

    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: 'stale/_newsstats_sync.lock', Body: JSON.stringify({ pid: 4242, host: 'elsewhere', since: '2026-11-27T10:00:00.000Z', until: '2026-11-27T10:10:00.000Z' }) }));
    // Last written 11 minutes ago by the store's clock too: no renewal within the lease.
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    utimesSync(s3.objectFile('stale/_newsstats_sync.lock'), elevenMinutesAgo, elevenMinutesAgo);
    const stale = await spawnCli(['sync', 's3://lake/stale', ...SMALL, '--streams', 'rankings'], { env });
    expect(stale.code, stale.stderr).toBe(0);
  });

  it("a live run's lock is kept though its host's clock runs behind ours by more than the lease: the store's clock saw it renewed", async () => {
    // Written just now (the store's Last-Modified), its end by a clock 20 minutes behind: already past by ours.
    const behind = (minutes: number) => new Date(Date.now() - 20 * 60_000 + minutes * 60_000).toISOString();
    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: 'skewed/_newsstats_sync.lock', Body: JSON.stringify({ pid: 4242, host: 'elsewhere', since: behind(0), until: behind(10) }) }));
    const refused = await spawnCli(['sync', 's3://lake/skewed', ...SMALL, '--streams', 'rankings'], { env });
    expect(refused.code, refused.stderr).toBe(6);
    expect(refused.stderr.trim()).toMatch(/it is being synced by process 4242 on elsewhere since /);
  });

  it('a state changed by another run meanwhile is never overwritten (a conditional write)', async () => {
    const first = await spawnCli(['sync', 's3://lake/raced', ...SMALL, '--streams', 'rankings'], { env });
    expect(first.code, first.stderr).toBe(0);
    // Two runs without the lock between them would both read this state: the slower one's write must fail.
    const { S3Lake } = await import('../../src/sync/destinations/s3.js');
    const saved = { ...process.env };
    Object.assign(process.env, s3.env);
    try {
    const one = S3Lake.fromAddress('s3://lake/raced');
    const two = S3Lake.fromAddress('s3://lake/raced');
    await one.open();
    const text = (await one.readState())!;
    await one.close();
    await two.open();
    expect(await two.readState()).toBe(text);
    await two.writeState(text.replace('"version": 2', '"version": 2 '));
    await two.close();
    await one.open();
      await expect(one.writeState(text)).rejects.toThrow(/another sync changed it meanwhile/);
      await one.close();
    } finally {
      for (const key of Object.keys(s3.env)) if (saved[key] === undefined) delete process.env[key];
    }
  });

  it('a lock or state PUT that landed while its answer was lost (sent again by the SDK) is taken as this run\'s own', async () => {
    // In front of the store: the first PUT of the lock and of the state reach it, and the connection
    // is reset before their answers, as a flaky network does; the SDK sends them again.
    const upstream = new URL(s3.url);
    const lost = new Set<string>();
    const front = createServer((request, response) => {
      const key = request.url!.split('?')[0]!;
      const loseAnswer = request.method === 'PUT' && /_newsstats_sync\.(lock|json)$/.test(key) && !lost.has(key);
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
        if (loseAnswer) {
          lost.add(key);
          answer.resume();
          answer.on('end', () => request.socket.destroy());
          return;
        }
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      forward.on('error', () => response.destroy());
      request.pipe(forward);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const result = await spawnCli(['sync', 's3://lake/answer-lost', ...SMALL, '--streams', 'rankings'], { env: { ...env, AWS_ENDPOINT_URL_S3: url } });
      expect(result.code, result.stderr).toBe(0);
      expect([...lost].sort()).toEqual(['/lake/answer-lost/_newsstats_sync.json', '/lake/answer-lost/_newsstats_sync.lock']);
      const state = await client.send(new GetObjectCommand({ Bucket: 'lake', Key: 'answer-lost/_newsstats_sync.json' }));
      expect(JSON.parse(await state.Body!.transformToString()).streams.rankings.weeks.length).toBeGreaterThan(0);
    } finally {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    }
  });

  it('a read the store refuses is said as a read (--plan only reads): one line, exit 6, no secret', async () => {
    const { AWS_ACCESS_KEY_ID: _id, AWS_SECRET_ACCESS_KEY: _secret, ...noKeys } = env;
    const result = await spawnCli(['sync', 's3://lake/unread', ...SMALL, '--plan'], { env: { ...noKeys, AWS_SESSION_TOKEN: 'lone-session-token-secret' } });
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr.trim()).toMatch(/^error: cannot read s3:\/\/lake\/unread\/_newsstats_sync\.json: CredentialsProviderError: [^\n]+$/);
    expect(result.stderr + result.stdout).not.toContain('lone-session-token-secret');
  });

  it('reaches the store through HTTP_PROXY as the AWS CLI does (a CONNECT tunnel, its credentials never shown)', async () => {
    // A proxy that tunnels every CONNECT to the local store: the endpoint's name is resolved by no one
    // but the proxy, so a request that went direct fails (ENOTFOUND).
    const upstream = new URL(s3.url);
    const tunnels: string[] = [];
    const proxy = createServer((_request, response) => response.writeHead(405).end());
    proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(`${request.url} ${request.headers['proxy-authorization'] ?? ''}`);
      const store = connect(Number(upstream.port), upstream.hostname, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        store.write(head);
        store.pipe(client).on('error', () => store.destroy());
        client.pipe(store).on('error', () => client.destroy());
      });
      store.on('error', () => client.destroy());
      client.on('error', () => store.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as AddressInfo).port;
      const from = s3.requests.length;
      // s3rver takes a request to s3.amazonaws.com as path-style (its own service endpoint).
      const result = await spawnCli(['sync', 's3://lake/proxied', ...SMALL, '--streams', 'countries'], {
        env: { ...env, AWS_ENDPOINT_URL_S3: 'http://s3.amazonaws.com', HTTP_PROXY: `http://team:proxy-password-secret@127.0.0.1:${port}` },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(tunnels[0]).toBe(`s3.amazonaws.com:80 Basic ${Buffer.from('team:proxy-password-secret').toString('base64')}`);
      expect(s3.requests.slice(from)).toContain('PUT /lake/proxied/_newsstats_sync.json?x-id=PutObject');
      expect(result.stderr + result.stdout).not.toContain('proxy-password-secret');
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });

  it('the SDK\'s warnings are one line each: AWS_PROFILE beside the key variables (a CI runner\'s keys, a shell\'s profile)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'credentials'), '[data]\naws_access_key_id = S3RVER\naws_secret_access_key = S3RVER\n');
    const result = await spawnCli(['sync', 's3://lake/both-set', ...SMALL, '--streams', 'countries'], {
      env: { ...env, AWS_PROFILE: 'data', AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials') },
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('sync: AWS_PROFILE and AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are both set: the AWS SDK uses the profile (the AWS CLI would use the keys); set only one');
    expect(lines[1]).toMatch(/^sync: wrote 1 partition /);
  });

  it('a store that stops answering ends the run in one line (exit 6) after --timeout, never hangs a cron job', async () => {
    // Accepts the connection and every request, answers none: a stalled endpoint or a half-open socket.
    const held: Socket[] = [];
    const stalled = createServer(() => undefined);
    stalled.on('connection', (socket) => held.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
      const result = await spawnCli(['sync', 's3://lake/stalled', ...SMALL, '--streams', 'rankings', '--timeout', '1'], { env: { ...env, AWS_ENDPOINT_URL_S3: url, AWS_MAX_ATTEMPTS: '1' } });
      expect(result.code, result.stderr).toBe(6);
      expect(result.stderr.trim()).toBe('error: cannot write to s3://lake/stalled/_newsstats_sync.lock: TimeoutError: the store sent nothing for 1 s (--timeout)');
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => stalled.close(() => resolve()));
    }
  });

  it('finds its region as the AWS CLI does: AWS_REGION, else AWS_DEFAULT_REGION, else the profile, else us-east-1', async () => {
    const { AWS_REGION: _region, ...noRegion } = env;
    const config = join(tempDir(), 'config');
    writeFileSync(config, '[default]\nregion = ap-south-1\n');
    const cases: [string, Record<string, string>, string][] = [
      ['both', { ...env, AWS_DEFAULT_REGION: 'eu-west-3' }, 'us-east-1'],
      ['default-region', { ...noRegion, AWS_DEFAULT_REGION: 'eu-west-3', AWS_CONFIG_FILE: config }, 'eu-west-3'],
      ['profile-region', { ...noRegion, AWS_CONFIG_FILE: config }, 'ap-south-1'],
      // A MinIO endpoint with keys and no region anywhere, as MinIO's guides set it up.
      ['no-region', noRegion, 'us-east-1'],
    ];
    for (const [name, caseEnv, region] of cases) {
      const from = s3.regions.length;
      const result = await spawnCli(['sync', `s3://lake/${name}`, ...SMALL, '--streams', 'countries'], { env: caseEnv });
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      expect(new Set(s3.regions.slice(from)), name).toEqual(new Set([region]));
    }
  });

  it('an endpoint named by host (localhost, a compose service) is addressed path-style, as the AWS CLI does', async () => {
    const byName = s3.url.replace('127.0.0.1', 'localhost');
    const config = join(tempDir(), 'config');
    writeFileSync(config, `[default]\nservices = local\n\n[services local]\ns3 =\n  endpoint_url = ${byName}\n`);
    const { AWS_ENDPOINT_URL_S3: _endpoint, ...noEndpoint } = env;
    const cases: [string, Record<string, string>][] = [
      ['named-by-env', { ...env, AWS_ENDPOINT_URL_S3: byName }],
      ['named-by-config', { ...noEndpoint, AWS_CONFIG_FILE: config }],
    ];
    for (const [name, caseEnv] of cases) {
      const from = s3.requests.length;
      const result = await spawnCli(['sync', `s3://lake/${name}`, ...SMALL, '--streams', 'countries'], { env: caseEnv });
      expect(result.code, `${name}: ${result.stderr}`).toBe(0);
      const paths = s3.requests.slice(from).map((request) => request.split(' ')[1]!);
      expect(paths.length, name).toBeGreaterThan(0);
      // Its own objects, the bucket's listing, and the state a lake above it would have (a lake is never
      // inside another): each with the bucket in the path.
      for (const path of paths) expect(path, name).toMatch(new RegExp(`^/lake/(${name}/|_newsstats_sync\\.json$|\\?)`));
    }
  });

  it('unknown schemes are refused in one line, and nothing named after them is created', async () => {
    const cwd = tempDir();
    for (const address of ['gs://bucket/lake', 'abfs://container@account.dfs.core.windows.net/lake', 'file:///tmp/lake']) {
      const result = await runCli(['sync', address, ...SMALL], { env, cwd });
      expect(result.code, address).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/is not a destination sync writes to; give a local folder or s3:\/\/bucket\/prefix/);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an address missing a slash (s3:/bucket/lake, s3:bucket, gs:/bucket) is refused in one line, not made a local folder; ./ makes it one', async () => {
    const cwd = tempDir();
    for (const [address, said] of [
      ['s3:/lake/x', /^error: s3:\/lake\/x: an object store is written s3:\/\/bucket\/prefix, two slashes after s3:; for a local folder of that name, write \.\/s3:\/lake\/x$/],
      ['s3:lake', /an object store is written s3:\/\/bucket\/prefix/],
      ['S3:/lake', /an object store is written s3:\/\/bucket\/prefix/],
      ['gs:/bucket/lake', /^error: gs:\/bucket\/lake: gs: is not a destination sync writes to; give a local folder or s3:\/\/bucket\/prefix; for a local folder of that name, write \.\/gs:\/bucket\/lake$/],
    ] as const) {
      const result = await runCli(['sync', address, ...SMALL], { env, cwd });
      expect(result.code, address).toBe(2);
      expect(result.stderr.trim(), address).toMatch(said);
      expect(result.stderr.trim().split('\n'), address).toHaveLength(1);
    }
    expect(readdirSync(cwd)).toEqual([]);
    // A folder whose name has a colon is still one: written ./ first, or not an address's scheme.
    for (const folder of ['./s3:lake', 'backup:2026']) {
      const result = await runCli(['sync', folder, ...SMALL, '--plan'], { env, cwd });
      expect(result.code, `${folder}: ${result.stderr}`).toBe(0);
    }
  });

  it('an address no reader could glob, with a line break, a password or an endpoint in it, is refused in one line before anything is sent', async () => {
    const refusals: [string, RegExp][] = [
      ['s3://lake/q?x=1', /the prefix has "\?", which readers take as a glob or a URL's query or fragment/],
      ['s3://lake/a#b', /the prefix has "#"/],
      ['s3://lake/runs/*', /the prefix has "\*"/],
      ['s3://lake/[x]', /the prefix has "\["/],
      ['s3://lake/{a,b}', /the prefix has "\{"/],
      ['s3://lake/one\ntwo', /^error: "s3:\/\/lake\/one\\ntwo": an s3:\/\/ address holds no control character/],
      ['s3://lake:9000/x', /"lake:9000" is no bucket name .*; an endpoint goes in AWS_ENDPOINT_URL_S3/],
      ['s3://analyst:hunter2secret@lake/x', /^error: s3:\/\/…@lake: an s3:\/\/ address names no user or password/],
    ];
    const before = s3.requests.length;
    for (const [address, message] of refusals) {
      const result = await runCli(['sync', address, ...SMALL], { env });
      expect(result.code, address).toBe(2);
      expect(result.stderr.trim().split('\n'), address).toHaveLength(1);
      expect(result.stderr, address).toMatch(message);
      expect(result.stderr + result.stdout, address).not.toContain('hunter2secret');
    }
    expect(s3.requests.length).toBe(before);
  });

  it('a prefix with an empty, "." or ".." part is refused in one line before anything is sent', async () => {
    for (const address of ['s3://lake//b', 's3://lake/c/../d', 's3://lake/./e', 's3://lake/f/..']) {
      const result = await runCli(['sync', address, ...SMALL], { env });
      expect(result.code, address).toBe(2);
      expect(result.stderr.trim().split('\n'), address).toHaveLength(1);
      expect(result.stderr).toMatch(/the prefix has an empty, "\." or "\.\." part/);
    }
    // A trailing slash is no empty part: it names the same lake.
    const { S3Lake } = await import('../../src/sync/destinations/s3.js');
    expect(S3Lake.fromAddress('s3://lake/a/b/').where).toBe('s3://lake/a/b');
  });
});
