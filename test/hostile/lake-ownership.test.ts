/**
 * A lake is ours or refused (#35 items 1 and 3): sync never writes through a link planted in the lake,
 * refuses a folder others can write to or own, a linked partition folder, an empty name and a device,
 * and its clean-up removes only the temporary files it made itself, only in the lake's own folders.
 */
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { readLog, runCli, tempDir, useLoggedSandbox } from '../e2e/harness.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const SMALL = ['--since', String(LAST), '--streams', 'rankings', '--depth', '3'];

/** A sandbox on today's clock, logging every request (the tests count what a refused run sent). */
const logged = useLoggedSandbox({ now: NOW });

/** A file outside the lake that a planted link points at: it must stay as it was. */
function victim(): string {
  const dir = tempDir('newsstats-victim-');
  const path = join(dir, 'secret.txt');
  writeFileSync(path, 'the victim\'s own file\n', { mode: 0o600 });
  return path;
}

describe('a lake is ours or refused', () => {
  it('a link planted at a partition\'s name is replaced by the partition, never written through', async () => {
    const dir = join(tempDir(), 'lake');
    const target = victim();
    mkdirSync(join(dir, 'rankings', `week=${LAST}`), { recursive: true, mode: 0o755 });
    symlinkSync(target, join(dir, 'rankings', `week=${LAST}`, 'part-0.parquet'));
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('the victim\'s own file\n');
    expect(lstatSync(join(dir, 'rankings', `week=${LAST}`, 'part-0.parquet')).isFile()).toBe(true);
  });

  it('a link at the state\'s name is refused in one line, and nothing is created where it points', async () => {
    const dir = tempDir();
    const target = join(tempDir('newsstats-victim-'), 'planted.json');
    symlinkSync(target, join(dir, '_newsstats_sync.json'));
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/_newsstats_sync\.json is a symbolic link/);
    expect(existsSync(target)).toBe(false);
  });

  it('a partition folder that is a link is refused; nothing is written where it points', async () => {
    const dir = join(tempDir(), 'lake');
    const outside = tempDir('newsstats-victim-');
    mkdirSync(join(dir, 'rankings'), { recursive: true, mode: 0o755 });
    symlinkSync(outside, join(dir, 'rankings', `week=${LAST}`));
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`rankings/week=${LAST} is a symbolic link; a lake holds no links`));
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a lake folder others can write to is refused before any request', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o777);
    const before = (await readLog(logged.log)).length;
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is writable by group or others \(mode 777\); a lake must be yours alone/);
    expect((await readLog(logged.log)).length).toBe(before);
  });

  it.runIf(process.getuid?.() === 0)('a lake folder another user owns is refused', async () => {
    const dir = tempDir();
    chownSync(dir, 65534, 65534);
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/belongs to another user \(uid 65534\)/);
  });

  it('an empty name and a device are refused in one line', async () => {
    const empty = await runCli(['sync', '', ...SMALL], { env: logged.env });
    expect([empty.code, empty.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(empty.stderr).toMatch(/an empty name is not one/);
    const device = await runCli(['sync', '/dev/null', ...SMALL], { env: logged.env });
    expect([device.code, device.stderr.trim()]).toEqual([2, 'error: /dev/null is not a folder']);
  });

  it('the clean-up removes only our own temporary files, in the lake\'s own folders', async () => {
    const dir = join(tempDir(), 'lake');
    const week = join(dir, 'rankings', `week=${LAST}`);
    mkdirSync(week, { recursive: true, mode: 0o755 });
    mkdirSync(join(dir, 'notes'), { mode: 0o755 });
    const ours = join(week, '.part-0.parquet.newsstats-sync-4242-0123456789ab.tmp');
    const others = [join(week, '.draft.123.abcdef.tmp'), join(dir, 'notes', '.part-0.parquet.newsstats-sync-4242-0123456789ab.tmp'), join(dir, '.report.99.beef.tmp')];
    for (const path of [ours, ...others]) writeFileSync(path, 'x');
    const result = await runCli(['sync', dir, ...SMALL], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(ours)).toBe(false);
    for (const path of others) expect(existsSync(path), path).toBe(true);
  });
});
