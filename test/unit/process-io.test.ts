/**
 * processIo builds nothing it does not have to: Node creates process.stdin and process.stderr on
 * first touch (about 1.5 and 1 ms of every start-up), so a run that never reads stdin or writes to
 * stderr must never touch them.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main, processIo } from '../../src/cli/run/main.js';

/** A process whose stdin and stderr count how often they are reached. */
function countingProcess() {
  const touched = { stdin: 0, stderr: 0 };
  const stdout = Object.assign(new PassThrough(), { isTTY: false });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const streams = { stdin, stderr };
  let output = '';
  stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const proc = {
    stdout,
    get stdin() {
      touched.stdin += 1;
      return stdin;
    },
    get stderr() {
      touched.stderr += 1;
      return stderr;
    },
    env: { NO_COLOR: '1' },
    cwd: () => '/',
  } as unknown as NodeJS.Process;
  return { proc, streams, touched, output: () => output };
}

describe('processIo', () => {
  it('reaches stdin and stderr only when asked, and then the real ones', () => {
    const { proc, streams, touched } = countingProcess();
    const io = processIo(proc);
    expect(touched).toEqual({ stdin: 0, stderr: 0 });
    expect(io.isTTY.stdin).toBe(true);
    expect(io.isTTY.stderr).toBe(true);
    expect(io.stdin).toBe(streams.stdin);
    expect(touched.stdin).toBeGreaterThan(0);
    expect(touched.stderr).toBeGreaterThan(0);
  });

  it('prints a verb\'s help without touching stdin or stderr', async () => {
    const { proc, touched, output } = countingProcess();
    const io = processIo(proc);
    // Without io.process: the test's own process keeps its signal handlers. (A spread of io would
    // call its getters.)
    delete io.process;
    const code = await main(['node', 'newsstats', 'people', 'top', '--help'], io);
    expect(code).toBe(0);
    expect(output()).toContain('Usage: newsstats people top [options]');
    expect(touched).toEqual({ stdin: 0, stderr: 0 });
  });
});
