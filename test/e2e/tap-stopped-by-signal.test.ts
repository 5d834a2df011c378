/**
 * `tap | target` stopped by a signal (#33 item 4: every signal ends with one line saying what was kept).
 * Between the signal and the process's exit the run goes on for a moment: answers already on their way
 * were turned into RECORDs and a STATE after the stopped line, and the run's `tap: 12 partitions, ...`
 * followed it. Killing `tap | cat > file` at random showed `tap: stopped by SIGHUP; the last STATE sent
 * holds 11 partitions`, then the summary line, and 12 STATEs in the target's file. Here the stand-in
 * process never exits, so the run goes on to its end after the signal: nothing may be sent after the
 * line, and the line must count the STATEs the target got.
 */
import { writeFileSync } from 'node:fs';
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

describe('tap stopped by a signal', () => {
  it('sends nothing after its stopped line, which counts the STATEs the target got and is the last on stderr', async () => {
    const { proc, exit } = standInProcess();
    const stderr = new MemoryOutput();
    // SIGTERM as the tap asks for its second week's ranking: a week is sent, more are on their way.
    let rankings = 0;
    const front = await storeFront(server.url, (request) => {
      if ((request.url ?? '').includes('/people/top') && ++rankings === 2) proc.emit('SIGTERM', 'SIGTERM');
      return false;
    });
    const config = join(tempDir(), 'config.json');
    writeFileSync(config, JSON.stringify({ base_url: front.url, api_key: server.key, start_week: addWeeks(isoWeekOf(NOW), -4), streams: 'rankings', depth: 3, concurrency: 1 }));
    try {
      const result = await runCliWithProcess(['tap', '--config', config], proc, { stderr });
      expect(rankings).toBeGreaterThanOrEqual(2);
      // The clean-up's exit awaited: the run itself may end first.
      expect(await exit).toBe(143);
      const lines = stderr.text.trim().split('\n');
      expect(lines.at(-1), stderr.text).toMatch(/^tap: stopped by SIGTERM; the last STATE sent holds (\d+) partitions? \(.*\): run again with it$/);
      const kept = Number(/holds (\d+) partition/.exec(lines.at(-1)!)![1]);
      const states = result.stdout.split('\n').filter((line) => line.startsWith('{"type":"STATE"'));
      expect(states).toHaveLength(kept);
      expect(result.stdout.trim().split('\n').at(-1)).toBe(states.at(-1));
    } finally {
      await front.close();
    }
  });
});
