/**
 * One writer per lake (#35 item 2): a second sync on a lake being synced is refused in one line
 * before any request; a lock left by a crashed run (its process gone) is taken over; a run leaves no
 * lock behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { readLog, runCli, tempDir, useLoggedSandbox } from '../e2e/harness.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const SMALL = ['--since', String(LAST), '--streams', 'rankings', '--depth', '3'];

/** A sandbox on today's clock, logging every request (the tests count what a refused run sent). */
const logged = useLoggedSandbox({ now: NOW });

/** Linux's start time of a process (field 22 of /proc/PID/stat), as the lock records it. */
function startOf(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('one writer per lake', () => {
  it.runIf(existsSync('/proc/self/stat'))('a lake another live process holds is refused in one line, before any request', async () => {
    const dir = join(tempDir(), 'lake');
    mkdirSync(dir, { mode: 0o755 });
    // A process that stays alive while the test runs: the lock's holder.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      writeFileSync(join(dir, '_newsstats_sync.lock'), JSON.stringify({ pid: holder.pid, start: startOf(holder.pid!), host: hostname(), since: '2026-11-27T10:00:00.000Z' }));
      const before = (await readLog(logged.log)).length;
      const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
      expect(result.code).toBe(6);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(new RegExp(`is being synced by process ${holder.pid} .*wait for it to end, or remove .*_newsstats_sync\\.lock if no sync is running`));
      expect((await readLog(logged.log)).length).toBe(before);
      expect(existsSync(join(dir, 'rankings'))).toBe(false);
    } finally {
      holder.kill();
    }
  });

  it('a lock whose process is gone (a crash) is taken over, and the run leaves no lock', async () => {
    const dir = join(tempDir(), 'lake');
    mkdirSync(dir, { mode: 0o755 });
    const gone = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    const pid = await new Promise<number>((resolve) => gone.once('exit', () => resolve(gone.pid!)));
    writeFileSync(join(dir, '_newsstats_sync.lock'), JSON.stringify({ pid, start: '1', host: hostname(), since: '2026-11-27T10:00:00.000Z' }));
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, 'rankings', `week=${LAST}`, 'part-0.parquet'))).toBe(true);
    expect(existsSync(join(dir, '_newsstats_sync.lock'))).toBe(false);
  });

  it('a lock left half-written (not JSON) by a crash is taken over', async () => {
    const dir = join(tempDir(), 'lake');
    mkdirSync(dir, { mode: 0o755 });
    writeFileSync(join(dir, '_newsstats_sync.lock'), '');
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
  });

  it('two syncs of one lake started together: one runs, the other is refused or waits its turn; the state and partitions agree', async () => {
    const dir = join(tempDir(), 'lake');
    const [five, seven] = await Promise.all([
      runCli(['sync', dir, ...SMALL, '--depth', '5'], { env: logged.env }),
      runCli(['sync', dir, ...SMALL, '--depth', '7'], { env: logged.env }),
    ]);
    const codes = [five.code, seven.code].sort();
    expect(codes[0]).toBe(0);
    expect([2, 6]).toContain(codes[1]);
    const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: { rankings: { query: { depth: number } } } };
    const winner = five.code === 0 ? 5 : 7;
    expect(state.streams.rankings.query.depth).toBe(winner);
  });
});
