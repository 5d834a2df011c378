/**
 * The request log: one JSON object a line, appended to a file.
 * It records what was asked and how it was answered, never request headers, so the API key that
 * travels in X-Api-Key cannot end up in it; a query value equal to the key is redacted as well,
 * in case a client put the key in the URL by mistake.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
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

export class RequestLog {
  private readonly stream: WriteStream;
  private failed: Error | undefined;

  private constructor(stream: WriteStream) {
    this.stream = stream;
    // A failed write must not crash the server; close() reports it.
    stream.on('error', (error) => {
      this.failed ??= error;
    });
  }

  /** Opens the file for appending; rejects when it cannot be opened (bad directory, no permission). */
  static open(path: string): Promise<RequestLog> {
    return new Promise((resolve, reject) => {
      const stream = createWriteStream(path, { flags: 'a' });
      stream.once('error', reject);
      stream.once('open', () => {
        stream.off('error', reject);
        resolve(new RequestLog(stream));
      });
    });
  }

  write(entry: RequestLogEntry): void {
    if (this.failed) return;
    this.stream.write(JSON.stringify(entry) + '\n');
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

/** The query as an object for the log, with any value equal to the key replaced. */
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
    const name = rawName === key ? REDACTED : rawName;
    const value = raw === key ? REDACTED : raw;
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[name] = [previous, value];
  }
  return query;
}
