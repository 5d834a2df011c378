import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TextWriter } from '../../../src/output/writer.js';

/** A stream that takes one small chunk at a time, slowly, like a busy disk or a slow pipe reader. */
function slowStream() {
  const received: string[] = [];
  let mostDrainListeners = 0;
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, done) {
      received.push(chunk.toString());
      setTimeout(done, 2);
    },
  });
  const watch = () => {
    mostDrainListeners = Math.max(mostDrainListeners, stream.listenerCount('drain'));
    mostErrorListeners = Math.max(mostErrorListeners, stream.listenerCount('error'));
  };
  let mostErrorListeners = stream.listenerCount('error');
  const baselineErrorListeners = mostErrorListeners;
  stream.on('newListener', () => queueMicrotask(watch));
  return {
    stream,
    received,
    extraErrorListeners: () => mostErrorListeners - baselineErrorListeners,
    mostDrainListeners: () => mostDrainListeners,
  };
}

describe('TextWriter', () => {
  it('waits for a full stream once, however many flushes overlap, and keeps every byte in order', async () => {
    const { stream, received, mostDrainListeners, extraErrorListeners } = slowStream();
    const writer = new TextWriter(stream);
    const lines = Array.from({ length: 200 }, (_, index) => `row ${index}\n`);
    const flushes: Array<Promise<void>> = [];
    for (const line of lines) {
      await writer.write(line);
      // What a streaming sink does after each row, plus an explicit flush racing it.
      writer.flushSoon();
      flushes.push(writer.flush());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(flushes);
    await writer.flush();
    expect(received.join('')).toBe(lines.join(''));
    expect(mostDrainListeners()).toBeLessThanOrEqual(1);
    expect(extraErrorListeners()).toBeLessThanOrEqual(1);
  });
});
