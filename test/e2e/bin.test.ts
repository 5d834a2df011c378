/**
 * bin/newsstats.cjs itself: the `--version` it answers before loading anything, and its way back to
 * main() when that write fails.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/run/exit-codes.js';
import { VERSION } from '../../src/shared/version.js';
import { BIN } from './harness.js';

const run = (script: string) => spawnSync('bash', ['-o', 'pipefail', '-c', script], { encoding: 'utf8', env: { ...process.env, BIN, NODE: process.execPath } });

describe('bin/newsstats.cjs --version', () => {
  it('prints the version and nothing else, for --version and -V', () => {
    for (const flag of ['--version', '-V']) {
      const result = run(`"$NODE" "$BIN" ${flag}`);
      expect(result).toMatchObject({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
    }
  });

  it('reports a stdout that cannot be written in one line, with the output-failure exit code', () => {
    const result = run('"$NODE" "$BIN" --version >/dev/full');
    expect(result.status).toBe(EXIT.outputFailed);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: cannot write to stdout: .*ENOSPC/)]);
  });

  it('ends quietly on a closed pipe', () => {
    // The reader closes its end at once; Node takes far longer to start, so the write meets a closed pipe.
    const result = run('"$NODE" "$BIN" --version | { exec 0<&-; }');
    expect(result).toMatchObject({ status: 0, stderr: '' });
  });
});
