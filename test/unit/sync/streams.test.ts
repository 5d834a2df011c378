/**
 * The one table of the lake's and the tap's streams (#33): every stream's columns start with `week`
 * and end with `_extra`, keys and week never null; a row's unknown fields gathered in `_extra` with
 * every digit; a link's week is its mentionDate's, 0 without one, and the state accepts that partition.
 */
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseState } from '../../../src/sync/state.js';
import type { NewsStatsClient } from '../../../src/api/client.js';
import { StreamReader } from '../../../src/sync/read.js';
import { EXTRA_COLUMN, STREAMS, STREAM_NAMES, UNDATED_WEEK, partitionRow, rowWeek, streamRow } from '../../../src/sync/streams.js';

describe('the streams table', () => {
  it('gives every stream week first, _extra last, and its key and week required', () => {
    for (const stream of STREAM_NAMES) {
      const columns = STREAMS[stream].columns;
      expect(columns[0], stream).toMatchObject({ name: 'week', kind: 'INT32', required: true });
      expect(columns.at(-1), stream).toMatchObject({ name: EXTRA_COLUMN, kind: 'JSON' });
      expect(columns.filter((column) => column.required).map((column) => column.name).sort(), stream).toEqual([...new Set(['week', ...STREAMS[stream].keyProperties])].sort());
    }
    expect(STREAMS.links.keyProperties).toEqual(['personHash', 'articleHash']);
    expect(STREAMS.links.columns.map((column) => column.name)).not.toContain('rank');
  });

  it('gathers the fields no column names in _extra, as sent, and null when there are none', () => {
    const row = parse('{"personHash":"p-1","articleHash":123456789012345678901234567,"addedLater":{"n":98765432109876543210},"x":null}') as Record<string, unknown>;
    const out = streamRow('links', row, 202647);
    expect(out.week).toBe(202647);
    expect(stringify(out[EXTRA_COLUMN])).toBe('{"addedLater":{"n":98765432109876543210},"x":null}');
    expect(streamRow('links', { personHash: 'p-1', articleHash: 1 }, 202647)[EXTRA_COLUMN]).toBeNull();
  });

  it('keeps a field the service adds under the name `week` in _extra: the week column is the partition\'s', () => {
    for (const stream of STREAM_NAMES) {
      const row = { personHash: 'p-1', articleHash: 1, countryId: 2, sourceId: 3, week: 999999 };
      for (const out of [streamRow(stream, row, 202647), partitionRow(stream, row, 202647)]) {
        expect(out.week, stream).toBe(202647);
        expect(out[EXTRA_COLUMN], stream).toMatchObject({ week: 999999 });
      }
    }
  });

  it('keeps a country row\'s own rank or startWeek (fields the service added) in _extra: the columns hold the ranking\'s and the request\'s', async () => {
    const client = {
      people: {
        top: async () => [{ rank: 1, personHash: 'p-1', fullName: 'P' }],
        countryStats: async () => ({ startWeek: 202645, endWeek: 202645, countries: [{ countryId: 2, rank: 77, startWeek: 1 }, { countryId: 3 }] }),
      },
    } as unknown as NewsStatsClient<'lossless'>;
    const reader = new StreamReader(client, { depth: 1, top: 1, linksLimit: 1, concurrency: 1, filters: {} }, ['country_stats']);
    const rows: Array<Record<string, unknown>> = [];
    await reader.weekly('country_stats', 202645, async (row) => {
      rows.push(row);
    });
    for (const out of [streamRow('country_stats', rows[0]!, 202645), partitionRow('country_stats', rows[0]!, 202645)]) {
      expect(out).toMatchObject({ rank: 1, fullName: 'P', personHash: 'p-1', startWeek: 202645, endWeek: 202645, countryId: 2 });
      expect(out[EXTRA_COLUMN]).toEqual({ rank: 77, startWeek: 1 });
    }
    // A row whose record adds nothing is written as it is (no copy).
    expect(partitionRow('country_stats', rows[1]!, 202645)).toBe(rows[1]);
  });

  it("fills a link's fullName from the ranking only where the link has none: one the service adds to links takes the column (docs/sync.md)", async () => {
    const client = {
      people: {
        top: async () => [{ rank: 1, personHash: 'p-1', fullName: 'Ranked Name' }],
        links: async () => [{ personHash: 'p-1', articleHash: 1, mentionDate: null }, { personHash: 'p-1', articleHash: 2, mentionDate: null, fullName: 'Linked Name' }],
      },
    } as unknown as NewsStatsClient<'lossless'>;
    const reader = new StreamReader(client, { depth: 1, top: 1, linksLimit: 2, concurrency: 1, filters: {} }, ['links']);
    const rows: Array<Record<string, unknown>> = [];
    await reader.weekly('links', 202645, async (row) => {
      rows.push(row);
    });
    expect(rows.map((row) => partitionRow('links', row, 0).fullName)).toEqual(['Ranked Name', 'Linked Name']);
    expect(rows.map((row) => streamRow('links', row, 0)[EXTRA_COLUMN])).toEqual([null, null]);
  });

  it('takes no key other code made enumerable on Object.prototype for one of the row\'s', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.polluted = 1;
    try {
      const row = { personHash: 'p-1', articleHash: 1 };
      expect(partitionRow('links', row, 202647)).toBe(row);
      expect(streamRow('links', row, 202647)[EXTRA_COLUMN]).toBeNull();
    } finally {
      delete prototype.polluted;
    }
  });

  it("files a link under its mentionDate's week, an undated one under week 0; other streams under the week fetched", () => {
    expect(rowWeek('links', { mentionDate: '2026-11-20T10:00:00' }, 202640)).toBe(202647);
    expect(rowWeek('links', { mentionDate: null }, 202640)).toBe(UNDATED_WEEK);
    expect(rowWeek('rankings', { mentionDate: '2026-11-20T10:00:00' }, 202640)).toBe(202640);
  });

  it('lets the state record the undated links partition, and no other week 0', () => {
    const state = (stream: string) => JSON.stringify({ version: 2, streams: { [stream]: { taken: { '0': '2026-11-27T10:00:00Z' } } } });
    expect(parseState(state('links'), 'lake').streams.links!.taken).toEqual({ '0': '2026-11-27T10:00:00Z' });
    expect(() => parseState(state('rankings'), 'lake')).toThrow(/streams\.rankings\.taken\.0 is not a week/);
  });

  it('names an empty state a write cut short (s3rver writes objects in place), not "not JSON", with the way out', () => {
    for (const text of ['', '\n', '  ']) {
      expect(() => parseState(text, 's3://lake/x/_newsstats_sync.json')).toThrow('s3://lake/x/_newsstats_sync.json is empty: a write to it was cut short (a store that writes objects in place as they arrive, such as s3rver, keeps half a write); remove it and run again, which fetches the lake\'s weeks into the same files');
    }
    expect(() => parseState('{"version"', 'lake')).toThrow('lake is not JSON: remove it to start over, or fix it');
  });
});
