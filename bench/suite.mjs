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
// `--v8-flags FLAGS`, given more than once, compares the V8 flags vitest.config.ts sets for the test
// process (SUITE_V8_FLAGS; "" for none, "default" for the config's own): each run takes every
// variant in turn, so the machine's drift falls on all of them alike.
//
//   npm run bench:suite [-- --runs 2] [-- --hogs N] [-- --only quiet|busy] [-- --node 24 --node 26] [-- --workers N] [-- --cold]
//   npm run bench:suite -- --only quiet --runs 3 --v8-flags default --v8-flags ''
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
/** Each V8 flag set to compare: its label in the table, and SUITE_V8_FLAGS for it (undefined: the config's own). */
const flagSets = repeatedFlag('--v8-flags');
const variants = (flagSets.length === 0 ? ['default'] : flagSets).map((flags) => (flags === 'default'
  ? { label: 'vitest.config.ts', suiteV8Flags: undefined }
  : { label: flags === '' ? 'none' : flags, suiteV8Flags: flags }));

/** One `vitest run` on `node` under GNU time: wall and CPU seconds, and whether it passed. */
function suiteRun(node, suiteV8Flags) {
  if (cold) rmSync(join(repo, 'node_modules', '.experimental-vitest-cache'), { recursive: true, force: true });
  const args = [node, join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...(workers > 0 ? ['--maxWorkers', String(workers)] : [])];
  const env = { ...process.env };
  if (suiteV8Flags === undefined) delete env.SUITE_V8_FLAGS;
  else env.SUITE_V8_FLAGS = suiteV8Flags;
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...args], { cwd: repo, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const [wall, user, sys] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  // A failed run is no figure: say which tests failed, so a flaky one can be found.
  if (result.status !== 0) console.error(`${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /FAIL|×|Error/.test(line)).slice(0, 40).join('\n'));
  return { wall, cpu: user + sys, passed: result.status === 0 };
}

const rows = [];
for (const node of nodes) {
  for (const mode of modes) {
    for (let run = 0; run < runs; run++) {
      for (const { label, suiteV8Flags } of variants) {
        const load = loadavg()[0].toFixed(2);
        const running = mode === 'busy' ? Array.from({ length: hogs }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' })) : [];
        const { wall, cpu, passed } = suiteRun(node.path, suiteV8Flags);
        for (const hog of running) hog.kill('SIGKILL');
        rows.push([node.label, label, mode === 'busy' ? `busy (${hogs} CPU hogs)` : 'quiet', `${wall.toFixed(1)} s`, `${cpu.toFixed(1)} s`, load, passed ? 'passed' : 'FAILED']);
        console.error(rows.at(-1).join('  '));
      }
    }
  }
}
console.log(table(['Node', 'V8 flags', 'run', 'wall', 'CPU (user + sys)', 'load average before', 'result'], rows));
