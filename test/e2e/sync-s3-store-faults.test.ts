/**
 * A lake in object storage when the store misbehaves (#33 item 1): between the CLI and the local
 * S3-compatible store (s3-server.ts) a front that, for the requests a test names, never answers,
 * answers 409 to a conditional write (ConditionalRequestConflict), drops the connection, cuts it
 * halfway through an object's bytes, or stores a PUT and then drops the connection, so the SDK
 * retries a write that has landed. Real HTTP on
 * 127.0.0.1 port 0 throughout.
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { sandbox, sandboxEnv, spawnCli } from './harness.js';
import { localS3, type LocalS3 } from './s3-server.js';

const LAST = addWeeks(isoWeekOf(new Date()), -1);
const SMALL = ['--since', String(LAST), '--streams', 'rankings,people', '--depth', '3'];

type Fault = 'hang' | 'conflict' | 'store-then-reset' | 'reset' | 'cut-download';
/** A fault for the next request that matches, used once. */
interface Rule {
  method: string;
  key: RegExp;
  fault: Fault;
}

let server: RunningSandbox;
let s3: LocalS3;
let front: Server;
let frontUrl: string;
let rules: Rule[] = [];
const faulted: string[] = [];
let client: S3Client;

function forward(request: IncomingMessage, body: Buffer): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }> {
  const store = new URL(s3.url);
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({ host: store.hostname, port: store.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
    });
    upstream.on('error', reject);
    upstream.end(body);
  });
}

beforeAll(async () => {
  server = await sandbox({ now: new Date() });
  s3 = await localS3('lake');
  client = new S3Client({ region: 'us-east-1', endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  front = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const key = decodeURIComponent(new URL(request.url!, 'http://front').pathname);
      const rule = rules.find((candidate) => candidate.method === request.method && candidate.key.test(key));
      if (rule) {
        rules = rules.filter((candidate) => candidate !== rule);
        faulted.push(`${rule.fault} ${request.method} ${key}`);
      }
      // Never answered: the connection stays open, silent, until the client gives up on it.
      if (rule?.fault === 'hang') return;
      if (rule?.fault === 'reset') {
        request.socket.destroy();
        return;
      }
      if (rule?.fault === 'conflict') {
        response.writeHead(409, { 'content-type': 'application/xml' });
        response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>ConditionalRequestConflict</Code><Message>A conflicting operation occurred. If using PutObject you can retry the request.</Message></Error>');
        return;
      }
      void forward(request, Buffer.concat(chunks)).then((answer) => {
        // Stored, and the answer lost on the way back.
        if (rule?.fault === 'store-then-reset') {
          request.socket.destroy();
          return;
        }
        if (rule?.fault === 'cut-download') {
          response.writeHead(answer.status, answer.headers);
          response.write(answer.body.subarray(0, answer.body.length >> 1));
          setTimeout(() => request.socket.destroy(), 10);
          return;
        }
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      }, () => request.socket.destroy());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});
afterAll(async () => {
  client?.destroy();
  front?.closeAllConnections();
  await new Promise<void>((resolve) => (front ? front.close(() => resolve()) : resolve()));
  await s3?.close();
  await server?.close();
});

function syncThroughFront(prefix: string, extra: string[] = [], env: Record<string, string> = {}) {
  return spawnCli(['sync', `s3://lake/${prefix}`, ...SMALL, ...extra], { env: { ...sandboxEnv(server), ...s3.env, AWS_ENDPOINT_URL_S3: frontUrl, ...env }, timeoutMs: 30_000 });
}

async function keys(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: `${prefix}/` }));
  return (listed.Contents ?? []).map((object) => object.Key!.slice(prefix.length + 1)).sort();
}

describe('sync to object storage when the store misbehaves', () => {
  it('a 409 on a conditional write is tried again; a download cut halfway is asked again; a later run\'s state write whose answer was lost is its own', async () => {
    // S3 answers 409 (ConditionalRequestConflict) while another conditional write to the key is under
    // way, and asks for a retry, which the SDK does not make: the run stopped with exit 6.
    rules = [
      { method: 'PUT', key: /^\/lake\/lost-answer\/_newsstats_sync\.lock$/, fault: 'conflict' },
      { method: 'PUT', key: /^\/lake\/lost-answer\/_newsstats_sync\.json$/, fault: 'conflict' },
    ];
    faulted.length = 0;
    const first = await syncThroughFront('lost-answer');
    expect(first.code, first.stderr).toBe(0);
    expect(faulted).toHaveLength(2);
    expect(await keys('lost-answer')).toEqual(['_newsstats_sync.json', `people/week=${addWeeks(LAST, 1)}/part-0.parquet`, `rankings/week=${LAST}/part-0.parquet`]);
    const state = JSON.parse(await (await client.send(new GetObjectCommand({ Bucket: 'lake', Key: 'lost-answer/_newsstats_sync.json' }))).Body!.transformToString()) as { streams: Record<string, { weeks?: number[] }> };
    expect(state.streams.rankings!.weeks).toEqual([LAST]);

    // The state a later run reads, cut halfway (the SDK retries only until the headers: the run
    // stopped with `Error: aborted`, exit 6); and its If-Match write, landed with its answer lost.
    rules = [
      { method: 'GET', key: /^\/lake\/lost-answer\/_newsstats_sync\.json$/, fault: 'cut-download' },
      { method: 'PUT', key: /^\/lake\/lost-answer\/_newsstats_sync\.json$/, fault: 'store-then-reset' },
    ];
    faulted.length = 0;
    const again = await syncThroughFront('lost-answer', ['--refresh', String(LAST)]);
    expect(again.code, again.stderr).toBe(0);
    expect(faulted).toHaveLength(2);
    expect(await keys('lost-answer')).not.toContain('_newsstats_sync.lock');
  });

  it('a request the store leaves unanswered is dropped after --timeout and retried; a reset is named as one, not as a silence', async () => {
    rules = [{ method: 'PUT', key: /^\/lake\/silent\/rankings\//, fault: 'hang' }];
    faulted.length = 0;
    const once = await syncThroughFront('silent', ['--timeout', '2']);
    expect(once.code, once.stderr).toBe(0);
    expect(faulted).toHaveLength(1);
    expect(await keys('silent')).toContain(`rankings/week=${LAST}/part-0.parquet`);

    // The SDK names a reset a TimeoutError too: it said "the store sent nothing for 30 s (--timeout)".
    rules = [{ method: 'PUT', key: /^\/lake\/reset\/_newsstats_sync\.lock$/, fault: 'reset' }];
    const reset = await syncThroughFront('reset', [], { AWS_MAX_ATTEMPTS: '1' });
    expect(reset.code).toBe(6);
    expect(reset.stderr.trim().split('\n')).toEqual(['error: cannot write to s3://lake/reset/_newsstats_sync.lock: TimeoutError: socket hang up']);
  });
});
