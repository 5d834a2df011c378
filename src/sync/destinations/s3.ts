/**
 * A lake in object storage: `s3://bucket/prefix`, on S3 or an S3-compatible store (MinIO, R2, GCS's
 * interoperability endpoint). Through AWS's own SDK (@aws-sdk/client-s3, an optional peer dependency
 * loaded only here: docs/sync.md says why), configured exactly as AWS's tools are, with no setting of
 * ours: AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL, the shared config and
 * credentials files, container and instance metadata.
 *
 * Each file is one PUT, so it is published whole. The state is written with a conditional PUT
 * (If-Match on the ETag read, If-None-Match: * when there was none), so two syncs never clobber each
 * other's state; and one writer per lake: a lock object created with If-None-Match: *, holding a lease
 * the run renews, so a lock left by a crashed run is taken over (conditionally) once its lease is out.
 */
import { randomUUID } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { basename } from 'node:path';
import { HTTP_DEFAULTS } from '../../api/options.js';
import { OutputWriteError } from '../../output/write-error.js';
import { isSystemError, systemErrorReason } from '../../shared/system-error.js';
import { MAX_STATE_BYTES, STATE_FILE } from '../state.js';
import { FilesOnTheirWay, LOCK_FILE, LakeError, MemoryScratch, holdsLake, insideLake, produceBytes, stoppedWhileLocking, writtenAfterRelease, type Chunks, type Destination, type Produce, type Scratch } from './destination.js';
import { holdsLock, processStart, type ProcessHolder } from './lock-holder.js';
import { proxiedAgents } from './s3-proxy.js';
import { privateScratch } from './scratch-file.js';

type S3Module = typeof import('@aws-sdk/client-s3');
type S3Client = import('@aws-sdk/client-s3').S3Client;

/** The version range newsstats is tested with. */
export const S3_SDK = '@aws-sdk/client-s3@3';

export const S3_SDK_MISSING =
  `sync to s3:// needs the AWS SDK's S3 client, which is not installed with newsstats: run \`npm install -g ${S3_SDK}\` ` +
  '(beside a global newsstats; in a project, `npm install @aws-sdk/client-s3`)';

/** How long a lock holds without being renewed: a crashed run's lock is taken over after this. */
export const LEASE_MS = 10 * 60_000;
const RENEW_MS = LEASE_MS / 3;

/**
 * Requests to the store at once (NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS): PUTs of the lake's files, and
 * half as many merge stores read ahead. Sent one after another, a store's latency was most of a sync:
 * the bench's 25 weeks took 14.5 s at 40 ms a request against 1.9 s now (docs/performance.md, "sync",
 * "A store's latency"). 1 is that old way: each file sent once the one before has landed.
 */
const DEFAULT_CONCURRENT_REQUESTS = 16;
/** The bytes the PUTs under way may hold between them (a file larger than that goes alone). */
const MAX_BYTES_IN_FLIGHT = 1024 * 1024;

/** The most NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS may ask: past it, a run only holds more at once. */
const MOST_CONCURRENT_REQUESTS = 64;

/** NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS (unset or empty: the default); anything but 1-64 is refused (exit 2). */
export function concurrentRequests(env: NodeJS.ProcessEnv): number {
  const text = env.NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS?.trim();
  if (text === undefined || text === '') return DEFAULT_CONCURRENT_REQUESTS;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= MOST_CONCURRENT_REQUESTS)) {
    throw new LakeError(`NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS must be a whole number from 1 to ${MOST_CONCURRENT_REQUESTS}, not ${JSON.stringify(env.NEWSSTATS_S3_MAX_CONCURRENT_REQUESTS)}`);
  }
  return value;
}

function isSdkMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && /@aws-sdk\/client-s3/.test((error as Error).message);
}

async function loadSdk(): Promise<S3Module> {
  // On Node 20 the SDK prints a 9-line warning about its releases after January 2027 on every run;
  // stderr carries one line a run (docs/sync.md says which Nodes the SDK supports). Yours wins if set.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  try {
    return await import('@aws-sdk/client-s3');
  } catch (error) {
    if (isSdkMissing(error)) throw new LakeError(S3_SDK_MISSING);
    throw error;
  }
}

