/**
 * The sandbox as a network service (issue #35 item 7): served beyond loopback with the default key
 * everyone knows, it says so on stderr; its request log never holds the key, even inside a path or a
 * longer value; its `--help` and docs/sandbox-server.md give the port the command really uses.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, readLog, runCli, runServingCli, sandbox, tempDir } from '../e2e/harness.js';

describe('sandbox --host beyond loopback', () => {
  it('with the default key: a warning on stderr naming the host and the way out', async () => {
    const result = await runServingCli(['sandbox', '--host', '0.0.0.0', '--port', '0'], async () => undefined);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^newsstats sandbox: warning: listening on 0\.0\.0\.0, reachable from other machines, with the default key "sandbox" that anyone can guess; pass --key/m);
  });

  it('with a key of its own, or on loopback: no warning', async () => {
    for (const args of [['--host', '0.0.0.0', '--key', 'a-key-of-my-own'], ['--host', '127.0.0.1'], ['--host', '::1']]) {
      const result = await runServingCli(['sandbox', ...args, '--port', '0'], async () => undefined);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/warning/);
    }
  });
});

describe('the request log never holds the key', () => {
  it('not in a path, nor inside a longer query value or name, nor percent-encoded', async () => {
    const key = 'k3y/s3cr3t';
    const log = join(tempDir(), 'requests.jsonl');
    const server = await sandbox({ key, logFile: log });
    try {
      const headers = { 'X-Api-Key': key };
      for (const path of [`/api/data/people/${key}/links`, `/api/data/people/${encodeURIComponent(key)}/links`, `/api/data/people/search?q=x${key}x&${encodeURIComponent(key)}=1`]) {
        await fetch(`${server.url}${path}`, { headers }).then((response) => response.arrayBuffer());
      }
      const text = readFileSync(log, 'utf8') + JSON.stringify(await readLog(log));
      expect(text).not.toContain(key);
      expect(text).not.toContain(encodeURIComponent(key));
      expect(text).not.toContain('s3cr3t');
      expect(text).toContain('[redacted]');
    } finally {
      await server.close();
    }
  });
});

describe('the default port', () => {
  it('--help and docs/sandbox-server.md say 8787, what `newsstats sandbox` listens on', async () => {
    const help = (await runCli(['sandbox', '--help'])).stdout;
    expect(help).toMatch(/--port <port>\s+port; 0 picks a free one \(default: 8787\)/);
    const row = readFileSync(join(REPO, 'docs', 'sandbox-server.md'), 'utf8').split('\n').find((line) => line.startsWith('| `--port N`'))!;
    expect(row).toContain('`8787` for `newsstats sandbox`');
    expect(row).not.toMatch(/^\| `--port N` \| `port` \| `0`/);
  });
});
