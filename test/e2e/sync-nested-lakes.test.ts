/**
 * One lake to a folder or prefix, none inside another (docs/sync.md, "Reading the lake"). A reader's glob over
 * `lake/**` (or a listing of `s3://b/lake/`) reads whatever lies under it: a second lake at `lake/eu`
 * was synced without a word, and DuckDB's whole-lake read then counted its rows with the first's. A
 * lake inside another, or one whose folder holds another, is refused in one line (exit 2) before
 * anything is written, in a folder as in object storage; lakes side by side stay allowed.
 */
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { FIXED_NOW, runCli, sandbox, sandboxEnv, spawnCli, tempDir } from './harness.js';
import { localS3, type LocalS3 } from './s3-server.js';

const SMALL = ['--since', String(addWeeks(isoWeekOf(FIXED_NOW), -2)), '--streams', 'countries'];

let server: RunningSandbox;
let s3: LocalS3;
let client: S3Client;
beforeAll(async () => {
  server = await sandbox({ now: FIXED_NOW });
  s3 = await localS3('lake');
  client = new S3Client({ region: 'us-east-1', endpoint: s3.url, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  client?.destroy();
  await s3?.close();
  await server?.close();
});

async function keys(prefix: string): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: 'lake', Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key!).sort();
}

describe('a lake inside another', () => {
  it('in a folder: the inner lake is refused, and so is the outer one holding it, --plan too; nothing is made', async () => {
    const root = tempDir();
    const outer = join(root, 'lake');
    expect((await runCli(['sync', outer, ...SMALL], { env: sandboxEnv(server) })).code).toBe(0);

    for (const extra of [[], ['--plan']]) {
      const inside = await runCli(['sync', join(outer, 'eu'), ...SMALL, ...extra], { env: sandboxEnv(server) });
      expect({ code: inside.code, stdout: inside.stdout }, extra.join(' ')).toEqual({ code: 2, stdout: '' });
      expect(inside.stderr).toBe(`error: ${join(outer, 'eu')} is inside the lake ${outer} (it holds _newsstats_sync.json): a read of ${outer} would read both lakes' rows; sync to a folder or prefix beside it\n`);
      expect(existsSync(join(outer, 'eu'))).toBe(false);
    }

    // The other way round: a lake made first, then a lake asked for in the folder above it.
    const side = join(root, 'side');
    expect((await runCli(['sync', join(side, 'eu'), ...SMALL], { env: sandboxEnv(server) })).code).toBe(0);
    for (const extra of [[], ['--plan']]) {
      const holding = await runCli(['sync', side, ...SMALL, ...extra], { env: sandboxEnv(server) });
      expect({ code: holding.code, stdout: holding.stdout }, extra.join(' ')).toEqual({ code: 2, stdout: '' });
      expect(holding.stderr).toBe(`error: ${side} holds another lake, ${join(side, 'eu')} (it has a _newsstats_sync.json of its own): a read of ${side} would read both lakes' rows; move that lake beside this one\n`);
    }
    expect(readdirSync(side)).toEqual(['eu']);
  });

  it('in a folder: a new lake inside another is refused by --plan as by the run, and a link into the other lake makes nothing', async () => {
    const root = tempDir();
    const outer = join(root, 'lake');
    expect((await runCli(['sync', outer, ...SMALL], { env: sandboxEnv(server) })).code).toBe(0);
    mkdirSync(join(outer, 'teams'));
    const refusal = (where: string) => `error: ${where} is inside the lake ${outer} (it holds _newsstats_sync.json): a read of ${outer} would read both lakes' rows; sync to a folder or prefix beside it\n`;

    // --plan of a lake not made yet: the run would be refused, so the plan is.
    const planned = await runCli(['sync', join(outer, 'teams', 'eu'), ...SMALL, '--plan'], { env: sandboxEnv(server) });
    expect({ code: planned.code, stdout: planned.stdout, stderr: planned.stderr }).toEqual({ code: 2, stdout: '', stderr: refusal(join(outer, 'teams', 'eu')) });

    // A link to a folder inside the other lake: refused before the lake's folder is made there.
    symlinkSync(join(outer, 'teams'), join(root, 'teams'));
    for (const extra of [[], ['--plan']]) {
      const linked = await runCli(['sync', join(root, 'teams', 'eu'), ...SMALL, ...extra], { env: sandboxEnv(server) });
      expect({ code: linked.code, stdout: linked.stdout, stderr: linked.stderr }, extra.join(' ')).toEqual({ code: 2, stdout: '', stderr: refusal(join(root, 'teams', 'eu')) });
    }
    expect(readdirSync(join(outer, 'teams'))).toEqual([]);
  });

  it('in a folder: lakes side by side under one plain folder are synced as ever', async () => {
    const root = tempDir();
    for (const name of ['top20', 'top100']) {
      const result = await runCli(['sync', join(root, 'newsstats', name), ...SMALL], { env: sandboxEnv(server) });
      expect(result.code, result.stderr).toBe(0);
    }
  });

  it('in object storage: the same refusals, no lock or state left, and lakes side by side allowed', async () => {
    const env = { ...sandboxEnv(server), ...s3.env };
    expect((await spawnCli(['sync', 's3://lake/nest/outer', ...SMALL], { env })).code).toBe(0);
    for (const extra of [[], ['--plan']]) {
      const inside = await spawnCli(['sync', 's3://lake/nest/outer/eu', ...SMALL, ...extra], { env });
      expect({ code: inside.code, stdout: inside.stdout }, extra.join(' ')).toEqual({ code: 2, stdout: '' });
      expect(inside.stderr).toBe('error: s3://lake/nest/outer/eu is inside the lake s3://lake/nest/outer (it holds _newsstats_sync.json): a read of s3://lake/nest/outer would read both lakes\' rows; sync to a folder or prefix beside it\n');
      expect(await keys('nest/outer/eu/')).toEqual([]);
    }

    expect((await spawnCli(['sync', 's3://lake/held/x/eu', ...SMALL], { env })).code).toBe(0);
    for (const extra of [[], ['--plan']]) {
      const holding = await spawnCli(['sync', 's3://lake/held/x', ...SMALL, ...extra], { env });
      expect({ code: holding.code, stdout: holding.stdout }, extra.join(' ')).toEqual({ code: 2, stdout: '' });
      expect(holding.stderr).toBe('error: s3://lake/held/x holds another lake, s3://lake/held/x/eu (it has a _newsstats_sync.json of its own): a read of s3://lake/held/x would read both lakes\' rows; move that lake beside this one\n');
    }
    expect((await keys('held/x/')).every((key) => key.startsWith('held/x/eu/'))).toBe(true);

    expect((await spawnCli(['sync', 's3://lake/held/y', ...SMALL], { env })).code).toBe(0);
  });
});
