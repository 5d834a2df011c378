/**
 * A signal while the CLI loads (#33 item 4: every signal ends with one line saying what was kept).
 * Between bin/newsstats.cjs starting and the run listening for signals itself, dist/ loads: tens of
 * milliseconds, a few hundred on a busy machine. A signal then found no listener, and Node died of it
 * saying nothing: random kills of `sync` and `tap | target` ended so, the signal as their status and
 * stderr empty, where an orchestrator is owed a line.
 *
 * Each child is started with a preload (test/e2e/signal-while-loading.preload.cjs) that sends the
 * child SIGTERM at a fixed point of its start: as bin/newsstats.cjs requires its loader, before any of
 * dist/ is read. No timing is involved.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { FIXED_NOW, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';

const PRELOAD = resolve(import.meta.dirname, 'signal-while-loading.preload.cjs');

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox({ now: FIXED_NOW });
});
afterAll(async () => {
  await server?.close();
});

/** The CLI, signalled as it loads; `delayMain` makes main() start a turn of the event loop later. */
function signalledWhileLoading(args: string[], delayMain = false) {
  return spawnCli(args, { env: sandboxEnv(server, { NODE_OPTIONS: `--require ${PRELOAD}`, ...(delayMain && { SIGNAL_WHILE_LOADING_DELAY_MAIN: '1' }) }) });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '');
}

describe('a signal while the CLI loads', () => {
  test.concurrent('sync: exits 143 with its interrupted line, --summary says interrupted, the lake untouched', async () => {
    const dir = join(tempDir(), 'lake');
    const summaryFile = join(tempDir(), 'summary.json');
    const result = await signalledWhileLoading(['sync', dir, '--since', String(addWeeks(isoWeekOf(FIXED_NOW), -3)), '--streams', 'rankings', '--depth', '3', '--summary', summaryFile]);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 143, signal: null, stdout: '' });
    expect(lines(result.stderr)).toEqual([`sync: interrupted: 0 partitions written this run are kept in ${dir}; the next run fetches what is missing`]);
    expect(existsSync(dir)).toBe(false);
    expect(JSON.parse(readFileSync(summaryFile, 'utf8'))).toMatchObject({ outcome: 'interrupted', written: [] });
  });

  test.concurrent('tap: exits 143, nothing on stdout, its stopped line the last on stderr (no METRIC after it)', async () => {
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ start_week: addWeeks(isoWeekOf(FIXED_NOW), -3) }));
    const result = await signalledWhileLoading(['tap', '--config', config]);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 143, signal: null, stdout: '' });
    expect(lines(result.stderr).at(-1)).toBe('tap: stopped by SIGTERM; the last STATE sent (none yet) holds nothing: run again with the same state');
  });

  test.concurrent('a query: exits 143 as a later signal makes it, saying nothing', async () => {
    const result = await signalledWhileLoading(['people', 'top', '--weeks', 'last4', '-f', 'json']);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout, stderr: result.stderr }).toEqual({ code: 143, signal: null, stdout: '', stderr: '' });
  });

  test.concurrent('before the run listens itself (main() a turn of the event loop late): one line, exit 143', async () => {
    const dir = join(tempDir(), 'lake');
    const result = await signalledWhileLoading(['sync', dir, '--since', String(addWeeks(isoWeekOf(FIXED_NOW), -3)), '--streams', 'rankings'], true);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 143, signal: null, stdout: '' });
    expect(lines(result.stderr)).toEqual(['newsstats: interrupted by SIGTERM as it started; nothing was fetched or written']);
    expect(existsSync(dir)).toBe(false);
  });
});
