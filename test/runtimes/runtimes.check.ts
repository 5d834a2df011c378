/**
 * The library in the runtimes where undici does not run (issue #32 item 7): Deno, Bun and workerd (the
 * runtime of Cloudflare Workers). One small consumer of the built package (`import { NewsStatsClient }
 * from 'newsstats'`, as a user writes it) asks the sandbox for the current week, the top 3 people and the
 * first person's article links; each runtime's answer must equal Node's, and an articleHash beyond 2^53
 * must arrive as the exact string of its digits. package.json `imports` gives Deno, Bun and workerd the
 * fetch transport (their export conditions), Node undici.
 *
 * The runtimes come from the npm registry's packages deno, bun and workerd (their binaries ride in
 * per-platform optional packages; nothing downloads at run time). Together they take about 600 MB, so
 * they are not devDependencies: this test installs them with `npm install --prefix` into
 * node_modules/.cache/newsstats-runtimes (reused while it holds them; `npm ci` removes it, or delete it
 * by hand; NEWSSTATS_RUNTIMES_DIR names another folder). A runtime whose package fails to install or whose
 * binary does not run on this machine is skipped with its reason printed, never passed.
 * Needs dist/esm (test/global-setup.ts builds it).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { REPO, sandbox, spawnAndCollect } from '../e2e/harness.js';

/** The registry packages; semver ranges, so CI takes their fixes. The versions run are printed. */
const PACKAGES = { deno: 'deno@^2.9.6', bun: 'bun@^1.4.5', workerd: 'workerd@^1.20261117.1' } as const;
type Runtime = keyof typeof PACKAGES;
const RUNTIMES_DIR = process.env.NEWSSTATS_RUNTIMES_DIR ?? join(REPO, 'node_modules', '.cache', 'newsstats-runtimes');
const binary = (runtime: Runtime) => join(RUNTIMES_DIR, 'node_modules', '.bin', runtime);

/** The consumer: what each runtime runs. Identifiers come back as strings (the library's native mode). */
const CONSUMER = `import { NewsStatsClient } from 'newsstats';
export async function answer(baseUrl, apiKey) {
  const client = new NewsStatsClient({ baseUrl, apiKey });
  const week = await client.weeks.current();
  const top = await client.people.top({ weeks: 'last4', limit: 3 });
  const links = await client.people.links(top[0].personHash, { limit: 20 });
  return { week, top, links };
}
`;
/** Deno and Bun and Node: the base URL and key as arguments, the answer as JSON on stdout. */
const SCRIPT = `import { answer } from './consumer.mjs';
const [url, key] = typeof Deno === 'object' ? Deno.args : process.argv.slice(2);
console.log(JSON.stringify(await answer(url, key)));
`;
/** workerd: a Worker whose fetch handler asks the sandbox named by its bindings. */
const WORKER = `import { answer } from './consumer.mjs';
export default {
  async fetch(request, env) {
    try {
      return Response.json(await answer(env.SANDBOX_URL, env.SANDBOX_KEY));
    } catch (error) {
      return new Response(String(error && error.stack || error), { status: 500 });
    }
  },
};
`;

let server: RunningSandbox;
let project: string;
let nodeAnswer: Answer;
const versions: Partial<Record<Runtime, string>> = {};
const unavailable: Partial<Record<Runtime, string>> = {};

interface Answer { week: unknown; top: Array<{ personHash: string }>; links: Array<{ articleHash: unknown }> }

/** Installs the runtimes missing from RUNTIMES_DIR (all at once, then one by one if that fails). */
function install(): void {
  const missing = (Object.keys(PACKAGES) as Runtime[]).filter((runtime) => !existsSync(binary(runtime)));
  if (missing.length === 0) return;
  mkdirSync(RUNTIMES_DIR, { recursive: true });
  if (!existsSync(join(RUNTIMES_DIR, 'package.json'))) writeFileSync(join(RUNTIMES_DIR, 'package.json'), '{ "private": true }\n');
  const npm = (specs: string[]) => execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--prefix', RUNTIMES_DIR, ...specs], { stdio: 'pipe', encoding: 'utf8' });
  console.log(`installing ${missing.map((runtime) => PACKAGES[runtime]).join(' ')} into ${RUNTIMES_DIR}`);
  try {
    npm(missing.map((runtime) => PACKAGES[runtime]));
  } catch {
    for (const runtime of missing) {
      try {
        npm([PACKAGES[runtime]]);
      } catch (error) {
        unavailable[runtime] = `npm install ${PACKAGES[runtime]} failed: ${String((error as { stderr?: string }).stderr ?? error).split('\n').filter((line) => line.startsWith('npm error')).slice(0, 2).join(' ')}`;
      }
    }
  }
}

