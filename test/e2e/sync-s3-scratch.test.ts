/**
 * Where a sync to object storage holds the links it has fetched and not yet merged (#33 item 6, the
 * peak): in a file of ours, in a private folder (0700, the file 0600) made under TMPDIR, not in the
 * process's memory; nothing of it left after a run, or after a SIGTERM while links wait. Where no
 * such folder can be made, the run holds them in memory and says so in one line.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, type LocalS3 } from './s3-server.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const LINKS = ['--streams', 'links', '--top', '2', '--links-limit', '3', '--concurrency', '1'];

let slow: RunningSandbox;
let s3: LocalS3;
beforeAll(async () => {
  // Slow answers, so the links of the first weeks wait a while for the merge at the run's end.
  slow = await sandbox({ now: NOW, latencyMs: 100 });
  s3 = await localS3('lake');
});
afterAll(async () => {
  await s3?.close();
  await slow?.close();
});

/** What a run left in its temporary folder: each entry, with what is in it. */
function leftIn(tmp: string): string[] {
  return readdirSync(tmp).flatMap((name) => [name, ...readdirSync(join(tmp, name)).map((inner) => `${name}/${inner}`)]);
}

describe('the links a sync to object storage holds until its merge', () => {
  it('wait in a file of ours in a private folder under TMPDIR; SIGTERM removes both', async () => {
    const tmp = tempDir();
    let seen: { folderMode: number; fileMode: number; name: string } | undefined;
    const result = await spawnCli(['sync', 's3://lake/term', '--since', String(addWeeks(LAST, -11)), ...LINKS], {
      env: { ...sandboxEnv(slow), ...s3.env, TMPDIR: tmp },
      onSpawn: (child) => {
        const poll = setInterval(() => {
          const folder = readdirSync(tmp)[0];
          const file = folder === undefined ? undefined : readdirSync(join(tmp, folder))[0];
          if (folder === undefined || file === undefined || statSync(join(tmp, folder, file)).size === 0) return;
          seen = { folderMode: statSync(join(tmp, folder)).mode & 0o777, fileMode: statSync(join(tmp, folder, file)).mode & 0o777, name: `${folder}/${file}` };
          clearInterval(poll);
          child.kill('SIGTERM');
        }, 5);
        child.on('close', () => clearInterval(poll));
      },
    });
    expect(seen, result.stderr).toBeDefined();
    expect(seen!.name).toMatch(/^newsstats-sync-[A-Za-z0-9]{6}\/held\.ndjson$/);
    expect(seen!.folderMode).toBe(0o700);
    expect(seen!.fileMode).toBe(0o600);
    expect(result.code, result.stderr).toBe(143);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('leave nothing in TMPDIR after a run', async () => {
    const tmp = tempDir();
    const result = await spawnCli(['sync', 's3://lake/whole', '--since', String(addWeeks(LAST, -1)), ...LINKS], { env: { ...sandboxEnv(slow), ...s3.env, TMPDIR: tmp } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^sync: wrote \d+ partitions? /m);
    expect(result.stderr).not.toMatch(/TMPDIR/);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('wait in memory where no private folder can be made, said in one line naming TMPDIR', async () => {
    const missing = join(tempDir(), 'not-there');
    const result = await spawnCli(['sync', 's3://lake/readonly', '--since', String(addWeeks(LAST, -1)), ...LINKS], { env: { ...sandboxEnv(slow), ...s3.env, TMPDIR: missing } });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => /TMPDIR/.test(line));
    expect(lines).toEqual([`sync: no private folder could be made under ${missing} (no such directory (ENOENT)), so the links wait for their merge in memory; set TMPDIR to a writable folder to keep them in a file`]);
    expect(result.stderr).toMatch(/^sync: wrote \d+ partitions? /m);
    expect(existsSync(missing)).toBe(false);
  });
});