/**
 * What AWS's configuration names, read as the AWS CLI reads it where the JS SDK differs.
 *
 * The region: AWS_REGION, else AWS_DEFAULT_REGION, else the profile's `region` (or the instance's,
 * where there is one: the SDK's own chain), else us-east-1, which the AWS CLI and boto3 take for S3.
 * The JS SDK alone reads no AWS_DEFAULT_REGION and, with no region, stops every request with "Region
 * is missing": a cron job set up for the AWS CLI, or a MinIO endpoint with keys and no region (as
 * MinIO's own guides set it up), failed on its first object.
 *
 * Path-style addressing whenever an endpoint is configured (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the
 * profile's `endpoint_url` or its `services` section), as the AWS CLI and boto3 do. The JS SDK does so
 * only for an IP address and otherwise asks `bucket.host`, which no resolver knows for `localhost` or a
 * compose service named `minio` (`getaddrinfo ENOTFOUND lake.minio`, exit 6).
 */
async function configuredFor(sdk: S3Module): Promise<{ region: string; forcePathStyle: boolean }> {
  const probe = new sdk.S3Client({});
  try {
    const region = process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || (await probe.config.region().catch(() => 'us-east-1'));
    // The SDK's own reading of the configured endpoint (undefined for none, or under
    // AWS_IGNORE_CONFIGURED_ENDPOINT_URLS), on its resolved config though not in its types: where a
    // version lacks it, addressing stays the SDK's.
    const configured = (probe.config as { serviceConfiguredEndpoint?: () => Promise<string | undefined> }).serviceConfiguredEndpoint;
    const endpoint = await configured?.().catch(() => undefined);
    return { region, forcePathStyle: endpoint !== undefined && endpoint !== '' };
  } finally {
    probe.destroy();
  }
}

/**
 * A read from the store that failed (the state, the lock, the merge store): exit 6 as a write's
 * failure, said as what it was. `--plan` only reads, and said "cannot write to".
 */
class StoreReadError extends OutputWriteError {
  constructor(target: string, detail: string) {
    super(target, undefined, detail);
    this.message = `cannot read ${target}: ${detail}`;
  }
}

export interface S3LakeOptions {
  timeoutMs?: number;
  warn?: (line: string) => void;
}

/**
 * The SDK's logger, for its warnings only, each said in one line: it prints them with console.warn
 * over many lines otherwise (9 when AWS_PROFILE and the key variables are both set, as a CI runner's
 * keys beside a shell's profile are), where a run's stderr carries one line each.
 */
function oneLineWarnings(warn: (line: string) => void): { trace(): void; debug(): void; info(): void; warn(...parts: unknown[]): void; error(): void } {
  const quiet = () => undefined;
  return {
    trace: quiet,
    debug: quiet,
    info: quiet,
    error: quiet,
    warn: (...parts) => {
      const text = parts.map(String).join(' ');
      warn(/Multiple credential sources detected/.test(text)
        ? 'sync: AWS_PROFILE and AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY are both set: the AWS SDK uses the profile (the AWS CLI would use the keys); set only one'
        : `sync: AWS SDK: ${text.replace(/\s+/g, ' ').trim()}`);
    },
  };
}

interface SdkError {
  name?: string;
  $metadata?: { httpStatusCode?: number };
  message?: string;
}

function status(error: unknown): number | undefined {
  return (error as SdkError | undefined)?.$metadata?.httpStatusCode;
}

function isMissing(error: unknown): boolean {
  const name = (error as SdkError | undefined)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || status(error) === 404;
}

function isPreconditionFailed(error: unknown): boolean {
  return status(error) === 412 || (error as SdkError | undefined)?.name === 'PreconditionFailed';
}

export class S3Lake implements Destination {
  #sdk: S3Module | undefined;
  #client: S3Client | undefined;
  /** The state's ETag as last read or written: the next write is conditional on it. */
  #stateTag: string | undefined;
  #lockTag: string | undefined;
  #renew: NodeJS.Timeout | undefined;