/** Each installed runtime's version, or why it does not run here. */
function probe(): void {
  for (const runtime of Object.keys(PACKAGES) as Runtime[]) {
    if (unavailable[runtime]) continue;
    try {
      versions[runtime] = execFileSync(binary(runtime), ['--version'], { encoding: 'utf8', stdio: 'pipe' }).trim().split('\n')[0]!;
    } catch (error) {
      unavailable[runtime] = `${binary(runtime)} --version failed: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  console.log(`runtimes: ${JSON.stringify(versions)}`);
}

/** Skips the test with its reason printed when the runtime could not be installed or run. */
function skipUnlessAvailable(runtime: Runtime, skip: (note: string) => void): void {
  const reason = unavailable[runtime];
  if (reason === undefined) return;
  console.warn(`SKIPPED ${runtime}: ${reason}`);
  skip(`${runtime} unavailable: ${reason}`);
}

async function runScript(file: string, args: string[]): Promise<Answer> {
  const result = await spawnAndCollect(file, [...args, 'run.mjs', server.url, server.key], { PATH: process.env.PATH ?? '', HOME: project, DENO_DIR: join(project, '.deno'), NO_COLOR: '1' }, { cwd: project, noStdin: true, timeoutMs: 30_000 });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Answer;
}

beforeAll(async () => {
  server = await sandbox();
  // A project with newsstats installed, as npm links it; the runtimes resolve its dependencies
  // (lossless-json) from the package's own node_modules, as they would from a real install.
  project = mkdtempSync(join(tmpdir(), 'newsstats-runtimes-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO, join(project, 'node_modules', 'newsstats'));
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "dependencies": { "newsstats": "*" } }\n');
  writeFileSync(join(project, 'consumer.mjs'), CONSUMER);
  writeFileSync(join(project, 'run.mjs'), SCRIPT);
  writeFileSync(join(project, 'worker.mjs'), WORKER);
  install();
  probe();
  nodeAnswer = await runScript(process.execPath, []);
});
afterAll(() => server.close());

describe('Node, the reference', () => {
  it('answers 3 people and their links, an articleHash beyond 2^53 as its exact digits', () => {
    expect(nodeAnswer.top).toHaveLength(3);
    expect(nodeAnswer.links.length).toBeGreaterThan(0);
    for (const { articleHash } of nodeAnswer.links) expect(articleHash).toMatch(/^\d+$/);
    expect(nodeAnswer.links.some(({ articleHash }) => BigInt(articleHash as string) > 2n ** 53n)).toBe(true);
  });
});

describe('the same consumer in the runtimes without undici, against the sandbox', () => {
  it('Deno (npm package from node_modules, --allow-net=127.0.0.1 --allow-read): the same answer as Node', async ({ skip }) => {
    skipUnlessAvailable('deno', skip);
    const answer = await runScript(binary('deno'), ['run', '--quiet', '--no-config', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-read']);
    expect(answer).toEqual(nodeAnswer);
  });

  it('Bun: the same answer as Node', async ({ skip }) => {
    skipUnlessAvailable('bun', skip);
    expect(await runScript(binary('bun'), ['run', '--no-install'])).toEqual(nodeAnswer);
  });

  it('workerd (Cloudflare Workers): a Worker bundled by esbuild answers Node\'s answer', async ({ skip }) => {
    skipUnlessAvailable('workerd', skip);
    const bundle = await build({
      entryPoints: [join(project, 'worker.mjs')], outfile: join(project, 'worker.js'), bundle: true, format: 'esm',
      platform: 'neutral', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'], logLevel: 'silent',
    });
    expect(bundle.warnings).toEqual([]);
    // The Worker's outgoing fetches go through a network service that may reach 127.0.0.1 (workerd's
    // default "internet" service reaches public addresses only).
    writeFileSync(join(project, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-01-01",
  bindings = [(name = "SANDBOX_URL", text = ${JSON.stringify(server.url)}), (name = "SANDBOX_KEY", text = ${JSON.stringify(server.key)})],
  globalOutbound = "loopback",
);
`);
    const { child, port, stderr } = await startWorkerd(join(project, 'config.capnp'));
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const text = await response.text();
      expect({ status: response.status, text: response.status === 200 ? '' : text }).toEqual({ status: 200, text: '' });
      expect(JSON.parse(text)).toEqual(nodeAnswer);
    } finally {
      child.kill();
    }
    expect(stderr()).not.toMatch(/error/i);
  });
});

/** Starts workerd on port 0 and learns the port from its control descriptor (--control-fd). */
function startWorkerd(config: string): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary('workerd'), ['serve', config, '--control-fd=3'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let errors = '';
    let control = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    child.stdout!.resume();
    const timer = setTimeout(() => { child.kill(); reject(new Error(`workerd did not listen within 20 s: ${errors}`)); }, 20_000);
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: string) => {
      control += chunk;
      for (const line of control.split('\n')) {
        if (!line.trim()) continue;
        const event = JSON.parse(line) as { event?: string; socket?: string; port?: number };
        if (event.event === 'listen' && event.socket === 'http' && event.port) {
          clearTimeout(timer);
          resolvePromise({ child, port: event.port, stderr: () => errors });
        }
      }
    });
    child.on('error', (error) => { clearTimeout(timer); reject(error); });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`workerd exited (${code}) before listening: ${errors}`)); });
  });
}
