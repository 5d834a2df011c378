import { Writable } from 'node:stream';
import { renderView, type RenderOptions, type View } from '../../../src/output/index.js';

/** A stream that keeps what it is given, as bytes, and whether it was ended (binary formats must leave it open). */
export class BytesStream extends Writable {
  chunks: Buffer[] = [];
  ended = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(chunk);
    callback();
  }
  override _final(callback: () => void): void {
    this.ended = true;
    callback();
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A stream that keeps what it is given, as text. */
export class MemoryStream extends Writable {
  chunks: string[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk.toString('utf8'));
    callback();
  }

  get text(): string {
    return this.chunks.join('');
  }
}

export const baseOptions: RenderOptions = {
  format: 'json',
  header: true,
  color: false,
  isTTY: false,
  width: 80,
  unicode: true,
};

export async function render(view: View, options: Partial<RenderOptions>): Promise<string> {
  const out = new MemoryStream();
  await renderView(view, { ...baseOptions, ...options }, out);
  return out.text;
}
