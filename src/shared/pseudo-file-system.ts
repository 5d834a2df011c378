/**
 * Kernel file systems that exist as folders but take no new file or folder: root may write anywhere,
 * yet a file or a folder made in /proc or /sys fails with ENOENT, which reads as a missing folder.
 * Used to say what the folder is instead (an --output file, a sync's lake).
 */
import { statfsSync } from 'node:fs';

/** statfs f_type magic numbers, and what each is. */
const PSEUDO_FILE_SYSTEMS = new Map<number, string>([
  [0x9fa0, 'the kernel\'s process file system (proc)'],
  [0x62656572, 'the kernel\'s sysfs'],
  [0x27e0eb, 'a cgroup file system'],
  [0x63677270, 'a cgroup2 file system'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x1cd1, 'devpts'],
  [0xcafe4a11, 'bpffs'],
]);

/** What kernel file system holds `folder`, when it is one that takes no new entry; else undefined. */
export function pseudoFileSystemOf(folder: string): string | undefined {
  try {
    return PSEUDO_FILE_SYSTEMS.get(statfsSync(folder).type);
  } catch {
    return undefined;
  }
}
