/**
 * `sync --summary` of a run a signal stops (#33 item 4: kills at random moments; every signal ends
 * with an account of what was kept). Between the signal and the process's exit the run goes on for a
 * moment: its own accounts (`running` as it starts, `ok` as it ends) were written beside the clean-up's
 * `interrupted`, and whichever was renamed last stayed. Killing syncs at random left `running` (a
 * signal in the first 50 ms) or `ok` beside exit 143, and an interrupted line counting 11 partitions
 * beside an account listing 23. Here the stand-in process never exits, so the run goes on to its end
 * after the signal, and the account must still be the clean-up's, agreeing with its line.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { MemoryOutput, runCliWithProcess, sandbox, standInProcess, tempDir } from './harness.js';
import { storeFront } from './s3-server.js';

const NOW = new Date();
let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox({ now: NOW });
});
afterAll(async () => {
  await server?.close();
});

/** A front of the service that calls `onRequest` with each request's path before passing it on. */
function serviceFront(onRequest: (path: string) => void): Promise<{ url: string; close(): Promise<void> }> {
  return storeFront(server.url, (request) => {
    onRequest(request.url ?? '');
    return false;
  });
}

describe('sync --summary after a signal', () => {
  it('stays the interrupted account, listing what its line counts, whatever the run writes after the signal', async () => {
    const { proc, exit } = standInProcess();
    // The clean-up may end after main() returned (the run went on to its end): its writes are seen here.
    const stderr = new MemoryOutput();
    // SIGTERM when the run asks the service for its first ranking: partitions are still to land.
    let signalled = false;
    const front = await serviceFront((path) => {
      if (signalled || !path.includes('/people/top')) return;
      signalled = true;
      proc.emit('SIGTERM', 'SIGTERM');
    });
    const dir = join(tempDir(), 'lake');
    const summaryFile = join(tempDir(), 'summary.json');
    try {
      await runCliWithProcess(
        ['sync', dir, '--since', String(addWeeks(isoWeekOf(NOW), -4)), '--streams', 'rankings,people', '--depth', '3', '--concurrency', '1', '--summary', summaryFile],
        proc,
        { env: { NEWSSTATS_BASE_URL: front.url, NEWSSTATS_API_KEY: server.key }, stderr },
      );
      expect(signalled).toBe(true);
      // The clean-up's exit awaited: under load the run itself may end first.
      expect(await exit).toBe(143);
      const line = /sync: interrupted: (\d+) partitions? written this run (?:are|is) kept in .*; the next run fetches what is missing/.exec(stderr.text);
      expect(line, stderr.text).not.toBeNull();
      // The line is the run's last word: what the run says after the signal must not contradict it.
      expect(stderr.text.trim().split('\n').at(-1), stderr.text).toBe(line![0]);
      const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { outcome: string; written: unknown[] };
      expect(summary.outcome).toBe('interrupted');
      expect(summary.written).toHaveLength(Number(line![1]));
    } finally {
      await front.close();
    }
  });

  it('ends with the interrupted line when the lake was up to date: no "up to date" after it', async () => {
    const dir = join(tempDir(), 'lake');
    const args = ['sync', dir, '--since', String(addWeeks(isoWeekOf(NOW), -2)), '--streams', 'rankings', '--depth', '3'];
    const env = { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key };
    const first = await runCliWithProcess(args, Object.assign(new EventEmitter(), { exit: () => undefined }), { env });
    expect(first.stderr).toMatch(/^sync: wrote /m);
    const { proc, exit } = standInProcess();
    // SIGTERM as soon as the run listens for signals, before sync has loaded its engine (a real process
    // exited 143 then, saying nothing); the stand-in never exits, so the run, with nothing to write,
    // goes on to its end (and said "up to date" after the interrupted line).
    proc.on('newListener', (event) => {
      if (event === 'SIGTERM') queueMicrotask(() => proc.emit('SIGTERM', 'SIGTERM'));
    });
    const summaryFile = join(tempDir(), 'summary.json');
    const stderr = new MemoryOutput();
    await runCliWithProcess([...args, '--summary', summaryFile], proc, { env, stderr });
    // The clean-up may end after the run gave up (it found its lake closed): its exit, and what it wrote, awaited.
    expect(await exit).toBe(143);
    expect(stderr.text.trim().split('\n'), stderr.text).toEqual([expect.stringMatching(/^sync: interrupted: 0 partitions written this run are kept in .*; the next run fetches what is missing$/)]);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({ outcome: 'interrupted', written: [] });
    expect(existsSync(join(dir, '_newsstats_sync.lock'))).toBe(false);
  });
});
