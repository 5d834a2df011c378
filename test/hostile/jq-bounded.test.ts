/**
 * --jq can't take the run hostage (issue #35 item 4): a filter that never ends stops at once on
 * SIGINT, SIGTERM and SIGHUP (on the main thread, jq ignored them: `def f: f; f` ran until SIGKILL),
 * and a filter whose memory grows without end is stopped with one line, exit 2 (`[range(1e9)]` took
 * 800 MB in 12 s; `repeat(.)` ended in a V8 fatal error). Real processes: signals are the point.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, expectFailure, isolatedEnv, sandbox, sandboxEnv, spawnCli, tempDir } from '../e2e/harness.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox();
});
afterAll(() => server.close());

describe.concurrent('a filter without end stops at once on a signal', () => {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(signal, async () => {
      const child = spawn(process.execPath, [BIN, 'people', 'top', '--limit', '2', '--verbose', '--jq', 'def f: f; f'], { env: isolatedEnv(tempDir(), sandboxEnv(server)), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        // --verbose tells the answer arrived: jq is about to run, or running.
        if (/people\/top\S* 200 /.test(stderr) && !child.killed) setTimeout(() => child.kill(signal), 200);
      });
      const exit = await new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
      expect(exit, stderr).toBe(code);
    });
  }
});

describe.concurrent('a filter whose memory grows without end is stopped with one line', () => {
  for (const expression of ['repeat(.)', '[range(1e9)]']) {
    it(expression, async () => {
      // A low bound keeps the test light; the default is 1024 MiB.
      const result = await spawnCli(['people', 'top', '--limit', '2', '--jq', expression], { env: sandboxEnv(server, { NEWSSTATS_JQ_MAX_MB: '48' }) });
      expectFailure(result, 2, /^error: --jq: stopped: the filter held more than 48 MiB/);
    });
  }
});
