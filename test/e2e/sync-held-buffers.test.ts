/**
 * A merge reads each links partition's held lines into a buffer it fills again for a later partition
 * (#33 item 6, the peak): only once the destination has let that partition's store bytes go. A
 * destination that keeps the bytes a while (publishing them late, as a busy disk or a slow PUT does)
 * must still get each store as it was handed over, and the lake must be the one a plain run writes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NewsStatsClient } from '../../src/api/client.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import type { Chunks, Produce } from '../../src/sync/destinations/destination.js';
import { LocalLake } from '../../src/sync/destinations/local.js';
import { runSync } from '../../src/sync/sync.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { sandbox, tempDir } from './harness.js';

const NOW = new Date();
const SINCE = addWeeks(isoWeekOf(NOW), -12);

/** A folder lake that takes a store's bytes now and writes them only after the run has gone on. */
class LateLake extends LocalLake {
  readonly handedOver = new Map<string, Buffer>();
  readonly #late: Promise<void>[] = [];

  override async write(path: string, content: Produce | Chunks, released?: () => void): Promise<void> {
    if (typeof content === 'function' || !path.includes('/links/week=')) return super.write(path, content, released);
    this.handedOver.set(path, Buffer.concat(content));
    // Several later partitions are read, merged and written before this one's bytes are.
    this.#late.push(new Promise<void>((resolve) => setTimeout(resolve, 200)).then(() => super.write(path, content, released)));
  }

  override async writeState(text: string): Promise<void> {
    await Promise.all(this.#late);
    return super.writeState(text);
  }
}

let server: RunningSandbox;
beforeAll(async () => {
  server = await sandbox({ now: NOW });
});
afterAll(async () => {
  await server?.close();
});

async function sync(lake: LocalLake) {
  const client = new NewsStatsClient({ baseUrl: server.url, apiKey: server.key, numbers: 'lossless' });
  await runSync({ client, lake, streams: ['links'], since: SINCE, depth: 5, top: 5, linksLimit: 20, concurrency: 2, filters: {}, now: NOW });
}

function stores(dir: string): Map<string, Buffer> {
  const folder = join(dir, '_newsstats', 'links');
  return new Map(readdirSync(folder).filter((name) => /^week=\d+\.ndjson$/.test(name)).map((name) => [name, readFileSync(join(folder, name))]));
}

describe('the buffers a links merge reads held lines into', () => {
  it('are filled again only once the destination has let a store go: every store as handed over, the lake a plain run writes', async () => {
    const late = new LateLake(join(tempDir(), 'lake'));
    await sync(late);
    const plainDir = join(tempDir(), 'lake');
    await sync(new LocalLake(plainDir));
    const written = stores(late.root);
    expect(late.handedOver.size).toBeGreaterThan(3);
    for (const [path, bytes] of late.handedOver) expect(written.get(path.split('/').at(-1)!)?.equals(bytes), path).toBe(true);
    expect([...written.keys()].sort()).toEqual([...stores(plainDir).keys()].sort());
    for (const [name, bytes] of stores(plainDir)) expect(written.get(name)!.equals(bytes), name).toBe(true);
  });
});
