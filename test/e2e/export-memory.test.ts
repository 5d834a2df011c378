/**
 * "Memory stays flat because rows stream to the output": an export many times larger than the heap
 * it is allowed completes, byte for byte the same as with an unbounded heap. Were rows gathered
 * before writing, the capped run would die of heap exhaustion.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCli, useLoggedSandbox } from './harness.js';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

describe('export memory', () => {
  const logged = useLoggedSandbox();

  it('streams a 20 MB export through a 24 MB heap, identical to an unbounded run', async () => {
    const args = ['export', 'links', '--top', '400', '--weeks', 'last4', '--limit', '250', '-f', 'csv', '-q'];
    const [unbounded, capped] = await Promise.all([
      runCli(args, { env: logged.env, timeoutMs: 60_000 }),
      runCli(args, { env: { ...logged.env, NODE_OPTIONS: '--max-old-space-size=24' }, timeoutMs: 60_000 }),
    ]);
    expect(unbounded.code).toBe(0);
    expect(capped.code, capped.stderr).toBe(0);
    expect(unbounded.stdout.length).toBeGreaterThan(15_000_000);
    expect(digest(capped.stdout)).toBe(digest(unbounded.stdout));
  }, 90_000);
});
