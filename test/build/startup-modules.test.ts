/**
 * Which modules `--version`, `--help` and one query load, from the built CLI (bin/newsstats.cjs and
 * dist/): a command that starts loading a module it does not use fails here, not only in a benchmark
 * nobody ran (npm run bench:startup, bench:query). Each run is a child process with
 * record-modules.cjs preloaded; built-ins count from a bare `node -e 0`, so only what newsstats loads
 * is compared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { BIN, isolatedEnv, REPO, sandbox, spawnAndCollect, tempDir } from '../e2e/harness.js';

interface Loaded {
  /** dist/ files, relative to the repo, with esbuild's chunk hash left out: dist/chunks/registry. */
  dist: string[];
  /** Built-in modules loaded beyond a bare Node's. */
  builtins: string[];
}

const PRELOAD = join(REPO, 'test', 'build', 'record-modules.cjs');

async function loaded(args: string[], env: Record<string, string> = {}): Promise<Loaded> {
  const record = join(tempDir('newsstats-modules-'), 'loaded.json');
  const result = await spawnAndCollect(process.execPath, ['-r', PRELOAD, ...args], isolatedEnv(tempDir(), { ...env, NEWSSTATS_RECORD_MODULES: record }));
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const { files, builtins } = JSON.parse(readFileSync(record, 'utf8')) as { files: string[]; builtins: string[] };
  return {
    dist: files.filter((file) => file.startsWith(join(REPO, 'dist'))).map((file) => file.slice(REPO.length + 1).replace(/-[A-Z0-9]{8}\.js$|\.js$/, '')),
    builtins,
  };
}

/** Built-ins a command that sends no request must never load (net is not one: a piped stdout is a socket). */
const NETWORK = ['tls', 'http', 'https', 'http2', 'dns', 'zlib', 'crypto'];
/** Loaded by no command here: the CLI's build leaves HTTP/2 out (scripts/build.mjs, withoutHttp2). */
const NEVER = ['http2', 'worker_threads'];

let server: RunningSandbox;
let bare: Set<string>;
beforeAll(async () => {
  server = await sandbox();
  bare = new Set((await loaded(['-e', '0'])).builtins);
});
afterAll(() => server.close());

const beyondBare = ({ dist, builtins }: Loaded) => ({ dist, builtins: builtins.filter((name) => !bare.has(name)) });

describe('modules each command loads (the built CLI)', () => {
  it('--version: nothing of dist/ (bin/newsstats.cjs answers it), no network module', async () => {
    const { dist, builtins } = beyondBare(await loaded([BIN, '--version']));
    expect(dist).toEqual([]);
    expect(builtins.filter((name) => NETWORK.includes(name) || NEVER.includes(name))).toEqual([]);
  });

  it('--help and people top --help, piped: nothing of dist/ but their text (bin/newsstats.cjs prints dist/help), no network module', async () => {
    for (const args of [['--help'], ['people', 'top', '--help']]) {
      const { dist, builtins } = beyondBare(await loaded([BIN, ...args]));
      expect(dist).toEqual([]);
      expect(builtins.filter((name) => NETWORK.includes(name) || NEVER.includes(name) || name === 'tty')).toEqual([]);
    }
  });

  it('a help main() lays out (people nope --help): the command table and the noun, no renderer, undici or network module', async () => {
    const { dist, builtins } = beyondBare(await loaded([BIN, 'people', 'nope', '--help']));
    expect(dist).toContain('dist/chunks/registry');
    expect(dist.filter((file) => /^dist\/chunks\/(countries|articles|export|table|csv|json|xlsx|http|client|conf)/.test(file))).toEqual([]);
    // 31 since the flags' help shows the client's defaults from the settings table: src/api/options.ts
    // (HTTP_DEFAULTS, 1.4 KB, no imports) is a chunk of its own, shared with the request path. 32
    // since `help weeks` lays out its examples as --help does: help-examples.ts is shared with it.
    // 33 since the gender codes (src/api/gender.ts, 121 bytes) are shared with the MCP tools' inputs.
    // 35 since the field lists come from the one schema (src/schema/contract.ts and spec.ts, chunks of their own).
    expect(dist.length).toBeLessThanOrEqual(35);
    expect(builtins.filter((name) => NETWORK.includes(name) || NEVER.includes(name))).toEqual([]);
  });

  it('people top -f json: the noun and the JSON renderer; not HTTP/2, tables, CSV, conf or the promise file system', async () => {
    const env = { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key };
    const { dist, builtins } = beyondBare(await loaded([BIN, 'people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'json'], env));
    expect(dist).toEqual(expect.arrayContaining(['dist/chunks/people', 'dist/chunks/json']));
    expect(dist.filter((file) => /^dist\/chunks\/(table|csv|tsv|chart|xlsx|conf|completion)/.test(file))).toEqual([]);
    // 64 since the client's checks read the one schema (src/schema/: the contract, its vocabulary and
    // what it says by field name) and the shared timestamp and integer readings, chunks of their own.
    // 62 since main.ts and dependencies.ts import output/pipe.ts and the version statically: each
    // import() had loaded a file of its own, which only re-exported a chunk loaded already. 63 since
    // an s3:// lake's store follows the API's proxy rule: src/api/core/proxy.ts (3.5 KB, no imports)
    // is shared with sync's object-storage destination, so a chunk of its own.
    expect(dist.length).toBeLessThanOrEqual(63);
    expect(builtins).toContain('net');
    expect(builtins.filter((name) => NEVER.includes(name))).toEqual([]);
    // Output to stdout writes no file: Node's promise file system (1 ms of CPU on Node 24) stays unloaded.
    expect(builtins).not.toContain('fs/promises');
  });

  it('sync: not node:crypto, and no scratch file left behind', async () => {
    // Loading node:crypto starts OpenSSL: 4 MiB of a sync's peak on Node 24, 6 on Node 26, for the
    // temporary files' names alone (src/sync/destinations/local.ts, temporaryName).
    const env = { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key };
    const lake = join(tempDir(), 'lake');
    const { builtins } = beyondBare(await loaded([BIN, 'sync', lake, '--since', String(addWeeks(isoWeekOf(new Date()), -2)), '--streams', 'rankings,links', '--depth', '3', '--top', '2', '--links-limit', '3', '-q'], env));
    expect(builtins).not.toContain('crypto');
    expect(readdirSync(join(lake, '_newsstats', 'links')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(join(lake, 'links')).length).toBeGreaterThan(0);
  });
});
