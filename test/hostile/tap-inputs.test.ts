/**
 * The tap's input files can't hang it, swell it or crash it (issue #35, items 3, 4 and 7): a FIFO,
 * /dev/zero or /dev/urandom as --config, --state or --catalog is refused at once; a file of the wrong
 * shape is one usage line naming the field (exit 2), never a TypeError; a UTF-8 BOM is skipped; a
 * bookmark anywhere in the future is handled in linear time, and a bookmark that is not a week is
 * refused. Nothing is requested before these are checked.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectFailure, readLog, runCli, tempDir, useLoggedSandbox } from '../e2e/harness.js';

const logged = useLoggedSandbox();

function files(): { dir: string; config: string } {
  const dir = tempDir('newsstats-tap-inputs-');
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key, start_week: 202646, streams: 'rankings', depth: 2 }));
  return { dir, config };
}

function fifo(dir: string): string {
  const path = join(dir, 'fifo');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

async function refused(args: string[], message: RegExp): Promise<void> {
  const before = (await readLog(logged.log)).length;
  expectFailure(await runCli(['tap', ...args]), 2, message);
  expect((await readLog(logged.log)).length, 'no request before the inputs are checked').toBe(before);
}

describe('special files as the tap\'s inputs are refused at once, never read', () => {
  it('a FIFO as --config, --state or --catalog (which would wait for a writer, deaf to signals)', async () => {
    const { dir, config } = files();
    const path = fifo(dir);
    await refused(['--config', path], /--config .*fifo is a FIFO; it must be a regular file/);
    await refused(['--config', config, '--state', path], /--state .*fifo is a FIFO/);
    await refused(['--config', config, '--catalog', path], /--catalog .*fifo is a FIFO/);
  });

  it('/dev/zero and /dev/urandom (which would be read without end)', async () => {
    const { config } = files();
    await refused(['--config', config, '--state', '/dev/zero'], /--state \/dev\/zero is a device; it must be a regular file/);
    await refused(['--config', config, '--catalog', '/dev/urandom'], /--catalog \/dev\/urandom is a device/);
    await refused(['--config', '/dev/zero'], /--config \/dev\/zero is a device/);
  });

  it('a file larger than any config, state or catalog', async () => {
    const { dir, config } = files();
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"bookmarks": {}, "pad": "${'x'.repeat(9 * 1024 * 1024)}"}`);
    await refused(['--config', config, '--state', big], /--state .*big\.json is larger than 8 MiB/);
  });
});

describe('wrong types are one line naming the field (exit 2)', () => {
  it('config streams [1, {}]', async () => {
    const { dir } = files();
    const config = join(dir, 'streams.json');
    writeFileSync(config, JSON.stringify({ base_url: logged.server.url, streams: [1, {}] }));
    await refused(['--config', config], /config key streams\[0\] must be a stream name, not 1/);
    writeFileSync(config, JSON.stringify({ base_url: logged.server.url, streams: { rankings: true } }));
    await refused(['--config', config], /config key streams must be a list of stream names/);
  });

  it('catalog metadata "x", a stream that is not an object, a selected that is not a boolean', async () => {
    const { dir, config } = files();
    const catalog = join(dir, 'catalog.json');
    writeFileSync(catalog, JSON.stringify({ streams: [{ tap_stream_id: 'rankings', metadata: 'x' }] }));
    await refused(['--config', config, '--catalog', catalog], /catalog streams\[0\]\.metadata must be an array, not a string \("x"\)/);
    writeFileSync(catalog, JSON.stringify({ streams: [1] }));
    await refused(['--config', config, '--catalog', catalog], /catalog streams\[0\] must be an object, not a number/);
    writeFileSync(catalog, JSON.stringify({ streams: [{ tap_stream_id: 'rankings', metadata: [{ breadcrumb: [], metadata: { selected: 'yes' } }] }] }));
    await refused(['--config', config, '--catalog', catalog], /catalog streams\[0\]\.metadata\[0\]\.metadata\.selected must be true or false/);
    writeFileSync(catalog, JSON.stringify([]));
    await refused(['--config', config, '--catalog', catalog], /the catalog must be a JSON object, not an array/);
  });

  it('state bookmarks of the wrong shape, and weeks that are not weeks', async () => {
    const { dir, config } = files();
    const state = join(dir, 'state.json');
    for (const [value, message] of [
      [{ bookmarks: { rankings: { week: 'abc' } } }, /bookmarks\.rankings\.week is not a week: a string \("abc"\)/],
      [{ bookmarks: { rankings: { week: 202699 } } }, /bookmarks\.rankings\.week is not a week: a number \(202699\)/],
      [{ bookmarks: { rankings: { week: 2026.5 } } }, /bookmarks\.rankings\.week is not a week/],
      [{ bookmarks: { rankings: 5 } }, /bookmarks\.rankings must be an object/],
      [{ bookmarks: [] }, /the state's "bookmarks" must be an object, not an array/],
      ['state', /the state must be a JSON object/],
    ] as const) {
      writeFileSync(state, JSON.stringify(value));
      await refused(['--config', config, '--state', state], message);
    }
  });
});

describe('inputs that are fine as they are', () => {
  it('a UTF-8 BOM before the config, state and catalog is skipped', async () => {
    const { dir, config } = files();
    writeFileSync(config, `\uFEFF${JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key, start_week: 202646, depth: 2 })}`);
    const state = join(dir, 'state.json');
    writeFileSync(state, `\uFEFF${JSON.stringify({ bookmarks: { rankings: { week: 202645 } } })}`);
    const catalog = JSON.parse((await runCli(['tap', '--discover'])).stdout);
    for (const entry of catalog.streams) entry.metadata[0].metadata.selected = entry.stream === 'rankings';
    writeFileSync(join(dir, 'catalog.json'), `\uFEFF${JSON.stringify(catalog)}`);
    const result = await runCli(['tap', '--config', config, '--state', state, '--catalog', join(dir, 'catalog.json')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"type":"RECORD","stream":"rankings"');
  });

  it('a bookmark in the far future ({"week": 999952}) is read in linear time: nothing to fetch', async () => {
    // Built week by week with a copy and a sort each, this took 11 minutes at full CPU.
    const { dir, config } = files();
    const state = join(dir, 'state.json');
    writeFileSync(state, JSON.stringify({ bookmarks: { rankings: { week: 999952 } } }));
    const result = await runCli(['tap', '--config', config, '--state', state]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.filter((message) => message.type === 'RECORD')).toEqual([]);
    // The bookmark is kept as given: a later week can't go back behind it.
    expect(lines.at(-1)).toEqual({ type: 'STATE', value: { bookmarks: { rankings: { week: 999952 } } } });
  });
});
