/**
 * A sync killed with SIGKILL at random moments (#33), into a folder and into object storage (s3rver on
 * 127.0.0.1 port 0), then resumed, ends with the files of a run never interrupted, and leaves no lock
 * to wait out.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addWeeks } from '../../src/shared/weeks.js';
import { sandboxEnv, spawnCli, tempDir } from './harness.js';
import { W, download, files, parquetFiles, sync, useLakeServers, type State } from './lake-fixture.js';

const servers = useLakeServers();

describe('a sync killed with SIGKILL at random moments', () => {
  // Six weeks of every stream: about thirty files, so the kills fall at many points.
  const options = ['--since', String(addWeeks(W, -4)), '--depth', '4', '--top', '2', '--links-limit', '4'];
  let want: Map<string, Buffer>;
  beforeAll(async () => {
    const reference = join(tempDir(), 'lake');
    await sync(servers, reference, servers.after, options);
    want = files(reference);
  });

  for (const where of ['a folder', 'object storage']) {
    it(`${where}: resumed, ends with the files of a run never interrupted; no lock is left to wait out`, async () => {
      const prefix = `killed-${process.pid}`;
      const lake = where === 'a folder' ? join(tempDir(), 'lake') : `s3://lake/${prefix}`;
      // How far a run has gone: Parquet objects sent (object storage), Parquet files landed (a folder).
      const progress = () => (where === 'a folder'
        ? parquetFiles(lake)
        : servers.s3.requests.filter((line) => line.startsWith(`PUT /lake/${prefix}/`) && line.includes('.parquet')).length);
      const total = [...want.keys()].filter((path) => path.endsWith('.parquet')).length;
      // Kills after a random amount of progress (a different moment on every run of the test);
      // whatever the moment, the verdict is the same.
      for (let kill = 0; kill < 3; kill++) {
        const start = progress();
        const at = start + 1 + Math.floor(Math.random() * Math.max(total - 2, 1));
        const result = await spawnCli(['sync', lake, ...options], {
          env: { ...sandboxEnv(servers.after), ...servers.s3.env },
          onSpawn: (child) => {
            const poll = setInterval(() => {
              if (progress() >= at) {
                clearInterval(poll);
                child.kill('SIGKILL');
              }
            }, 1);
            child.on('close', () => clearInterval(poll));
          },
        });
        expect(result.signal === 'SIGKILL' || result.code === 0, result.stderr).toBe(true);
      }
      await sync(servers, lake, servers.after, options);
      const got = files(where === 'a folder' ? lake : await download(servers, prefix));
      const data = (map: Map<string, Buffer>) => [...map.keys()].filter((path) => !path.startsWith('_newsstats_sync')).sort();
      expect(data(got)).toEqual(data(want));
      for (const path of data(want)) expect(got.get(path)!.equals(want.get(path)!), path).toBe(true);
      expect(got.has('_newsstats_sync.lock')).toBe(false);
      const weeks = (map: Map<string, Buffer>) => Object.fromEntries(Object.entries((JSON.parse(map.get('_newsstats_sync.json')!.toString('utf8')) as State).streams).map(([stream, entry]) => [stream, entry.weeks]));
      expect(weeks(got)).toEqual(weeks(want));
    });
  }
});
