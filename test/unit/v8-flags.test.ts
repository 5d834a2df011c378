/**
 * The CLI raises V8's WebAssembly tiering budget for undici's HTTP parser, then sets it back to V8's
 * default (src/cli/run/dependencies.ts): only the default leaves the hash of V8's flags, which every code
 * cache is checked against (Node's for its own modules, bin/code-cache.cjs's for dist/), as it was.
 */
import { execFileSync } from 'node:child_process';
import { cachedDataVersionTag } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { WASM_TIERING_BUDGET_DEFAULT } from '../../src/cli/run/dependencies.js';
import { Lifecycle } from '../../src/cli/run/lifecycle.js';

const ownsProcess = { on() {}, once() {}, off() {}, exit() {} } as never;

describe('V8 flags the CLI sets for a moment', () => {
  it("knows this Node's default WebAssembly tiering budget", () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const fallback = /--wasm-tiering-budget \(.*\n\s*type: int\s+default: --wasm-tiering-budget=(\d+)/.exec(options);
    expect(Number(fallback?.[1])).toBe(WASM_TIERING_BUDGET_DEFAULT);
  });

  it('sets the budget back so the flags hash as before, once, and only when the run owns its process', async () => {
    const before = cachedDataVersionTag();
    const undo = await new Lifecycle(ownsProcess).tuneV8('--wasm-tiering-budget=2147483647', `--wasm-tiering-budget=${WASM_TIERING_BUDGET_DEFAULT}`);
    try {
      expect(cachedDataVersionTag()).not.toBe(before);
    } finally {
      undo();
    }
    expect(cachedDataVersionTag()).toBe(before);
    undo();
    expect(cachedDataVersionTag()).toBe(before);

    await new Lifecycle().tuneV8('--wasm-tiering-budget=2147483647', `--wasm-tiering-budget=${WASM_TIERING_BUDGET_DEFAULT}`);
    expect(cachedDataVersionTag()).toBe(before);
  });

  it("sets a bulk run's flags back as the run closes, so the flags hash as before (the code caches written at exit are those of its files)", async () => {
    const before = cachedDataVersionTag();
    const lifecycle = new Lifecycle(ownsProcess);
    try {
      await lifecycle.tuneV8('--no-wasm-tier-up --no-wasm-dynamic-tiering', '--wasm-tier-up --wasm-dynamic-tiering');
      await lifecycle.tuneHeapForBulk();
      expect(cachedDataVersionTag()).not.toBe(before);
    } finally {
      await lifecycle.close();
    }
    expect(cachedDataVersionTag()).toBe(before);
  });
});
