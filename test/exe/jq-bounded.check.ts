/**
 * --jq's signal and memory bounds (test/hostile/jq-bounds.ts) in the single executable, which runs jq
 * in a worker started from assets inside itself (jq-web's script and jq.wasm). Before, it ran jq on
 * its main thread: `def f: f; f` ignored SIGTERM and `[range(1e9)]` grew without bound.
 *
 * The executable is copied to a folder of its own and run from a working folder holding a jq.wasm
 * that is not one: it must need nothing beside itself (no node_modules above it, as in the clone),
 * and read no jq.wasm but its own.
 */
import { copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { REPO, tempDir } from '../e2e/harness.js';
import { describeJqBounds } from '../hostile/jq-bounds.js';

const built = process.env.NEWSSTATS_EXE ?? join(REPO, 'build', 'newsstats');
let folder: string;
let exe: string;

beforeAll(() => {
  if (!existsSync(built)) throw new Error(`${built} does not exist: run npm run build:exe first (or set NEWSSTATS_EXE)`);
  folder = tempDir('newsstats-exe-');
  exe = join(folder, 'newsstats');
  copyFileSync(built, exe);
  writeFileSync(join(folder, 'jq.wasm'), 'not WebAssembly');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describeJqBounds(() => ({ file: exe, leadingArgs: [], cwd: folder }));
