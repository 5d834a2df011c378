/**
 * `newsstats tap` against the sandbox: its output checked against the Singer message rules (SCHEMA
 * before a stream's RECORDs, records valid against their schema, keys present, STATE bookmarks that
 * only move forward), exact big integers, and a second run resumed from the tap's own last STATE.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseLossless, isLosslessNumber, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, useLoggedSandbox, readLog } from './harness.js';

const logged = useLoggedSandbox();
// The harness's sandbox: current week 202647, so 202646 is the last completed one.
const START = 202645;

type Message = { type: string; stream?: string; schema?: any; key_properties?: string[]; record?: Record<string, unknown>; value?: any };

function messages(stdout: string): Message[] {
  return stdout.trimEnd().split('\n').map((line) => parseLossless(line) as Message);
}

/** A value against a column's JSON Schema (the subset the tap writes: type lists, string format, items). */
function valid(value: unknown, schema: { type: string | string[]; format?: string; items?: { type: string | string[] } }): boolean {
  if (value === null) return schema.type.includes('null');
  const itemTypes = (type: string | string[]) => (Array.isArray(type) ? type : [type]);
  if (isLosslessNumber(value)) return schema.type.includes('integer') ? /^-?\d+$/.test(value.toString()) : schema.type.includes('number');
  if (typeof value === 'string') return schema.type.includes('string') && (schema.format !== 'date-time' || /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value));
  if (typeof value === 'boolean') return schema.type.includes('boolean');
  if (Array.isArray(value)) return schema.type.includes('array') && (!schema.items || value.every((item) => itemTypes(schema.items!.type).includes(item === null ? 'null' : typeof item)));
  return schema.type.includes('object');
}

/** Checks the Singer rules; returns the last STATE's value. */
function checkSinger(all: Message[]): any {
  const schemas = new Map<string, Message>();
  let lastState: any;
  let previous: Record<string, number> = {};
  for (const message of all) {
    expect(['SCHEMA', 'RECORD', 'STATE']).toContain(message.type);
    if (message.type === 'SCHEMA') {
      expect(message.schema.type).toBe('object');
      expect(message.key_properties!.every((key) => key in message.schema.properties)).toBe(true);
      schemas.set(message.stream!, message);
    } else if (message.type === 'RECORD') {
      const schema = schemas.get(message.stream!);
      expect(schema, `SCHEMA before RECORD of ${message.stream}`).toBeDefined();
      for (const [field, value] of Object.entries(message.record!)) {
        expect(schema!.schema.properties[field], `${message.stream}.${field} in its schema`).toBeDefined();
        expect(valid(value, schema!.schema.properties[field]), `${message.stream}.${field} = ${String(value)}`).toBe(true);
      }
      for (const key of schema!.key_properties!) expect(message.record![key], `${message.stream} key ${key}`).not.toBeNull();
    } else {
      const bookmarks = message.value.bookmarks as Record<string, { week: unknown }>;
      for (const [stream, { week }] of Object.entries(bookmarks)) {
        const number = Number(String(week));
        expect(number).toBeGreaterThanOrEqual(previous[stream] ?? 0);
        previous = { ...previous, [stream]: number };
      }
      lastState = JSON.parse(stringify(message.value)!);
    }
  }
  return lastState;
}

describe('tap', () => {
  it('--discover prints a catalog: each stream with its JSON Schema, keys and replication key', async () => {
    const result = await runCli(['tap', '--discover']);
    expect(result.code).toBe(0);
    const catalog = JSON.parse(result.stdout);
    expect(catalog.streams.map((entry: any) => entry.stream)).toEqual(['rankings', 'country_stats', 'links', 'people', 'countries', 'sources']);
    const links = catalog.streams[2];
    expect(links.key_properties).toEqual(['week', 'personHash', 'articleHash']);
    expect(links.replication_key).toBe('week');
    // From the one schema (src/schema/singer.ts): a key is never null; each field carries its description.
    expect(links.schema.properties.articleHash).toMatchObject({ type: 'integer' });
    expect(links.schema.properties.mentionDate).toMatchObject({ type: ['null', 'string'], format: 'date-time' });
    expect(links.metadata[0]).toMatchObject({ breadcrumb: [], metadata: { selected: true, 'replication-key': 'week' } });
  });

  it('follows the Singer message rules, keeps every digit, and resumes from its own STATE', async () => {
    const dir = tempDir();
    const config = join(dir, 'config.json');
    // Connection from the config itself, as Meltano passes it.
    writeFileSync(config, JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key, start_week: START, streams: 'rankings,links,countries', depth: 5, top: 2, links_limit: 3 }));
    const first = await runCli(['tap', '--config', config]);
    expect(first.code, first.stderr).toBe(0);
    const all = messages(first.stdout);
    const state = checkSinger(all);
    expect(state).toEqual({ bookmarks: { rankings: { week: 202646 }, links: { week: 202646 }, countries: { week: 202646 } } });
    const records = all.filter((message) => message.type === 'RECORD');
    expect(records.filter((message) => message.stream === 'rankings').map((message) => String(message.record!.week))).toEqual([...Array(5).fill('202645'), ...Array(5).fill('202646')]);
    expect(records.some((message) => message.stream === 'countries')).toBe(true);
    const link = records.find((message) => message.stream === 'links')!.record!;
    expect(BigInt(String(link.articleHash)) > 2n ** 53n).toBe(true);
    expect(first.stdout).toContain(`"articleHash":${String(link.articleHash)}`);

    // Resumed from its last STATE: nothing new is complete, so no records and no per-week request.
    const statePath = join(dir, 'state.json');
    writeFileSync(statePath, JSON.stringify(state));
    const before = (await readLog(logged.log)).length;
    const second = await runCli(['tap', '--config', config, '--state', statePath]);
    expect(second.code, second.stderr).toBe(0);
    const again = messages(second.stdout);
    expect(again.filter((message) => message.type === 'RECORD')).toEqual([]);
    expect(checkSinger(again)).toEqual(state);
    expect((await readLog(logged.log)).slice(before).map((entry) => entry.path)).toEqual(['/api/data/weeks/current']);

    // From an older bookmark: only the weeks after it.
    writeFileSync(statePath, JSON.stringify({ bookmarks: { rankings: { week: 202645 }, links: { week: 202646 }, countries: { week: 202646 } } }));
    const third = await runCli(['tap', '--config', config, '--state', statePath]);
    const weeks = messages(third.stdout).filter((message) => message.type === 'RECORD').map((message) => `${message.stream} ${String(message.record!.week ?? '')}`);
    expect([...new Set(weeks)]).toEqual(['countries ', 'rankings 202646']);
  });

  it('a catalog selects streams; a bad config is a usage error naming the key', async () => {
    const dir = tempDir();
    const catalog = JSON.parse((await runCli(['tap', '--discover'])).stdout);
    for (const entry of catalog.streams) entry.metadata[0].metadata.selected = entry.stream === 'countries';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key }));
    const result = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    expect(result.code, result.stderr).toBe(0);
    expect([...new Set(messages(result.stdout).map((message) => `${message.type} ${message.stream ?? ''}`))]).toEqual(['SCHEMA countries', 'RECORD countries', 'STATE ']);

    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ base_url: logged.server.url, depth: 0 }));
    const bad = await runCli(['tap', '--config', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/config key depth/);
    expect(bad.stdout).toBe('');
  });
});
