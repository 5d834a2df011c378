import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import { installEpipeGuard } from '../../../src/output/index.js';

function failingStream(code: string): Writable {
  return new Writable({
    write(_chunk, _encoding, callback) {
      callback(Object.assign(new Error(`write ${code}`), { code }));
    },
  });
}

test('EPIPE ends the process with exit code 0', async () => {
  const stream = failingStream('EPIPE');
  const exits: number[] = [];
  installEpipeGuard(stream, (code) => exits.push(code));
  stream.write('x');
  await new Promise((resolve) => setImmediate(resolve));
  expect(exits).toEqual([0]);
});

test('other write errors are not swallowed', () => {
  const stream = failingStream('ENOSPC');
  const exits: number[] = [];
  installEpipeGuard(stream, (code) => exits.push(code));
  expect(() => stream.emit('error', Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }))).toThrow('ENOSPC');
  expect(exits).toEqual([]);
});