  /** PUTs under way at once; at 1, write() waits for its PUT to land. */
  readonly #maxPuts = concurrentRequests(process.env);
  /**
   * Each read is a round trip: a links merge read its stores one after another, 78 GETs of 11 weeks at
   * 40 ms each, 3.1 s of a 4.9 s sync (docs/performance.md).
   */
  readonly readsAhead = this.#maxPuts === 1 ? 0 : Math.ceil(this.#maxPuts / 2);

  private constructor(readonly where: string, readonly bucket: string, readonly prefix: string, readonly timeoutMs: number, readonly warn: ((line: string) => void) | undefined) {}

  /**
   * `timeoutMs`: how long a request may go without a byte either way (the CLI's `--timeout`). `warn`:
   * where the SDK's warnings go, each as one line (without it, the SDK prints them as it does).
   */
  static fromAddress(address: string, { timeoutMs = HTTP_DEFAULTS.timeoutMs, warn }: S3LakeOptions = {}): S3Lake {
    // Every refusal quotes the address: one with a line break or another control character is shown
    // escaped, so the refusal stays one line.
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f\x7f]/.test(address)) throw new LakeError(`${JSON.stringify(address)}: an s3:// address holds no control character (a line break, a tab)`);
    const match = /^s3:\/\/([^/]+)\/?(.*)$/i.exec(address);
    if (!match || match[1] === '') throw new LakeError(`${address} is not s3://bucket/prefix`);
    const bucket = match[1]!;
    // `s3://user:secret@bucket`: never echoed, as what precedes the @ may be a secret.
    if (bucket.includes('@')) throw new LakeError(`s3://…@${bucket.slice(bucket.lastIndexOf('@') + 1)}: an s3:// address names no user or password; credentials come from AWS's variables and files (docs/sync.md, "Object storage")`);
    // Letters (legacy us-east-1 buckets have capitals), digits, ".", "-" and "_" (GCS), nothing else
    // anywhere: `lake:9000` is an endpoint, which goes in AWS_ENDPOINT_URL_S3.
    if (!/^[A-Za-z0-9._-]+$/.test(bucket)) throw new LakeError(`${address}: "${bucket}" is no bucket name (letters, digits, ".", "-", "_"); an endpoint goes in AWS_ENDPOINT_URL_S3`);
    const prefix = match[2]!.replace(/\/+$/, '');
    // A store keeps `a//b`, `./` and `../` in a key as they are, where Spark, Athena or DuckDB's glob
    // each resolve them their own way (s3rver moved `c/../d` to `d/`; `lake//b` failed with an XML
    // parse error, exit 6): refused before anything is sent.
    if (prefix !== '' && prefix.split('/').some((part) => part === '' || part === '.' || part === '..')) {
      throw new LakeError(`${address}: the prefix has an empty, "." or ".." part, which object stores keep as it is and readers resolve each their own way; name it without`);
    }
    // The lake is read back through its address with a glob after it (`s3://lake/x/**/*.parquet`):
    // DuckDB takes `?` as a glob or the start of a URL's query, `#` ends a URL, and `*`, `[ ]`, `{ }`
    // are glob syntax to DuckDB or Spark, so a lake named with them would be written and never read.
    const glob = /[?#*[\]{}]/.exec(prefix)?.[0];
    if (glob !== undefined) throw new LakeError(`${address}: the prefix has "${glob}", which readers take as a glob or a URL's query or fragment (DuckDB, Spark); name it without`);
    return new S3Lake(`s3://${bucket}${prefix === '' ? '' : `/${prefix}`}`, bucket, prefix, timeoutMs, warn);
  }

  #key(path: string): string {
    return this.prefix === '' ? path : `${this.prefix}/${path}`;
  }

  get #s3(): { sdk: S3Module; client: S3Client } {
    if (!this.#sdk || !this.#client) throw new Error('the lake is not open');
    return { sdk: this.#sdk, client: this.#client };
  }

  /** An SDK failure as one line naming the object (exit 6), or the error as it is when it is ours. */
  #failure(path: string, error: unknown, reading = false, name = `${this.where}/${path}`): unknown {
    if (error instanceof LakeError || error instanceof OutputWriteError) return error;
    // The SDK names a reset (ECONNRESET, "socket hang up") a TimeoutError too: only its own timers' say so.
    const message = (error as SdkError | undefined)?.message ?? String(error);
    const detail = (error as SdkError | undefined)?.name === 'TimeoutError' && /timed out after \d+ ms of inactivity|connection timeout/i.test(message)
      ? `the store sent nothing for ${this.timeoutMs / 1000} s (--timeout)`
      : message;
    const line = `${(error as SdkError | undefined)?.name ?? 'S3'}: ${detail.split('\n')[0]}`;
    return reading ? new StoreReadError(name, line) : new OutputWriteError(name, undefined, line);
  }

  async #connect(): Promise<void> {
    this.#sdk = await loadSdk();
    // Region, endpoint, credentials and retries as AWS's own tools read them: nothing of ours. The SDK
    // sets no timeout of its own, so a store that stops answering (a stalled endpoint, a half-open
    // socket) held a cron job and its lock forever: a connection or a request that goes this long
    // without a byte is a failed attempt, retried as the SDK retries (AWS_MAX_ATTEMPTS), as the AWS
    // CLI's read and connect timeouts do. Idle time, not a deadline: a large upload that moves is never cut.
    this.#client = new this.#sdk.S3Client({
      ...(await configuredFor(this.#sdk)),
      // A bucket in another region than the one named is found as the AWS CLI finds it, by S3's redirect.
      followRegionRedirects: true,
      ...(this.warn !== undefined && { logger: oneLineWarnings(this.warn) }),
      requestHandler: { connectionTimeout: this.timeoutMs, socketTimeout: this.timeoutMs, ...proxiedAgents(process.env, this.timeoutMs) },
    });
  }

  async open(): Promise<void> {
    if (this.#closed) throw stoppedWhileLocking(this.where);
    await this.#connect();
    await this.#lock();
    // After the lock, so a store that fails or stalls is met where it always was, at the lock.
    try {
      await this.#refuseNested();
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /**
   * A lake above this prefix, up to the bucket's root, or in a folder of it (destination.ts,
   * insideLake and holdsLake): a HEAD of each one's state, sent at once, after a listing of the
   * prefix's folders (a request per 1,000). Where the credentials may not list or read there (403),
   * nothing is known, and the run goes on.
   */
  async #refuseNested(): Promise<void> {
    const { sdk, client } = this.#s3;
    const address = (prefix: string) => `s3://${this.bucket}${prefix === '' ? '' : `/${prefix}`}`;
    const hasState = async (prefix: string): Promise<boolean> => {
      const Key = prefix === '' ? STATE_FILE : `${prefix}/${STATE_FILE}`;
      try {
        await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key }));
        return true;
      } catch (error) {
        if (isMissing(error) || status(error) === 403) return false;
        throw this.#failure('', error, true, `${address(prefix)}/${STATE_FILE}`);
      }
    };
    const parts = this.prefix === '' ? [] : this.prefix.split('/');
    const above = parts.map((_, count) => parts.slice(0, count).join('/'));
    const outer = await Promise.all(above.map(hasState));
    const nearest = outer.lastIndexOf(true);
    if (nearest >= 0) throw insideLake(this.where, address(above[nearest]!));
    const folders: string[] = [];
    let token: string | undefined;
    do {
      let page: import('@aws-sdk/client-s3').ListObjectsV2CommandOutput;
      try {
        page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix === '' ? '' : `${this.prefix}/`, Delimiter: '/', ContinuationToken: token }));
      } catch (error) {
        if (status(error) === 403) return;
        throw this.#failure('', error, true);
      }
      for (const folder of page.CommonPrefixes ?? []) if (folder.Prefix !== undefined) folders.push(folder.Prefix.replace(/\/$/, ''));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    const inner = await Promise.all(folders.map(hasState));
    const first = inner.indexOf(true);
    if (first >= 0) throw holdsLake(this.where, address(folders[first]!));
  }

  /**
   * Set by a close() before the lake's lock was taken (a signal's clean-up while the run opens the
   * lake, or before it began to): the lake takes no lock afterwards. A lock taken after the clean-up
   * stayed when the process exited, naming it, and a run on another host was refused until its lease
   * ran out. A lake closed after it was opened may be opened again.
   */
  #closed = false;

  /** The lock's ETag while it is being taken: close() waits for it, so a PUT on its way is removed too. */
  #locking: Promise<string | undefined> | undefined;

  #start: string | undefined;

  /** This opening of the lake, in its lock: a lock that names it is this run's own. */
  readonly #run = randomUUID();

  #lockBody(): string {
    return JSON.stringify({ run: this.#run, pid: process.pid, ...(this.#start !== undefined && { start: this.#start }), host: hostname(), since: new Date().toISOString(), until: new Date(Date.now() + LEASE_MS).toISOString() }) + '\n';
  }

  /**
   * A conditional PUT's ETag. 409 (ConditionalRequestConflict: another conditional write to the key
   * under way) is tried again, as S3 asks; the SDK does not. A 412 is thrown as it is, for the caller.
   */
  async #putConditionally(input: import('@aws-sdk/client-s3').PutObjectCommandInput): Promise<string | undefined> {
    const { sdk, client } = this.#s3;
    for (let attempt = 1; ; attempt += 1) {
      try {
        return (await client.send(new sdk.PutObjectCommand(input))).ETag;
      } catch (error) {
        if (status(error) !== 409 || attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  async #lock(): Promise<void> {
    this.#start = await processStart('self');
    if (this.#closed) throw stoppedWhileLocking(this.where);
    const key = this.#key(LOCK_FILE);
    // The probe inside #locking: close() waits for it, and removes the lock whatever ETag it left.
    this.#locking = this.#takeLock(key).then(async (tag) => (await this.#probeConditionalWrites(key)) ?? tag);
    const tag = await this.#locking;
    // Closed meanwhile: close() has the lock from #locking and removes it.
    if (this.#closed) throw stoppedWhileLocking(this.where);
    this.#locking = undefined;
    this.#lockTag = tag;
    this.#released = false;
    this.#renew = setInterval(() => void this.#renewLease(), RENEW_MS);
    this.#renew.unref();
  }

  /**
   * Whether a lock's lease still holds. The holder writes its end by its own clock, and a host whose
   * clock ran behind this one's by more than the lease (a container without NTP) had a live run's lock
   * taken. So the lease holds while the holder's end is ahead of this clock, or while the store's own
   * clock has not passed the lease since the lock was last written (its Last-Modified, against the
   * store's time as the SDK reads it from each answer's Date): either clock alone keeps a live run's.
   */
  #leaseLasts(holder: Holder, modified: Date | undefined): boolean {
    if (Date.parse(holder.until) > Date.now()) return true;
    if (modified === undefined) return false;
    const offset = (this.#s3.client.config as { systemClockOffset?: number }).systemClockOffset ?? 0;
    return modified.getTime() + LEASE_MS > Date.now() + offset;
  }

  /** Creates the lock, or takes over a crashed run's: its ETag. */
  async #takeLock(Key: string): Promise<string | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#putConditionally({ Bucket: this.bucket, Key, Body: this.#lockBody(), IfNoneMatch: '*' });
      } catch (error) {
        if (!isPreconditionFailed(error)) throw this.#failure(LOCK_FILE, error);
      }
      const held = await this.#get(LOCK_FILE, MAX_STATE_BYTES);
      // Gone between the refusal and the read: released by a run that ended just then (it said NoSuchKey).
      if (held === undefined) {
        if (attempt < 3) continue;
        throw new OutputWriteError(this.where, undefined, 'other syncs took and released its lock while this one tried to take it; run again');
      }
      const holder = parseHolder(held.bytes.toString('utf8'));
      // A lock this run holds already is its own PUT that landed while its answer was lost (a reset
      // connection, a timeout), which the SDK then sent again: this run refused itself, exit 6.
      if (holder?.run === this.#run) return held.tag;
      // A run killed on this host (its process gone) is not waited for; one elsewhere, until its lease ends.
      if (holder !== undefined && this.#leaseLasts(holder, held.modified) && (await holdsLock(holder))) {
        throw new OutputWriteError(this.where, undefined, `it is being synced by process ${holder.pid} on ${holder.host} since ${holder.since}; wait for it to end, or delete ${this.where}/${LOCK_FILE} if no sync is running (its lease ends ${holder.until})`);
      }
      // A lease run out, or a holder gone: a crashed run's. Taken over only if nobody else took it first.
      try {
        return await this.#putConditionally({ Bucket: this.bucket, Key, Body: this.#lockBody(), IfMatch: held.tag });
      } catch (failure) {
        if (!isPreconditionFailed(failure)) throw this.#failure(LOCK_FILE, failure);
        // Another sync's takeover, or this run's own that landed with its answer lost: read again, the lock tells.
        if (attempt === 3) throw new OutputWriteError(this.where, undefined, 'another sync took its lock just now; wait for it to end');
      }
    }
  }

  /**
   * Whether the store honours conditional writes, asked once the lock is this run's: S3, MinIO and R2
   * refuse a second `If-None-Match: *` PUT of an object that exists (412). A store that accepts it
   * ignores the conditions that keep two syncs of a lake apart (s3rver does, and some S3-compatible
   * stores do): the run goes on, as it would have, and says so in one line. The probe's body is this
   * run's lock, so where it lands it changes only the lease's times; its ETag is then the lock's.
   * One request more a run (docs/sync.md, "Object storage").
   */
  async #probeConditionalWrites(Key: string): Promise<string | undefined> {
    let tag: string | undefined;
    try {
      tag = await this.#putConditionally({ Bucket: this.bucket, Key, Body: this.#lockBody(), IfNoneMatch: '*' });
    } catch {
      // Refused as it should be; any other failure says nothing of the store's conditions, and the
      // lock is this run's either way.
      return undefined;
    }
    this.warn?.(`sync: ${this.where}: the store ignores conditional writes (it accepted If-None-Match: * for ${LOCK_FILE}, which exists), so it cannot keep two syncs of this lake from overwriting each other's files: run one at a time`);
    return tag;
  }

  async #renewLease(): Promise<void> {
    try {
      // Counted as a write: close() waits for a renewal on its way, whose ETag is then the one to remove.
      await this.#sendWhileLocked(LOCK_FILE, async () => {
        this.#lockTag = await this.#putConditionally({ Bucket: this.bucket, Key: this.#key(LOCK_FILE), Body: this.#lockBody(), IfMatch: this.#lockTag });
      });
    } catch (error) {
      // Lost the lock (taken over after a stall): the state's conditional write still guards it. Unless
      // the renewal landed with its answer lost: then the lock is still this run's, to remove at its end.
      if (!isPreconditionFailed(error)) return;
      const held = await this.#get(LOCK_FILE, MAX_STATE_BYTES).catch(() => undefined);
      if (held !== undefined && parseHolder(held.bytes.toString('utf8'))?.run === this.#run) this.#lockTag = held.tag;
    }
  }

  /**
   * PUTs under way, and whether the lake was closed since its lock was taken: the lock is released only
   * once every write on its way has landed or failed, and none is sent after, as a folder's run does.
   * A signal's clean-up released it while the run's PUTs were still on their way, and they landed
   * after it, where a sync that took the lock meanwhile had its merge store, index or partition
   * replaced by the stopped run's.
   */
  readonly #writing = new Set<Promise<void>>();
  #released = false;

  /** A PUT sent while the lake holds its lock (refused once it is closed), counted until it settles. */
  async #sendWhileLocked<T>(path: string, send: () => Promise<T>): Promise<T> {
    if (this.#released) throw writtenAfterRelease(`${this.where}/${path}`);
    const sending = send();
    const settled = sending.then(() => undefined, () => undefined);
    this.#writing.add(settled);
    try {
      return await sending;
    } finally {
      this.#writing.delete(settled);
    }
  }

  /** A close() under way: another close() meanwhile ends with it. */
  #closing: Promise<void> | undefined;

  /**
   * A close() while another is under way (a signal's clean-up while the run's own end releases the
   * lock) waits for that one: it returned at once, the clean-up's exit came before the lock's DELETE
   * was sent, and the lock stayed, refusing a run on another host for the whole lease.
   */
  close(): Promise<void> {
    this.#closing ??= this.#release().finally(() => {
      this.#closing = undefined;
    });
    return this.#closing;
  }

  async #release(): Promise<void> {
    if (this.#lockTag === undefined) this.#closed = true;
    this.#released = true;
    if (this.#renew) clearInterval(this.#renew);
    this.#renew = undefined;
    // The writes on their way land (or fail) first, one --timeout at most: none lands after the lock is gone.
    if (this.#writing.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(this.#writing), new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timeoutMs)))]);
      clearTimeout(timer);
    }
    // A lock still being taken (a signal's clean-up while the run opens the lake) is waited for, one
    // --timeout at most, and removed as a taken one is.
    const locking = this.#locking;
    this.#locking = undefined;
    const lockTag = this.#lockTag ?? (await locking?.catch(() => undefined));
    this.#lockTag = undefined;
    if (lockTag === undefined || !this.#client) return;
    const { sdk, client } = this.#s3;
    const Key = this.#key(LOCK_FILE);
    // One --timeout for both, not the SDK's retries of each: a run ending on SIGTERM must end, and a
    // lock left behind is taken over by the next run (at once on this host, else once its lease is out).
    const abortSignal = AbortSignal.timeout(this.timeoutMs);
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key }), { abortSignal });
      if (head.ETag === lockTag) await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key }), { abortSignal });
    } catch {
      // Gone already, or unreachable: its lease runs out.
    }
  }

  /**
   * An object's bytes and ETag, or undefined when it is absent. The SDK retries a GET only until its
   * answer's headers: a connection cut while the body came (`Error: aborted`) stopped the run at
   * once, so the GET is sent again, as many times as the SDK's attempts (AWS_MAX_ATTEMPTS).
   */
  async #get(path: string, limit: number): Promise<{ bytes: Buffer; tag: string | undefined; modified: Date | undefined } | undefined> {
    const { sdk, client } = this.#s3;
    const attempts = await client.config.maxAttempts().catch(() => 3);
    for (let attempt = 1; ; attempt += 1) {
      let answer: import('@aws-sdk/client-s3').GetObjectCommandOutput;
      try {
        answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.#key(path) }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw this.#failure(path, error, true);
      }
      if ((answer.ContentLength ?? 0) > limit) throw new LakeError(`${this.where}/${path} is ${answer.ContentLength} bytes, more than a newsstats file there can be (${limit}): remove it`);
      try {
        return { bytes: Buffer.from(await answer.Body!.transformToByteArray()), tag: answer.ETag, modified: answer.LastModified };
      } catch (error) {
        if (attempt >= attempts) throw this.#failure(path, error, true);
      }
    }
  }

  async peekState(): Promise<string | undefined> {
    await this.#connect();
    const state = await this.readState();
    await this.#refuseNested();
    return state;
  }

  async readState(): Promise<string | undefined> {
    const found = await this.#get(STATE_FILE, MAX_STATE_BYTES);
    this.#stateTag = found?.tag;
    return found?.bytes.toString('utf8');
  }

  async writeState(text: string): Promise<void> {
    await this.settle();
    try {
      this.#stateTag = await this.#sendWhileLocked(STATE_FILE, () => this.#putConditionally({
        Bucket: this.bucket,
        Key: this.#key(STATE_FILE),
        Body: text,
        ContentType: 'application/json',
        ...(this.#stateTag === undefined ? { IfNoneMatch: '*' } : { IfMatch: this.#stateTag }),
      }));
    } catch (error) {
      if (!isPreconditionFailed(error)) throw this.#failure(STATE_FILE, error);
      // The state as this run wrote it is this run's own PUT that landed while its answer was lost (a
      // reset connection), which the SDK then sent again, conditional on the ETag it replaced.
      const found = await this.#get(STATE_FILE, MAX_STATE_BYTES);
      if (found === undefined || found.bytes.toString('utf8') !== text) {
        throw new OutputWriteError(`${this.where}/${STATE_FILE}`, undefined, 'another sync changed it meanwhile, so this run stops without overwriting it; run again');
      }
      this.#stateTag = found.tag;
    }
  }

  /**
   * A file of ours in a private folder under the system's temporary folder (an object store has no
   * append, and its objects are no place for scratch bytes). Where none can be made (a read-only
   * container), the bytes stay in memory, as before, said in one line: the run is not refused for it.
   */
  async scratch(path: string): Promise<Scratch> {
    try {
      return await privateScratch(basename(path));
    } catch (error) {
      if (!isSystemError(error)) throw error;
      this.warn?.(`sync: no private folder could be made under ${tmpdir()} (${systemErrorReason(error)}), so the links wait for their merge in memory; set TMPDIR to a writable folder to keep them in a file`);
      return new MemoryScratch();
    }
  }

  /**
   * One listing of the lake (a request per 1,000 objects), not a HEAD per file. Without s3:ListBucket
   * (403) nothing is known missing, and the run trusts its state as before.
   */
  async missing(paths: readonly string[]): Promise<Set<string>> {
    const { sdk, client } = this.#s3;
    const held = new Set<string>();
    const prefix = this.prefix === '' ? '' : `${this.prefix}/`;
    let token: string | undefined;
    do {
      let page: import('@aws-sdk/client-s3').ListObjectsV2CommandOutput;
      try {
        page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      } catch (error) {
        // Credentials allowed to read and write objects but not to list them: nothing is known missing.
        if (status(error) === 403) return new Set();
        throw this.#failure('', error, true);
      }
      for (const object of page.Contents ?? []) if (object.Key !== undefined) held.add(object.Key.slice(prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return new Set(paths.filter((path) => !held.has(path)));
  }

  async read(path: string): Promise<Buffer | undefined> {
    await this.#pending.get(path);
    return (await this.#get(path, 1024 * 1024 * 1024))?.bytes;
  }

  /**
   * Files handed to write() whose PUT has not settled, by path. write() returns once its PUT is sent (or
   * once there is room for it among #maxPuts), as a folder's lake returns once its file is on its way,
   * and writeState awaits them all first: the state never records an object that has not landed. A
   * failure is reported there (exit 6); an object written twice is sent the second time only once the
   * first has landed.
   */
  readonly #pending = new FilesOnTheirWay();
  #putsInFlight = 0;
  #bytesInFlight = 0;
  readonly #waitingForRoom: Array<() => void> = [];

  landing(path: string): Promise<void> | undefined {
    return this.#pending.get(path);
  }

  settle(): Promise<void> {
    return this.#pending.settle();
  }

  async write(path: string, content: Produce | Chunks): Promise<void> {
    if (this.#released) throw writtenAfterRelease(`${this.where}/${path}`);
    await this.#pending.get(path);
    const bytes = await produceBytes(content);
    while (this.#putsInFlight > 0 && (this.#putsInFlight >= this.#maxPuts || this.#bytesInFlight + bytes.length > MAX_BYTES_IN_FLIGHT)) {
      await new Promise<void>((resolve) => this.#waitingForRoom.push(resolve));
    }
    // Closed while it waited: refused here rather than at the next writeState, which never comes.
    if (this.#released) throw writtenAfterRelease(`${this.where}/${path}`);
    this.#putsInFlight += 1;
    this.#bytesInFlight += bytes.length;
    const { sdk, client } = this.#s3;
    const put = this.#sendWhileLocked(path, () => client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: this.#key(path), Body: bytes })));
    const done = put.then(
      () => undefined,
      (error: unknown) => Promise.reject(this.#failure(path, error)),
    ).finally(() => {
      this.#putsInFlight -= 1;
      this.#bytesInFlight -= bytes.length;
      for (const resolve of this.#waitingForRoom.splice(0)) resolve();
    });
    // Reported by the next writeState, or by a read or write of the same object.
    done.catch(() => undefined);
    if (this.#maxPuts > 1) this.#pending.set(path, done);
    else await done;
  }
}

interface Holder extends ProcessHolder {
  run?: string;
  since: string;
  until: string;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.until === 'string' ? { ...(typeof value.run === 'string' && { run: value.run }), pid: Number(value.pid), ...(typeof value.start === 'string' && { start: value.start }), host: String(value.host), since: String(value.since), until: value.until } : undefined;
  } catch {
    return undefined;
  }
}
