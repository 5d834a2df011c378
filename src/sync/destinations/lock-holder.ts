/**
 * Whether the process a lake's lock names still runs, for both destinations: a lock left by a run
 * killed on this host (SIGKILL, a crash) is taken over at once rather than waited out.
 */
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Who holds a lock: its process, that process's start (a pid is reused), and its host. */
export interface ProcessHolder {
  pid: number;
  start?: string;
  host: string;
}

/** Linux's /proc/PID/stat fields after the command's name (field 3 on), if known. */
async function statFields(pid: number | 'self'): Promise<string[] | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The start time of a process (clock ticks after boot, Linux's /proc/PID/stat field 22), if known. */
export async function processStart(pid: number | 'self'): Promise<string | undefined> {
  return (await statFields(pid))?.[19];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process a lock names still runs: on another host it is assumed to; here, it must be
 * alive and have the same start (a pid is reused).
 */
export async function holdsLock(holder: ProcessHolder): Promise<boolean> {
  if (holder.host !== hostname()) return true;
  if (!isAlive(holder.pid)) return false;
  const fields = await statFields(holder.pid);
  // A process that has exited and is not yet reaped (a zombie, Z; X while it goes) still answers
  // kill(pid, 0): a sync killed outright whose parent had not waited for it (`timeout -s KILL`, a
  // container's init that reaps no orphans) kept its lake locked.
  if (fields?.[0] === 'Z' || fields?.[0] === 'X') return false;
  if (holder.start === undefined) return true;
  const start = fields?.[19];
  return start === undefined || start === holder.start;
}
