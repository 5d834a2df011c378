// What the benchmarks share: the sandbox in its own process, timed runs of a command with their peak
// memory, medians. Every benchmark alternates its commands run by run so all see the same machine load.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
export const bin = join(repo, 'bin', 'newsstats.cjs');
export const home = mkdtempSync(join(tmpdir(), 'newsstats-bench-'));
// Each run's folder goes with it (lakes, caches, exports: 200 runs had left 9 GB in /tmp). On ext4
// without a journal the files freed here slow the files another run makes in the next minute
// (docs/performance.md, "sync", "Files freed a moment before"): leave a minute between sittings.
process.on('exit', () => rmSync(home, { recursive: true, force: true }));
export const benchEnv = { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') };
export const KEY = 'bench-key';

/**
 * A module of src/ that is no entry of dist/ (its code lives in shared chunks there), bundled on its
 * own with its dependencies into this run's temporary folder and imported: what a benchmark of one
 * internal piece (the CSV writer, the JSON parser) measures.
 */
export async function loadSource(path) {
  const { build } = await import('esbuild');
  const outfile = join(home, 'src', path.replace(/\.ts$/, '.mjs'));
  await build({ entryPoints: [join(repo, 'src', path)], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20.19', logLevel: 'warning', external: ['exceljs'] });
  return import(pathToFileURL(outfile).href);
}

/** `--name N` from the command line, or the fallback. */
/** Every value of a flag that may be given more than once (`--node 24 --node 26`), in order. */
export function repeatedFlag(name) {
  return process.argv.flatMap((arg, index) => (process.argv[index - 1] === name ? [arg] : []));
}

export function numberFlag(name, fallback) {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The CLI's sandbox in a process of its own (as a real service would be), on 127.0.0.1 port 0. */
export function startSandbox(latency = 0) {
  return new Promise((resolve, reject) => {
    const args = [bin, 'sandbox', '--port', '0', '--now', '2026-11-22', '--key', KEY];
    if (latency > 0) args.push('--latency', String(latency));
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8').once('data', (line) => resolve({ url: line.trim(), stop: () => child.kill('SIGTERM') }));
    child.once('error', reject);
  });
}

// GNU time reports the peak resident set of the command (and, for a shell, of its largest child).
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const rssFile = join(home, 'rss');

/**
 * `--cpu`: each command's CPU time (task-clock of the whole process, its threads included, from Linux
 * perf: `perf stat -e task-clock`) stands in for its wall time. On a machine shared with other jobs,
 * wall time measures the load more than the command; CPU time much less.
 */
const cpuTime = process.argv.includes('--cpu');
const perfFile = join(home, 'perf');
if (cpuTime && spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '-o', perfFile, '--', 'true']).status !== 0) {
  throw new Error('--cpu needs Linux perf (perf stat -e task-clock): install linux-perf, or measure wall time without --cpu');
}

/** Runs a command to the end: wall milliseconds (CPU milliseconds with --cpu), peak RSS in MiB (when GNU time is there), stdout. */
export function timed(command, args, env = {}) {
  let [file, argv] = gnuTime ? [gnuTime, ['-f', '%M', '-o', rssFile, command, ...args]] : [command, args];
  if (cpuTime) [file, argv] = ['perf', ['stat', '-x,', '-e', 'task-clock', '-o', perfFile, '--', file, ...argv]];
  const started = process.hrtime.bigint();
  const result = spawnSync(file, argv, { env: { ...benchEnv, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });
  let ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${result.status}: ${result.stderr}`);
  if (cpuTime) ms = Number(readFileSync(perfFile, 'utf8').split('\n').find((line) => line.includes('task-clock')).split(',')[0]);
  const rssMiB = gnuTime ? Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1)) / 1024 : NaN;
  return { ms, rssMiB, stdout: result.stdout };
}

/** `--cold`: every run of newsstats starts with an empty cache folder, as a cron job in a fresh container does. */
export const cold = process.argv.includes('--cold');
let coldRuns = 0;

/** The environment of one newsstats run: with --cold, a cache folder of its own that no run has used. */
export function cacheEnv(env = {}) {
  return cold ? { ...env, XDG_CACHE_HOME: join(home, `cold-cache-${coldRuns++}`) } : env;
}

/**
 * Runs every way `runs` times, alternating them run by run after two warm-up rounds that are not kept,
 * and returns each way's samples ({ ms, rssMiB, stdout }), run i of every way side by side.
 */
export function sampleRuns(ways, runs) {
  const samples = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  // Round 0 warms the server's caches and the file system, and makes newsstats' code cache folder;
  // round 1 writes the caches (bin/code-cache.cjs writes none on an install's first run on a Node).
  for (let run = 0; run <= runs + 1; run += 1) {
    for (const [name, way] of Object.entries(ways)) {
      const sample = way();
      if (run > 1) samples[name].push(sample);
    }
  }
  return samples;
}

/** The median of a's time over b's, taken run by run (both sampled by the same sampleRuns). */
export const pairedRatio = (a, b) => median(a.map((sample, index) => sample.ms / b[index].ms));

/**
 * Runs every way `runs` times, alternating them run by run after two warm-up rounds, and returns the
 * median ms, median ratio to `baseline` (paired run by run) and median peak RSS of each.
 */
export function interleave(ways, runs, baseline) {
  const samples = sampleRuns(ways, runs);
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, {
    ms: median(list.map((s) => s.ms)),
    rssMiB: median(list.map((s) => s.rssMiB)),
    ratio: pairedRatio(list, samples[baseline]),
  }]));
}

/**
 * The Node binaries to measure: each `--node PATH`, or `--node 24` for the npm registry's node@24 (npx
 * installs it once into its cache), in the order given; without the flag, the Node running this.
 */
export function nodesFromArgs() {
  const given = repeatedFlag('--node');
  const paths = given.length === 0 ? [process.execPath] : given.map((node) => (/^\d+$/.test(node)
    ? spawnSync('npx', ['-y', `node@${node}`, '-p', 'process.execPath'], { encoding: 'utf8' }).stdout.trim()
    : node));
  return paths.map((path) => {
    const version = spawnSync(path, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();
    if (!version) throw new Error(`${path} is not a Node binary that runs here`);
    return { path, version, label: `Node ${version.slice(1)}` };
  });
}

/** A Markdown table: the header row, then rows of cells. */
export function table(header, rows) {
  return [header, header.map((_, index) => (index === 0 ? '---' : '---:')), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
