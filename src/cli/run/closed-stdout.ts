/**
 * A stdout the shell closed (`newsstats ... >&-`). Node reopens a closed descriptor 0-2 on /dev/null
 * before any of our code runs, so without this the output went nowhere and the run said exit 0: a
 * C program's first write gets EBADF instead, and `ls >&-` says "write error". Here such a stdout
 * is replaced by a stream whose writes fail with EBADF, which the run reports as any failed stdout
 * (one line, exit 6), and a command that would write its data there is refused before any request.
 *
 * What Node leaves behind is /dev/null open for reading and writing, which is also what a program
 * gives a child whose output it discards (Node's stdio 'ignore', Python's DEVNULL): those must keep
 * working. A shell never does that (`>/dev/null` opens it write-only), so the reopened stdout counts as
 * closed only when a shell started us and the shell's own stdout is not that same discarding kind.
 * Linux only (it reads /proc); elsewhere the run behaves as before.
 */
import { fstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ksh93', 'mksh', 'pdksh', 'oksh', 'ash', 'busybox', 'yash', 'posh', 'fish', 'tcsh', 'csh']);

/** O_RDWR in the access-mode bits of an open file's flags. */
const O_RDWR = 2;

/** The access mode (0 read, 1 write, 2 both) of descriptor `fd` of process `pid`, from Linux's fdinfo. */
function accessMode(pid: number | 'self', fd: number): number | undefined {
  const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
  return flags === undefined ? undefined : Number.parseInt(flags, 8) & 3;
}

/** /dev/null open for reading and writing on descriptor `fd` of process `pid`. */
function isReadWriteDevNull(pid: number | 'self', fd: number): boolean {
  return readlinkSync(`/proc/${pid}/fd/${fd}`) === '/dev/null' && accessMode(pid, fd) === O_RDWR;
}

export function stdoutWasClosed(proc: Pick<NodeJS.Process, 'platform' | 'ppid'>): boolean {
  if (proc.platform !== 'linux') return false;
  try {
    // The common case costs one fstat: stdout is a terminal, a pipe or a file.
    const stat = fstatSync(1);
    if (!stat.isCharacterDevice() || stat.rdev !== statSync('/dev/null').rdev) return false;
    if (!isReadWriteDevNull('self', 1)) return false;
    if (!SHELLS.has(readFileSync(`/proc/${proc.ppid}/comm`, 'utf8').trim())) return false;
  } catch {
    return false;
  }
  try {
    // The shell's own stdout discarded the same way: we inherited it from a program, nobody closed it.
    return !isReadWriteDevNull(proc.ppid, 1);
  } catch (error) {
    // The shell has no stdout at all: ours was closed too. Anything else (no permission): as before.
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Stands in for a closed stdout: every write fails as it would have on the closed descriptor. */
export class ClosedStdout extends Writable {
  override _write(_chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    callback(closedStdoutError());
  }
}

export function closedStdoutError(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EBADF'), { code: 'EBADF', errno: -9, syscall: 'write' });
}
