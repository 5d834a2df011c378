/**
 * A daily run of a grown lake writes only the links partitions whose rows changed (#33, "One row in
 * one place"). A person's latest links reach far back, so the links of one week's top fall into most
 * of the lake's links partitions; before, every one of them was written again (its merge store, its
 * Parquet, and the whole index) though the service had sent the very rows it held: on a two-year lake
 * with the defaults, a `--refresh` of one week at the same moment rewrote 62 of 104 links partitions,
 * 14 MB of a 24 MB lake (docs/performance.md, "sync", "A lake at two years").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { runCli, tempDir, useLoggedSandbox } from './harness.js';

const NOW = new Date();
const LAST = addWeeks(isoWeekOf(NOW), -1);
const SINCE = addWeeks(LAST, -3);
const OPTIONS = ['--since', String(SINCE), '--streams', 'rankings,links', '--depth', '6', '--top', '3', '--links-limit', '20'];

const logged = useLoggedSandbox({ now: NOW });

/** Each file of the lake's links (partitions, merge stores, index) by path, as its inode: a file published again is a new one. */
function linksFiles(dir: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (path: string) => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      const stat = statSync(child);
      if (stat.isDirectory()) walk(child);
      else files.set(relative(dir, child), stat.ino);
    }
  };
  walk(join(dir, 'links'));
  walk(join(dir, '_newsstats', 'links'));
  return files;
}

describe('a links merge of rows the lake already holds', () => {
  it('writes no links partition, merge store or index again: a --refresh of a week the service answers the same', async () => {
    const dir = join(tempDir(), 'lake');
    const first = await runCli(['sync', dir, ...OPTIONS], { env: logged.env });
    expect(first.code, first.stderr).toBe(0);
    const before = linksFiles(dir);
    const partitions = [...before.keys()].filter((path) => path.endsWith('.parquet'));
    // The week's people's links lie in several partitions, or the test shows nothing.
    expect(partitions.length).toBeGreaterThan(3);

    const summaryFile = join(tempDir(), 'summary.json');
    const refresh = await runCli(['sync', dir, ...OPTIONS, '--refresh', String(addWeeks(SINCE, 1)), '--summary', summaryFile], { env: logged.env });
    expect(refresh.code, refresh.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { written: Array<{ stream: string; week: number }>; requests: number };
    expect(summary.requests).toBeGreaterThan(1);
    expect(summary.written.filter((partition) => partition.stream === 'links')).toEqual([]);
    const after = linksFiles(dir);
    const rewritten = [...after].filter(([path, inode]) => before.get(path) !== inode && !path.endsWith('merging.json')).map(([path]) => path);
    expect(rewritten).toEqual([]);
    // The refreshed week's links are recorded as merged again, though nothing of them was written.
    const state = JSON.parse(readFileSync(join(dir, '_newsstats_sync.json'), 'utf8')) as { streams: { links: { weeks: number[] } } };
    expect(state.streams.links.weeks).toContain(addWeeks(SINCE, 1));
  });
});
