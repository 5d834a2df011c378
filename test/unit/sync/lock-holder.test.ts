/**
 * A sync killed outright (SIGKILL from `timeout`, an orchestrator, the OOM killer) whose parent has not
 * reaped it yet is a zombie: it still answers kill(pid, 0), so its lock was taken as held and the next
 * sync refused the lake, for as long as nobody reaped it (for good under a container's init that does
 * not reap orphans).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { holdsLock, processStart } from '../../../src/sync/destinations/lock-holder.js';

const parents: Array<ReturnType<typeof spawn>> = [];
afterEach(() => {
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
});

const stateOf = (pid: number) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

describe.runIf(process.platform === 'linux')("a lake's lock", () => {
  it('is not held by a process that has exited and is not yet reaped (a zombie)', async () => {
    // The shell's background child exits once told (a line on our pipe), after the shell has become
    // `sleep`, which never reaps it.
    const parent = spawn('sh', ['-c', 'exec 3<&0; (read line <&3) & echo $!; exec sleep 60 3<&-'], { stdio: ['pipe', 'pipe', 'ignore'] });
    parents.push(parent);
    const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (data: Buffer) => resolve(String(data).trim()))));
    const start = await processStart(pid);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    while (readFileSync(`/proc/${parent.pid!}/comm`, 'utf8').trim() !== 'sleep') await pause();
    expect(await holdsLock({ pid, start, host: hostname() })).toBe(true);
    parent.stdin!.end('go\n');
    while (stateOf(pid) !== 'Z') await pause();
    expect(await holdsLock({ pid, start, host: hostname() })).toBe(false);
  });

  it('is held by a process that runs', async () => {
    const parent = spawn('sleep', ['60'], { stdio: 'ignore' });
    parents.push(parent);
    expect(await holdsLock({ pid: parent.pid!, start: await processStart(parent.pid!), host: hostname() })).toBe(true);
  });
});
