/**
 * The run's life: clean-ups that run at its end or on Ctrl-C, the signals that interrupt it, and the
 * V8 flags it may set when it owns its process.
 */
import { constants } from 'node:os';
import type { ProcessControl } from './io.js';

/**
 * V8's heap for a bulk run (`export`, `sync`): the young generation kept at its initial size (each
 * answer's rows die young, so collecting them often is cheap) and the old one let grow 30% between
 * full collections. Left to its defaults V8 let the heap grow to ~60 MiB of garbage (an export of
 * 480 people's links peaked at 115-120 MiB); `--optimize-for-size`, used before, held the peak but
 * ran a compacting full collection every few MiB, a fifth of a sync's CPU. Against it: a sync 9-15%
 * less CPU, an export of 480 people's links 0-21% less (none on Node 20, where its peak fell from 97
 * to 85 MiB); peaks otherwise within 2-9 MiB (docs/performance.md, "sync" and "Export memory").
 */
const BULK_HEAP_FLAGS = '--no-optimize-for-size --semi-space-growth-factor=1 --heap-growing-percent=30';
/** V8's own values of the flags BULK_HEAP_FLAGS changes (the same on Node 20 to 26; optimize-for-size is off by default). */
const BULK_HEAP_FLAGS_DEFAULT = '--semi-space-growth-factor=2 --heap-growing-percent=0';

export type CloseReason = 'done' | 'interrupted';

/** 128 + the signal's number (130, 143, 129), as a shell reports a run a signal ended. */
function exitCodeOfSignal(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

export class Lifecycle {
  #interrupted = false;
  #signal: NodeJS.Signals | undefined;
  #closedPipe: (() => number) | undefined;
  /** A pager has the terminal: Ctrl-C is its (less stops a search with it), not the end of the run. */
  #paging = false;
  readonly #cleanups: Array<(reason: CloseReason) => Promise<void> | void> = [];
  /** V8 flags set for the run, each with the setting that puts it back: done as the run closes (tuneV8). */
  readonly #flagsToRestore: Array<() => void> = [];

  /** `process` is the real process when the run owns it (bin/newsstats.cjs); absent in-process. */
  constructor(readonly process?: ProcessControl) {}

  /** Runs at the end of the run, and on Ctrl-C. */
  onCleanup(cleanup: (reason: CloseReason) => Promise<void> | void): void {
    this.#cleanups.push(cleanup);
  }

  /** While a pager shows the output, Ctrl-C is the pager's to handle (as git does); kill still ends the run. */
  pagerHasInterrupts(paging: boolean): void {
    this.#paging = paging;
  }

  /** True once Ctrl-C began closing the run: what fails after that is its consequence, not news. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** The signal that interrupted the run, once one did. */
  get signal(): NodeJS.Signals | undefined {
    return this.#signal;
  }

  /**
   * What a closed stdout means for this run. By default the reader saying "enough" (`| head`): exit 0
   * quietly. A verb whose reader must get everything (the tap: its target died) says otherwise here:
   * the handler tells what was kept, on stderr, and returns the exit code.
   */
  onClosedPipe(handler: () => number): void {
    this.#closedPipe = handler;
  }

  /**
   * The exit code of a closed stdout: the verb's, else `quiet`. After a signal the signal's: Ctrl-C
   * on `tap | target` signals both, so the target's death closes the pipe while the tap is stopping;
   * the signal's line has been written, and a second line with another code would only confuse.
   */
  closedPipeExit(quiet: number): number {
    if (this.#signal !== undefined) return exitCodeOfSignal(this.#signal);
    return this.#closedPipe?.() ?? quiet;
  }

  /** Runs the cleanups, newest first. An interrupt drops connections rather than waiting for them. */
  async close(reason: CloseReason = 'done'): Promise<void> {
    if (reason === 'interrupted') this.#interrupted = true;
    const cleanups = this.#cleanups.splice(0).reverse();
    for (const cleanup of cleanups) await cleanup(reason);
    for (const restore of this.#flagsToRestore.splice(0)) restore();
  }

  /**
   * Ctrl-C, kill, or a closed terminal (SIGHUP): run the clean-ups (a half-written --output file is
   * removed), then exit 128 + the signal's number (130, 143, 129), as a shell reports it.
   */
  exitOnSignals(): void {
    const proc = this.process;
    if (!proc) return;
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.#paging && signal === 'SIGINT') {
        proc.once(signal, onSignal);
        return;
      }
      // Another kind of signal while the first's clean-up runs (Ctrl-C, then a kill): the run ends at
      // once, as the first said (its line names it), not with the second's code.
      if (this.#signal !== undefined) return proc.exit(exitCodeOfSignal(this.#signal));
      this.#signal = signal;
      void this.close('interrupted').finally(() => proc.exit(exitCodeOfSignal(signal)));
    };
    proc.once('SIGINT', onSignal);
    proc.once('SIGTERM', onSignal);
    proc.once('SIGHUP', onSignal);
  }

  /**
   * Sets a V8 flag, but only when the run owns its process (bin/newsstats.cjs): a program that calls
   * main() in-process, such as the test suite, keeps its own V8 settings. The flag holds until the
   * run closes, or until the returned function sets `undo` (the flag at V8's default) sooner.
   *
   * V8 checks every code cache against a hash of its flags: Node's for its own modules and ours for
   * dist/ (bin/code-cache.cjs). While a flag is off its default, the modules loaded are compiled from
   * source and cached apart, so a flag needed for a moment is set back as soon as it did its work, and
   * every flag is set back as the run closes: the caches of dist/ are written at exit, each only when
   * the flags are those its file was loaded under, so a bulk run that kept its flags to the end never
   * cached the modules it loaded before setting them (its start, the sync engine, undici).
   */
  /** V8's heap for a bulk run (export, sync): BULK_HEAP_FLAGS, for the rest of the run. */
  tuneHeapForBulk(): Promise<() => void> {
    return this.tuneV8(BULK_HEAP_FLAGS, BULK_HEAP_FLAGS_DEFAULT);
  }

  async tuneV8(flag: string, undo: string): Promise<() => void> {
    if (!this.process) return () => {};
    const { setFlagsFromString } = await import('node:v8');
    setFlagsFromString(flag);
    let pending: string | undefined = undo;
    const restore = () => {
      if (pending !== undefined) setFlagsFromString(pending);
      pending = undefined;
    };
    this.#flagsToRestore.push(restore);
    return restore;
  }
}
