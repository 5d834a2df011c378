/**
 * A local S3-compatible store for the object-storage tests: s3rver (npm) on 127.0.0.1 port 0, behind
 * a small front that adds what s3rver predates, S3's conditional writes (If-None-Match: * and If-Match
 * on PUT, answered 412 as S3 does since 2024), by asking s3rver for the object's ETag first. The
 * front serialises PUTs, so its check and the write are one step, as S3's are.
 *
 * s3rver 3.7 answers a streamed PUT before its file is written (it resolves when the body has passed
 * its hash, not when the file stream finished, and it rewrites the file in place), so a GET right
 * after could read a part of it: a lake read "state is not JSON" for 1.7 s under a heavy kill run.
 * The front answers a PUT only once s3rver serves the bytes the PUT's ETag names, as S3 does.
 */
import { mkdtempSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LocalS3 {
  /** The endpoint, as AWS_ENDPOINT_URL_S3 takes it. */
  url: string;
  /** AWS's variables for it, and nothing of newsstats's own. */
  env: Record<string, string>;
  /** Every request's method and path, in arrival order. */
  requests: string[];
  /** The region each request was signed for (its Authorization's credential scope), in arrival order. */
  regions: string[];
  /** The file s3rver keeps an object's bytes in: its mtime is the object's Last-Modified. */
  objectFile(key: string): string;
  close(): Promise<void>;
}

export async function localS3(bucket: string): Promise<LocalS3> {
  // s3rver ships no types: the little of it used here, typed by hand.
  // @ts-expect-error -- no declaration file
  const { default: S3rver } = (await import('s3rver')) as unknown as { default: new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> } };
  const directory = mkdtempSync(join(tmpdir(), 'newsstats-s3-'));
  const store = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const backend = await store.run();
  /** The MD5 of what s3rver serves for this object now, or undefined when it serves none. */
  const servedMd5 = (path: string, headers: IncomingHttpHeaders): Promise<string | undefined> =>
    new Promise((resolve, reject) => {
      const { 'if-none-match': _none, 'if-match': _match, 'content-md5': _md5, ...rest } = headers;
      const get = httpRequest({ host: '127.0.0.1', port: backend.port, method: 'GET', path, headers: { ...rest, 'content-length': '0' } }, (answer) => {
        const hash = createHash('md5');
        answer.on('data', (chunk: Buffer) => hash.update(chunk));
        answer.on('end', () => resolve(answer.statusCode === 200 ? hash.digest('hex') : undefined));
      });
      get.on('error', reject);
      get.end();
    });
  /** Until s3rver serves the bytes a PUT's answer names (2 s at most: another PUT may have replaced them). */
  const landed = async (path: string, headers: IncomingHttpHeaders, etag: string | undefined): Promise<void> => {
    const md5 = etag?.replaceAll('"', '');
    if (md5 === undefined || !/^[0-9a-f]{32}$/.test(md5)) return;
    for (let tries = 0; tries < 400 && (await servedMd5(path, headers)) !== md5; tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const forward = (request: IncomingMessage, body: Buffer, response: ServerResponse, method = request.method): Promise<number> =>
    new Promise((resolve, reject) => {
      const upstream = httpRequest({ host: '127.0.0.1', port: backend.port, method, path: request.url, headers: request.headers }, (answer) => {
        if (response.headersSent || response.writableEnded) {
          answer.resume();
          resolve(answer.statusCode ?? 0);
          return;
        }
        const answerWhenLanded = method === 'PUT' && answer.statusCode === 200 && request.headers['x-amz-copy-source'] === undefined;
        if (!answerWhenLanded) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          answer.on('end', () => resolve(answer.statusCode ?? 0));
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          void landed(request.url!, request.headers, typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined).then(() => {
            if (!response.writableEnded) response.writeHead(200, answer.headers).end(Buffer.concat(chunks));
            resolve(200);
          }, reject);
        });
      });
      upstream.on('error', reject);
      upstream.end(body);
    });
  const etagOf = (request: IncomingMessage): Promise<string | undefined> =>
    new Promise((resolve, reject) => {
      const { 'if-none-match': _none, 'if-match': _match, ...headers } = request.headers;
      const head = httpRequest({ host: '127.0.0.1', port: backend.port, method: 'HEAD', path: request.url, headers: { ...headers, 'content-length': '0' } }, (answer) => {
        answer.resume();
        resolve(answer.statusCode === 200 ? String(answer.headers.etag) : undefined);
      });
      head.on('error', reject);
      head.end();
    });
  const requests: string[] = [];
  const regions: string[] = [];
  let puts = Promise.resolve();
  const front = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    regions.push(/Credential=[^/]+\/\d{8}\/([^/]+)\/s3\//.exec(request.headers.authorization ?? '')?.[1] ?? '');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const noneMatch = request.headers['if-none-match'];
      const match = request.headers['if-match'];
      if (request.method !== 'PUT' || (noneMatch === undefined && match === undefined)) {
        void forward(request, body, response).catch(() => response.destroy());
        return;
      }
      puts = puts.then(async () => {
        const tag = await etagOf(request);
        const refused = (noneMatch === '*' && tag !== undefined) || (match !== undefined && match !== tag);
        if (refused) {
          response.writeHead(412, { 'content-type': 'application/xml' });
          response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>');
          return;
        }
        await forward(request, body, response);
      }).catch(() => {
        response.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    url,
    env: {
      AWS_ENDPOINT_URL_S3: url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_CONFIG_FILE: '/nonexistent/aws-config',
      AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    },
    requests,
    regions,
    // s3rver's file store: <directory>/<bucket>/<key>._S3rver_object (on Linux, the key's path as it is).
    objectFile: (key) => join(directory, bucket, `${key}._S3rver_object`),
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await store.close();
    },
  };
}

/** Passes a request on, as it is, to the server at `url` (on loopback), and its answer back. */
export function passOn(url: string, request: IncomingMessage, response: ServerResponse): void {
  const server = new URL(url);
  const upstream = httpRequest({ host: server.hostname, port: server.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => response.destroy());
  request.pipe(upstream);
}

/**
 * A front of a loopback server (the store, or the service) for tests of one that misbehaves: each
 * request is offered to `intercept` first, which answers it itself (and returns true), or lets it
 * through as it is (passOn).
 */
export async function storeFront(storeUrl: string, intercept: (request: IncomingMessage, response: ServerResponse) => boolean): Promise<{ url: string; close(): Promise<void> }> {
  const front = createServer((request, response) => {
    if (intercept(request, response)) return;
    passOn(storeUrl, request, response);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
