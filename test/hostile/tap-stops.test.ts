/**
 * A tap stopped early tells the orchestrator what was kept, and never exits 0 (issue #33 item 4):
 * SIGTERM, SIGINT and SIGHUP end with one line naming the signal and the last STATE sent; a target
 * that stops reading (`tap | head -1`) is exit 6 with that line, where it was a silent 0 (and SIGTERM
 * an empty stderr). Real processes: the signal and the pipe are the point.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, sandbox, tempDir } from '../e2e/harness.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

let server: RunningSandbox;
beforeAll(async () => {
  // Slow enough that the run is still fetching when the signal comes.
  server = await sandbox({ latencyMs: 150 });
});
afterAll(() => server.close());

function config(): string {
  const path = join(tempDir('newsstats-tap-stops-'), 'config.json');
  writeFileSync(path, JSON.stringify({ base_url: server.url, api_key: server.key, start_week: 202630, streams: 'rankings,links', depth: 3, top: 2, links_limit: 2, concurrency: 1 }));
  return path;
}

describe('a tap stopped by a signal says what the last STATE it sent holds', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(signal, async () => {
      const child = spawn(process.execPath, [BIN, 'tap', '--config', config()], { env: isolatedEnv(tempDir()), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        // Signalled once a STATE has been sent: the line must name what it holds.
        if (stdout.includes('"type":"STATE"') && !child.killed) child.kill(signal);
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
      expect(code).toBe({ SIGTERM: 143, SIGINT: 130, SIGHUP: 129 }[signal]);
      const lines = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('INFO METRIC: '));
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^tap: stopped by ${signal}; the last STATE sent holds \\d+ partitions? \\(rankings \\d{6}(, links \\d{6})?\\): run again with it$`));
    });
  }
});

describe('a target that stops reading', () => {
  it('`tap | head -1` exits 6 with one line saying what was kept, not a silent 0', async () => {
    const script = `"${process.execPath}" "${BIN}" tap --config "${config()}" | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`;
    const child = spawn('bash', ['-c', script], { env: isolatedEnv(tempDir()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.on('close', resolve));
    const lines = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('INFO METRIC: '));
    expect(lines, stderr).toEqual([expect.stringMatching(/^tap: stdout closed \(the target stopped reading\); the last STATE sent (\(none yet\) holds nothing: run again with the same state|holds \d+ partitions? \(.+\): run again with it)$/), 'exit=6']);
  });
});

describe('a stdout that cannot be written', () => {
  it('`tap > /dev/full` (a full disk) is exit 6 naming stdout, and is not said to be a signal', async () => {
    const script = `"${process.execPath}" "${BIN}" tap --config "${config()}" >/dev/full; echo "exit=$?" >&2`;
    const child = spawn('bash', ['-c', script], { env: isolatedEnv(tempDir()), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.on('close', resolve));
    const lines = stderr.split('\n').filter((line) => line !== '' && !line.startsWith('INFO METRIC: '));
    expect(lines, stderr).toEqual([
      expect.stringMatching(/^error: cannot write to stdout: .*\(ENOSPC\)$/),
      expect.stringMatching(/^tap: stopped: stdout could not be written; the last STATE sent /),
      'exit=6',
    ]);
  });
});
