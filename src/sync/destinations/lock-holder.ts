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

/** The start time of a process (clock ticks after boot, Linux's /proc/PID/stat field 22), if known. */
export async function processStart(pid: number | 'self'): Promise<string | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
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
  if (holder.start === undefined) return true;
  const start = await processStart(holder.pid);
  return start === undefined || start === holder.start;
}
