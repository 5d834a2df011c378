#!/usr/bin/env node
// How long `npm test` takes on this machine, quiet and busy (#22: under 40 s quiet and 60 s busy on
// two cores). "Busy" is made, not waited for: as many CPU hogs (`node -e 'for(;;);'`) as the machine
// has cores run beside the suite, so the suite gets about half of each core, as when one other heavy
// job shares the machine. Wall time and CPU time (user + sys of vitest and every process it started,
// from GNU time) are printed per run, with the load average before each. `--workers N` runs vitest with
// that many files at once instead of vitest.config.ts's number, to compare.
//
// The first run after a clone or an edit transforms every file; later runs read vitest's module cache
// (node_modules/.experimental-vitest-cache): `--cold` empties it before each run.
//
// `--pool threads` runs vitest's worker threads instead of vitest.config.ts's processes, to compare;
// given with `--pool forks` too, each run takes both in turn, so the machine's drift falls on both alike.
//
//   npm run bench:suite [-- --runs 2] [-- --hogs N] [-- --only quiet|busy] [-- --node 24 --node 26] [-- --workers N] [-- --cold]
//   npm run bench:suite -- --only quiet --runs 3 --pool forks --pool threads
import { spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { nodesFromArgs, numberFlag, repeatedFlag, repo, table } from './lib.mjs';

const runs = numberFlag('--runs', 1);
const hogs = numberFlag('--hogs', availableParallelism());
const onlyAt = process.argv.indexOf('--only');
const modes = onlyAt > 0 ? [process.argv[onlyAt + 1]] : ['quiet', 'busy'];
const workers = numberFlag('--workers', 0);
const cold = process.argv.includes('--cold');
const nodes = nodesFromArgs();
/** Each pool to compare (undefined: vitest.config.ts's own). */
const pools = repeatedFlag('--pool');
const variants = pools.length === 0 ? [undefined] : pools;

/** One `vitest run` on `node` under GNU time: wall and CPU seconds, and whether it passed. */
function suiteRun(node, pool) {
  if (cold) rmSync(join(repo, 'node_modules', '.experimental-vitest-cache'), { recursive: true, force: true });
  const args = [node, join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(workers > 0 ? ['--maxWorkers', String(workers)] : []), ...(pool ? [`--pool=${pool}`] : [])];
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...args], { cwd: repo, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const [wall, user, sys] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  // A failed run is no figure: say which tests failed, so a flaky one can be found.
  if (result.status !== 0) console.error(`${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /FAIL|×|Error/.test(line)).slice(0, 40).join('\n'));
  return { wall, cpu: user + sys, passed: result.status === 0 };
}

const rows = [];
for (const node of nodes) {
  for (const mode of modes) {
    for (let run = 0; run < runs; run++) {
      for (const pool of variants) {
        const load = loadavg()[0].toFixed(2);
        const running = mode === 'busy' ? Array.from({ length: hogs }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' })) : [];
        const { wall, cpu, passed } = suiteRun(node.path, pool);
        for (const hog of running) hog.kill('SIGKILL');
        rows.push([node.label, pool ?? 'vitest.config.ts', mode === 'busy' ? `busy (${hogs} CPU hogs)` : 'quiet', `${wall.toFixed(1)} s`, `${cpu.toFixed(1)} s`, load, passed ? 'passed' : 'FAILED']);
        console.error(rows.at(-1).join('  '));
      }
    }
  }
}
console.log(table(['Node', 'pool', 'run', 'wall', 'CPU (user + sys)', 'load average before', 'result'], rows));
