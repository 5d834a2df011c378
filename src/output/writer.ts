/**
 * Buffered text output that honours backpressure: small writes are joined into chunks of about
 * 64 KiB (one write call per row would be one syscall per row on a pipe), and a full stream is
 * waited on ('drain') before more is written, so exporting a large result never holds it all in
 * the stream's queue.
 */
const CHUNK_SIZE = 64 * 1024;

type OutputStream = NodeJS.WritableStream & { destroyed?: boolean; writableNeedDrain?: boolean };

export class TextWriter {
  private pending = '';
  private scheduledFlush: NodeJS.Immediate | undefined;
  private scheduledFailure: unknown;
  private drained: Promise<void> | undefined;

  constructor(private readonly out: NodeJS.WritableStream) {}

  /** Queues text; writes a chunk once enough has gathered. */
  async write(text: string): Promise<void> {
    this.throwScheduledFailure();
    this.pending += text;
    if (this.pending.length >= CHUNK_SIZE) await this.flush();
  }

  /**
   * Flushes once the current burst of writes is over (after pending I/O callbacks), so rows that
   * stream in page by page reach the reader a page at a time rather than when 64 KiB gathered.
   */
  flushSoon(): void {
    if (this.scheduledFlush || this.pending === '') return;
    this.scheduledFlush = setImmediate(() => {
      this.scheduledFlush = undefined;
      this.flush().catch((error: unknown) => {
        this.scheduledFailure ??= error;
      });
    });
  }

  /** Writes everything queued and waits until the stream can take more. */
  async flush(): Promise<void> {
    if (this.scheduledFlush) {
      clearImmediate(this.scheduledFlush);
      this.scheduledFlush = undefined;
    }
    this.throwScheduledFailure();
    // A full stream is waited on once, by everyone: a scheduled flush and a row's flush can overlap,
    // and each adding its own listeners would pile them up on a slow disk.
    if (this.drained) await this.drained;
    const chunk = this.pending;
    this.pending = '';
    const stream = this.out as OutputStream;
    if (stream.destroyed) throw new Error('output stream closed before all output was written');
    const accepted = chunk === '' ? !stream.writableNeedDrain : stream.write(chunk);
    if (accepted) return;
    this.drained ??= waitForDrain(stream).finally(() => {
      this.drained = undefined;
    });
    await this.drained;
  }

  private throwScheduledFailure(): void {
    if (this.scheduledFailure !== undefined) throw this.scheduledFailure;
  }
}

function waitForDrain(stream: OutputStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: unknown) => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => settle();
    const onError = (error: unknown) => settle(error);
    const onClose = () => settle(new Error('output stream closed before all output was written'));
    stream.once('drain', onDrain);
    stream.once('error', onError);
    stream.once('close', onClose);
  });
}
