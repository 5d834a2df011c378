/**
 * --jq can't take the run hostage (issue #35 item 4): a filter that never ends stops at once on
 * SIGINT, SIGTERM and SIGHUP (on the main thread, jq ignored them: `def f: f; f` ran until SIGKILL),
 * and a filter whose memory grows without end is stopped with one line, exit 2 (`[range(1e9)]` took
 * 800 MB in 12 s; `repeat(.)` ended in a V8 fatal error). Real processes: signals are the point.
 *
 * One set of tests for each way newsstats is shipped: the installed package (jq-bounded.test.ts, in
 * `npm test`) and the single executable (test/exe/, after `npm run build:exe`), which starts its jq
 * worker from assets inside itself rather than from node_modules.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, isolatedEnv, sandbox, sandboxEnv, spawnAndCollect, tempDir } from '../e2e/harness.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

/** How to start newsstats: the program file and the arguments that come before the command's. */
export interface Newsstats {
  file: string;
  leadingArgs: string[];
  /** The child's working folder. */
  cwd?: string;
}

export function describeJqBounds(newsstats: () => Newsstats): void {
  let server: RunningSandbox;
  beforeAll(async () => {
    server = await sandbox();
  });
  afterAll(() => server.close());

  describe.concurrent('a filter without end stops at once on a signal, as a shell reports it, saying nothing more', () => {
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]] as const) {
      it(signal, async () => {
        const { file, leadingArgs, cwd } = newsstats();
        const args = [...leadingArgs, 'people', 'top', '--limit', '2', '--verbose', '--jq', 'def f: f; f'];
        const child = spawn(file, args, { cwd, env: isolatedEnv(tempDir(), sandboxEnv(server)), stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          // --verbose tells the answer arrived: jq is about to run, or running.
          if (/people\/top\S* 200 /.test(stderr) && !child.killed) setTimeout(() => child.kill(signal), 200);
        });
        // A program deaf to the signal is not left running after the test: it fails with exit null.
        const deaf = setTimeout(() => child.kill('SIGKILL'), 20_000);
        const exit = await new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
        clearTimeout(deaf);
        expect(exit, stderr).toBe(code);
        // Only --verbose's request lines: no stack, no V8 fatal error.
        expect(stderr.split('\n').filter((line) => line !== '' && !/^GET http\S+ 200 /.test(line)), stderr).toEqual([]);
      });
    }
  });

  describe.concurrent('a filter whose memory grows without end is stopped with one line', () => {
    for (const expression of ['repeat(.)', '[range(1e9)]']) {
      it(expression, async () => {
        const { file, leadingArgs, cwd } = newsstats();
        // A low bound keeps the test light; the default is 1024 MiB.
        const env = isolatedEnv(tempDir(), sandboxEnv(server, { NEWSSTATS_JQ_MAX_MB: '48' }));
        const result = await spawnAndCollect(file, [...leadingArgs, 'people', 'top', '--limit', '2', '--jq', expression], env, { cwd });
        expectFailure(result, 2, /^error: --jq: stopped: the filter held more than 48 MiB/);
      });
    }
  });
}
