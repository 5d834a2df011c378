/**
 * The request log: one JSON object a line, appended to a file.
 * It records what was asked and how it was answered, never request headers, so the API key that
 * travels in X-Api-Key cannot end up in it; a query value equal to the key is redacted as well,
 * in case a client put the key in the URL by mistake, and so is the key inside a path, a name or a
 * longer value.
 *
 * A regular file is bounded: once it would pass the cap (what it held before counts too), later
 * requests are not logged and `onFull` is told once. A flood of 40,000 requests had grown it to
 * 326 MB; a disk filled by a test server is a failure of its own.
 */
import { createWriteStream, fstatSync, type WriteStream } from 'node:fs';
import type { FaultKind } from './faults.js';

export interface RequestLogEntry {
  /** When the request arrived (real clock, ISO 8601 UTC). */
  time: string;
  method: string;
  /** The path as sent, without the query. */
  path: string;
  /** Query parameters as sent; a repeated name gives an array. */
  query: Record<string, string | string[]>;
  /** null when the connection was dropped without an answer. */
  status: number | null;
  /** Milliseconds from arrival to the end of the answer, 0.1 ms resolution. */
  ms: number;
  /**
   * Requests the sandbox had open when this one arrived, this one included: how many a client keeps
   * in flight, counted without clocks (times from two clocks can overlap by a millisecond or two).
   */
  inFlight: number;
  /** Present when an injected fault decided the answer. */
  fault?: FaultKind | 'rate-limited';
}

export const REDACTED = '[redacted]';

/** The log grows to this many MiB at most, unless told otherwise (`logMaxMb`, `--log-max-mb`). */
export const DEFAULT_LOG_MAX_MB = 64;

export class RequestLog {
  private readonly stream: WriteStream;
  private failed: Error | undefined;
  /** Bytes the file may still take; Infinity for a FIFO, a terminal or a device, which fill no disk. */
  private room: number;
  private full = false;

  private constructor(stream: WriteStream, room: number, private readonly onFull: () => void) {
    this.stream = stream;
    this.room = room;
    // A failed write must not crash the server; close() reports it.
    stream.on('error', (error) => {
      this.failed ??= error;
    });
  }

  /**
   * Opens the file for appending; rejects when it cannot be opened (bad directory, no permission).
   * A regular file takes at most `maxBytes` in all; `onFull` is called once when a line would pass it.
   */
  static open(path: string, maxBytes: number, onFull: () => void = () => undefined): Promise<RequestLog> {
    return new Promise((resolve, reject) => {
      const stream = createWriteStream(path, { flags: 'a' });
      stream.once('error', reject);
      stream.once('open', (fd: number) => {
        stream.off('error', reject);
        const stat = fstatSync(fd);
        resolve(new RequestLog(stream, stat.isFile() ? maxBytes - stat.size : Infinity, onFull));
      });
    });
  }

  write(entry: RequestLogEntry): void {
    if (this.failed || this.full) return;
    const line = JSON.stringify(entry) + '\n';
    const bytes = Buffer.byteLength(line);
    if (bytes > this.room) {
      this.full = true;
      this.onFull();
      return;
    }
    this.room -= bytes;
    this.stream.write(line);
  }

  /** Resolves when the lines written so far are in the file: writes complete in order. */
  written(): Promise<void> {
    if (this.failed || this.stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => this.stream.write('', () => resolve()));
  }

  /** Flushes and closes. */
  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.end(() => (this.failed ? reject(this.failed) : resolve()));
    });
  }
}

/**
 * `text` with the key replaced wherever it appears, alone or inside a longer value (`/people/KEY`,
 * `q=xKEYx`), and percent-encoded as a client would have put it in a path. A short key may take a
 * piece of an innocent word with it: in a log of a test server, better than a key left in a file.
 */
export function withoutKey(text: string, key: string): string {
  if (key === '') return text;
  let out = text.replaceAll(key, REDACTED);
  const encoded = encodeURIComponent(key);
  if (encoded !== key) out = out.replaceAll(encoded, REDACTED);
  return out;
}

/** The path for the log, the key replaced wherever it appears. */
export function pathForLog(pathname: string, key: string): string {
  return withoutKey(pathname, key);
}

/** The query as an object for the log, the key replaced wherever it appears in a name or a value. */
export function queryForLog(search: string, key: string): Record<string, string | string[]> {
  // No prototype: a parameter named __proto__ must stay a plain key.
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  if (search === '') return query;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    return query;
  }
  for (const [rawName, raw] of params) {
    const name = withoutKey(rawName, key);
    const value = withoutKey(raw, key);
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[name] = [previous, value];
  }
  return query;
}
