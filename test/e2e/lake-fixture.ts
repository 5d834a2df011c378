/**
 * What the tests of a lake over time share (sync-lake-over-time, sync-lake-kills): a sandbox whose
 * clock is set in the middle of a week W and one a week later, a local S3-compatible store, and ways
 * to read what a lake holds, in a folder or in the store.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf, mondayOf } from '../../src/shared/weeks.js';
import { runCli, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, type LocalS3 } from './s3-server.js';

const DAY = 24 * 3600 * 1000;
/** The partial week: two weeks back, so the local clock has passed it and the sandbox's weeks are believed. */
export const W = addWeeks(isoWeekOf(new Date()), -2);
/** Wednesday noon of W: the sandbox's week W holds half a week's articles. */
const DURING = new Date(mondayOf(W).getTime() + 2.5 * DAY);
/** A week later: W has ended, complete. */
const AFTER = new Date(DURING.getTime() + 7 * DAY);
export const OPTIONS = ['--since', String(addWeeks(W, -1)), '--streams', 'rankings,country_stats,links', '--depth', '6', '--top', '2', '--links-limit', '3'];

export interface LakeServers {
  /** The sandbox in the middle of week W. */
  during: RunningSandbox;
  /** The sandbox a week later. */
  after: RunningSandbox;
  s3: LocalS3;
  client: S3Client;
}

/** Starts the two sandboxes and the store before the file's tests, and stops them after. */
export function useLakeServers(): LakeServers {
  const servers = {} as LakeServers;
  beforeAll(async () => {
    [servers.during, servers.after, servers.s3] = await Promise.all([sandbox({ now: DURING }), sandbox({ now: AFTER }), localS3('lake')]);
    servers.client = new S3Client({ region: 'us-east-1', endpoint: servers.s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  });
  afterAll(async () => {
    servers.client?.destroy();
    await Promise.all([servers.s3?.close(), servers.during?.close(), servers.after?.close()]);
  });
  return servers;
}

/** Every file under `dir` (or its folder `under`), by its path relative to `dir`, with its bytes. */
export function files(dir: string, under = ''): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else found.set(relative(dir, child), readFileSync(child));
    }
  };
  walk(join(dir, under));
  return found;
}

/** How many Parquet files a folder holds (their names only: polled every millisecond). */
export function parquetFiles(dir: string): number {
  let count = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(path, entry.name));
      else if (entry.name.endsWith('.parquet')) count += 1;
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return count;
}

/** Every object under a prefix, downloaded into a folder by its key less the prefix. */
export async function download(servers: LakeServers, prefix: string): Promise<string> {
  const dir = tempDir();
  const listed = await servers.client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }));
  for (const object of listed.Contents ?? []) {
    const body = Buffer.from(await (await servers.client.send(new GetObjectCommand({ Bucket: 'lake', Key: object.Key }))).Body!.transformToByteArray());
    const path = join(dir, object.Key!.slice(prefix.length + 1));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, body);
  }
  return dir;
}

export type State = { streams: Record<string, { weeks?: number[]; partial?: number[]; taken?: Record<string, string> }> };
export const stateOf = (dir: string) => JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as State;

/** A run of sync that must succeed, in a process of its own for object storage (the AWS SDK reads AWS's variables from the real environment). */
export async function sync(servers: LakeServers, lake: string, server: RunningSandbox, options = OPTIONS, ...extra: string[]): Promise<void> {
  const env = { ...sandboxEnv(server), ...servers.s3.env };
  const remote = lake.startsWith('s3://');
  const requestsBefore = servers.s3.requests.length;
  const result = remote ? await spawnCli(['sync', lake, ...options, ...extra], { env }) : await runCli(['sync', lake, ...options, ...extra], { env });
  // A run that failed or was stopped (code null: killed after the harness's 20 s) says what the local
  // store last received, the one clue to a run that waited on it (seen once in a full suite, 2026-11-28).
  const storeSaw = remote ? `; the store received ${servers.s3.requests.length - requestsBefore} requests, the last: ${servers.s3.requests.slice(-8).join(', ')}` : '';
  expect(result.code, `${result.stderr}${result.code === 0 ? '' : storeSaw}`).toBe(0);
}
