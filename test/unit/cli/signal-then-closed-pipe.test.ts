/**
 * What ends a run a signal has begun to end.
 *
 * Ctrl-C on `newsstats tap | target` signals both processes: the tap writes its "stopped by SIGINT"
 * line, then the target's death closes the pipe while the tap is stopping. The run must end as the
 * signal says (130, one line), not as a closed pipe (a second line, exit 6). Found by killing whole
 * pipelines at random moments; here the two events come in that order, without any race.
 *
 * A second signal of another kind (Ctrl-C, then a kill) ran the exit again and ended with its own
 * code: the tap's line said SIGTERM beside exit 130. Found by signalling runs twice, 20 ms apart.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../../src/cli/run/lifecycle.js';

function fakeProcess() {
  const events = new EventEmitter();
  const exits: number[] = [];
  return { proc: Object.assign(events, { exit: (code: number) => void exits.push(code) }), exits };
}

describe('a closed pipe after a signal', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${signal} then a closed stdout exits ${code}, without the closed-pipe line`, async () => {
      const { proc, exits } = fakeProcess();
      const lifecycle = new Lifecycle(proc);
      const lines: string[] = [];
      lifecycle.onCleanup((reason) => void lines.push(`stopped (${reason})`));
      lifecycle.onClosedPipe(() => {
        lines.push('stdout closed');
        return 6;
      });
      lifecycle.exitOnSignals();
      proc.emit(signal, signal);
      expect(lifecycle.closedPipeExit(0)).toBe(code);
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toEqual(['stopped (interrupted)']);
      expect(exits).toEqual([code]);
    });
  }

  it('a closed stdout with no signal is still the verb\'s exit 6 and its line', () => {
    const lifecycle = new Lifecycle(fakeProcess().proc);
    const lines: string[] = [];
    lifecycle.onClosedPipe(() => {
      lines.push('stdout closed');
      return 6;
    });
    expect(lifecycle.closedPipeExit(0)).toBe(6);
    expect(lines).toEqual(['stdout closed']);
  });
});

describe('a second signal while the first one\'s clean-up runs', () => {
  it('of another kind ends the run at once, with the first one\'s code ends the run at once, with the first one\'s code', async () => {
    const { proc, exits } = fakeProcess();
    const lifecycle = new Lifecycle(proc);
    let finishCleanup: () => void = () => undefined;
    lifecycle.onCleanup(() => new Promise<void>((resolve) => (finishCleanup = resolve)));
    lifecycle.exitOnSignals();
    proc.emit('SIGTERM', 'SIGTERM');
    proc.emit('SIGINT', 'SIGINT');
    expect(exits).toEqual([143]);
    finishCleanup();
    await new Promise((resolve) => setImmediate(resolve));
    expect(exits).toEqual([143, 143]);
  });
});
