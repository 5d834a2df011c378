/**
 * `newsstats tap` against the sandbox: its output checked against the Singer message rules (SCHEMA
 * before a stream's RECORDs, records valid against their schema, keys present, STATE bookmarks that
 * only move forward), exact big integers, and a second run resumed from the tap's own last STATE.
 */
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse as parseLossless, stringify } from 'lossless-json';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { duckRows, duckTypes, sqlText } from '../duckdb.js';
import { runCli, sandbox, tempDir, useLoggedSandbox, readLog } from './harness.js';

const logged = useLoggedSandbox();
// The harness's sandbox: current week 202647, so 202646 is the last completed one.
const START = 202645;

type Message = { type: string; stream?: string; schema?: any; key_properties?: string[]; record?: Record<string, unknown>; value?: any; version?: unknown };

function messages(stdout: string): Message[] {
  return stdout.trimEnd().split('\n').map((line) => parseLossless(line) as Message);
}

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;
// A real JSON Schema validator, as a target checks records (date-time included).
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** Checks the Singer rules; returns the last STATE's value. */
function checkSinger(all: Message[]): any {
  const schemas = new Map<string, Message>();
  const validators = new Map<string, ValidateFunction>();
  const keys = new Map<string, Set<string>>();
  let lastState: any;
  let previous: Record<string, number> = {};
  for (const message of all) {
    expect(['SCHEMA', 'RECORD', 'STATE', 'ACTIVATE_VERSION']).toContain(message.type);
    if (message.type === 'SCHEMA') {
      expect(message.schema.type).toBe('object');
      expect(message.key_properties!.every((key) => key in message.schema.properties)).toBe(true);
      schemas.set(message.stream!, message);
      validators.set(message.stream!, ajv.compile(message.schema));
      keys.set(message.stream!, new Set());
    } else if (message.type === 'RECORD') {
      const schema = schemas.get(message.stream!);
      expect(schema, `SCHEMA before RECORD of ${message.stream}`).toBeDefined();
      for (const field of Object.keys(message.record!)) expect(schema!.schema.properties[field], `${message.stream}.${field} in its schema`).toBeDefined();
      // Ajv reads plain JSON: big integers lose digits there, never their type.
      const plain = JSON.parse(stringify(message.record)!);
      const validate = validators.get(message.stream!)!;
      expect(validate(plain) ? [] : validate.errors, `${message.stream} record ${stringify(message.record)}`).toEqual([]);
      for (const key of schema!.key_properties!) expect(message.record![key], `${message.stream} key ${key}`).not.toBeNull();
      const key = stringify(schema!.key_properties!.map((name) => message.record![name]))!;
      expect(keys.get(message.stream!)!.has(key), `${message.stream} key ${key} sent once`).toBe(false);
      keys.get(message.stream!)!.add(key);
    } else if (message.type === 'ACTIVATE_VERSION') {
      expect(schemas.has(message.stream!)).toBe(true);
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
    expect(links.key_properties).toEqual(['personHash', 'articleHash']);
    expect(links.replication_key).toBe('week');
    // A key is never null (a row without one is skipped), so its type says so; each field carries the
    // schema's description (src/schema/singer.ts).
    expect(links.schema.properties.articleHash).toMatchObject({ type: 'integer' });
    expect(links.schema.properties.otherPeople).toMatchObject({ type: ['null', 'array'], items: { type: ['null', 'string'] } });
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
    expect(state).toEqual({ bookmarks: { rankings: { week: 202646 }, links: { week: 202646 }, countries: { week: 202646, version: expect.any(Number) } } });
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
    // The reference table was taken after the last completed week: not sent again.
    writeFileSync(statePath, JSON.stringify({ bookmarks: { ...state.bookmarks, rankings: { week: 202645 } } }));
    const third = await runCli(['tap', '--config', config, '--state', statePath]);
    const weeks = messages(third.stdout).filter((message) => message.type === 'RECORD').map((message) => `${message.stream} ${String(message.record!.week ?? '')}`);
    expect([...new Set(weeks)]).toEqual(['rankings 202646']);
  });

  it('--jq, -f and --fields do not apply: tap\'s stdout is its own Singer stream, and the message says so', async () => {
    const result = await runCli(['tap', '--discover', '--jq', '.']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: `newsstats tap` prints its own stream on stdout \(Singer messages, one a line, for a target\): --jq does not apply/);
    expect(result.stderr).not.toMatch(/prints nothing/);
  });

  it('a catalog selects streams; a bad config is a usage error naming the key', async () => {
    const dir = tempDir();
    const catalog = JSON.parse((await runCli(['tap', '--discover'])).stdout);
    for (const entry of catalog.streams) entry.metadata[0].metadata.selected = entry.stream === 'countries';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key }));
    const result = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    expect(result.code, result.stderr).toBe(0);
    expect([...new Set(messages(result.stdout).map((message) => `${message.type} ${message.stream ?? ''}`))]).toEqual(['SCHEMA countries', 'ACTIVATE_VERSION countries', 'RECORD countries', 'STATE ']);

    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ base_url: logged.server.url, depth: 0 }));
    const bad = await runCli(['tap', '--config', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/config key depth/);
    expect(bad.stdout).toBe('');
  });


  it('takes singer-python\'s flags: -c, -s, -d, and -p/--properties for the catalog (not both names at once)', async () => {
    const dir = tempDir();
    const discovered = await runCli(['tap', '-d']);
    expect(discovered.stdout).toBe((await runCli(['tap', '--discover'])).stdout);
    const catalog = JSON.parse(discovered.stdout);
    for (const entry of catalog.streams) entry.metadata[0].metadata.selected = entry.stream === 'countries';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key }));
    const long = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    const lastState = long.stdout.trimEnd().split('\n').filter((line) => line.startsWith('{"type":"STATE"')).at(-1)!;
    writeFileSync(join(dir, 'state.json'), JSON.stringify((JSON.parse(lastState) as { value: unknown }).value));
    const short = await runCli(['tap', '-c', join(dir, 'config.json'), '-s', join(dir, 'state.json'), '-p', join(dir, 'catalog.json')]);
    expect(short.code, short.stderr).toBe(0);
    // The catalog's one stream, and no record: the state says this week's countries were sent.
    expect([...new Set(messages(short.stdout).map((message) => `${message.type} ${message.stream ?? ''}`))]).toEqual(['SCHEMA countries', 'STATE ']);

    const both = await runCli(['tap', '-c', join(dir, 'config.json'), '--properties', join(dir, 'catalog.json'), '--catalog', join(dir, 'catalog.json')]);
    expect({ code: both.code, stdout: both.stdout }).toEqual({ code: 2, stdout: '' });
    expect(both.stderr).toBe('error: give --catalog or --properties, not both: --properties is the older name of --catalog\n');
  });
  it('a catalog\'s field selection is honoured as Meltano writes it; a key (inclusion automatic) is sent anyway', async () => {
    const dir = tempDir();
    const catalog = JSON.parse((await runCli(['tap', '--discover'])).stdout);
    for (const entry of catalog.streams) {
      entry.metadata[0].metadata.selected = entry.stream === 'links';
      for (const item of entry.metadata.slice(1)) {
        if (['snippet', 'articleHash', 'otherPeople'].includes(item.breadcrumb[1])) item.metadata.selected = false;
      }
    }
    expect(catalog.streams[2].metadata.find((item: any) => item.breadcrumb[1] === 'articleHash').metadata.inclusion).toBe('automatic');
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key, start_week: 202646, top: 2, links_limit: 3 }));
    const result = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    expect(result.code, result.stderr).toBe(0);
    const all = messages(result.stdout);
    checkSinger(all);
    const schema = all.find((message) => message.type === 'SCHEMA')!.schema;
    expect(Object.keys(schema.properties)).not.toContain('snippet');
    expect(Object.keys(schema.properties)).not.toContain('otherPeople');
    expect(Object.keys(schema.properties)).toContain('articleHash');
    const records = all.filter((message) => message.type === 'RECORD');
    expect(records.length).toBeGreaterThan(0);
    for (const { record } of records) {
      expect(record).not.toHaveProperty('snippet');
      expect(record).toHaveProperty('articleHash');
    }
    expect(result.stderr).toMatch(/links\.articleHash is a key \(inclusion automatic\): sent although the catalog deselects it/);
  });

  it('a replication method or key the stream does not have is refused in one line naming it', async () => {
    const dir = tempDir();
    const catalog = JSON.parse((await runCli(['tap', '--discover'])).stdout);
    catalog.streams[0].metadata[0].metadata['replication-method'] = 'FULL_TABLE';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key }));
    const before = (await readLog(logged.log)).length;
    const result = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: catalog streams\[0\]: rankings replicates INCREMENTAL only, not a string \("FULL_TABLE"\)/);
    expect(result.stdout).toBe('');
    catalog.streams[0].metadata[0].metadata['replication-method'] = 'INCREMENTAL';
    catalog.streams[3].replication_key = 'updatedAt';
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
    const key = await runCli(['tap', '--config', join(dir, 'config.json'), '--catalog', join(dir, 'catalog.json')]);
    expect(key.code).toBe(2);
    expect(key.stderr).toMatch(/people has no replication key \(FULL_TABLE\)/);
    expect((await readLog(logged.log)).length).toBe(before);
  });

  it('reference tables carry a table version, activated after their records, so a target can drop deleted rows', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: logged.server.url, api_key: logged.server.key, start_week: 202646, streams: ['countries', 'rankings'], depth: 2 }));
    const first = messages((await runCli(['tap', '--config', join(dir, 'config.json')])).stdout);
    const countries = first.filter((message) => message.stream === 'countries' && message.type !== 'SCHEMA');
    const version = countries[0]!.version;
    expect(typeof version).not.toBe('undefined');
    // First copy: activated before (the table exists) and after (older versions dropped).
    expect(countries[0]!.type).toBe('ACTIVATE_VERSION');
    expect(countries.at(-1)).toEqual({ type: 'ACTIVATE_VERSION', stream: 'countries', version });
    expect(countries.slice(1, -1).every((message) => message.type === 'RECORD' && String(message.version) === String(version))).toBe(true);
    const state = checkSinger(first);
    expect(state.bookmarks.countries).toEqual({ week: 202646, version: Number(String(version)) });
    // A later copy (the week after): records of a new version, activated once they are all sent.
    writeFileSync(join(dir, 'state.json'), JSON.stringify({ bookmarks: { rankings: { week: 202645 }, countries: { week: 202645, version: 1 } } }));
    const second = messages((await runCli(['tap', '--config', join(dir, 'config.json'), '--state', join(dir, 'state.json')])).stdout);
    const again = second.filter((message) => message.stream === 'countries' && message.type !== 'SCHEMA');
    expect(again[0]!.type).toBe('RECORD');
    expect(again.at(-1)!.type).toBe('ACTIVATE_VERSION');
  });
});

describe('what an orchestrator sees of a tap (#33 item 4)', () => {
  it('METRIC lines as singer-python writes them; a week that fails after retries ends its job_duration "failed", and the tap exits 7', async () => {
    // In front of the sandbox, real HTTP on 127.0.0.1: one week's ranking answers 503.
    const front = createServer((request, response) => {
      if (request.url!.includes('startWeek=202646')) {
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"title":"down"}');
        return;
      }
      const upstream = httpRequest(new URL(request.url!, logged.server.url), { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const config = join(tempDir(), 'config.json');
      writeFileSync(config, JSON.stringify({ base_url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`, api_key: logged.server.key, start_week: START, streams: 'rankings', depth: 2 }));
      const result = await runCli(['--retries', '0', 'tap', '--config', config]);
      expect(result.code, result.stderr).toBe(7);
      const metrics = result.stderr.split('\n').filter((line) => line.startsWith('INFO METRIC: ')).map((line) => JSON.parse(line.slice('INFO METRIC: '.length)) as { type: string; metric: string; value: unknown; tags: Record<string, unknown> });
      for (const metric of metrics) {
        expect(Object.keys(metric).sort()).toEqual(['metric', 'tags', 'type', 'value']);
        expect(['counter', 'timer']).toContain(metric.type);
        expect(typeof metric.value).toBe('number');
        // Timers in seconds to the millisecond, as singer-python rounds nothing but a log reader reads: 0.012, not 0.011615690999999998.
        if (metric.type === 'timer') expect(String(metric.value)).toMatch(/^\d+(\.\d{1,3})?$/);
      }
      const jobs = metrics.filter((metric) => metric.metric === 'job_duration').map((metric) => `${String(metric.tags.endpoint)} ${String(metric.tags.week)} ${String(metric.tags.status)}`);
      expect(jobs).toEqual(['rankings 202645 succeeded', 'rankings 202646 failed']);
      const refused = metrics.filter((metric) => metric.metric === 'http_request_duration' && metric.tags.http_status_code === 503);
      expect(refused.map((metric) => metric.tags)).toEqual([{ endpoint: '/api/data/people/top', http_status_code: 503, status: 'failed' }]);
    } finally {
      front.close();
    }
  });
});

describe('the tap and the lake agree (#33)', () => {
  it('the same columns and keys, and each link once, in its mentionDate\'s week, with the same _extra', async () => {
    // Wild answers: unknown fields (so _extra is filled), dates far apart, rows without a mentionDate.
    const wild = await sandbox({ wild: true, seed: 7 });
    const dir = tempDir();
    const lake = join(dir, 'lake');
    try {
      const env = { NEWSSTATS_BASE_URL: wild.url, NEWSSTATS_API_KEY: wild.key };
      const synced = await runCli(['sync', lake, '--since', '202644', '--streams', 'rankings,links,people', '--depth', '6', '--top', '3', '--links-limit', '5'], { env });
      expect(synced.code, synced.stderr).toBe(0);
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: wild.url, api_key: wild.key, start_week: 202644, streams: 'rankings,links,people', depth: 6, top: 3, links_limit: 5 }));
      const tapped = await runCli(['tap', '--config', join(dir, 'config.json')]);
      expect(tapped.code, tapped.stderr).toBe(0);
      const all = messages(tapped.stdout);
      checkSinger(all);
      for (const stream of ['rankings', 'links', 'people']) {
        const schema = all.find((message) => message.type === 'SCHEMA' && message.stream === stream)!;
        const glob = sqlText(join(lake, stream, '*', '*.parquet'));
        expect(Object.keys(schema.schema.properties), stream).toEqual(Object.keys(await duckTypes(`SELECT * FROM read_parquet(${glob}, hive_partitioning = false)`)));
        const required = await duckRows(`SELECT DISTINCT name FROM parquet_schema(${glob}) WHERE repetition_type = 'REQUIRED' AND num_children IS NULL`);
        expect([...new Set(['week', ...schema.key_properties!])].sort(), stream).toEqual(required.map((column) => String(column.name)).sort());
      }
      const tapLinks = all.filter((message) => message.type === 'RECORD' && message.stream === 'links').map((message) => message.record!);
      const tapRows = tapLinks.map((row) => `${String(row.week)} ${String(row.personHash)} ${String(row.articleHash)} ${row._extra === null ? 'null' : stringify(row._extra)}`).sort();
      const lakeLinks = await duckRows(`SELECT week, personHash, articleHash::VARCHAR AS articleHash, _extra::VARCHAR AS extra FROM read_parquet(${sqlText(join(lake, 'links', '*', '*.parquet'))}, hive_partitioning = false)`);
      const lakeRows = lakeLinks.map((row) => `${String(row.week)} ${String(row.personHash)} ${String(row.articleHash)} ${row.extra === null ? 'null' : stringify(parseLossless(String(row.extra)))}`).sort();
      expect(tapRows.length).toBeGreaterThan(0);
      expect(tapRows.some((row) => !row.endsWith(' null')), 'some links carry unknown fields').toBe(true);
      expect(tapRows).toEqual(lakeRows);
    } finally {
      await wild.close();
    }
  });
});

describe('tap against answers with everything the contract allows (sandbox --wild)', () => {
  for (const seed of [1, 7, 11]) {
    it(`seed ${seed}: every RECORD validates against its SCHEMA, keys never null and sent once`, async () => {
      const wild = await sandbox({ wild: true, seed });
      try {
        const dir = tempDir();
        writeFileSync(join(dir, 'config.json'), JSON.stringify({ base_url: wild.url, api_key: wild.key, start_week: 202645, depth: 10, top: 4 }));
        const result = await runCli(['tap', '--config', join(dir, 'config.json')]);
        expect(result.code, result.stderr).toBe(0);
        const all = messages(result.stdout);
        checkSinger(all);
        expect(new Set(all.filter((message) => message.type === 'RECORD').map((message) => message.stream))).toEqual(new Set(['rankings', 'country_stats', 'links', 'people', 'countries', 'sources']));
        // A row without its key is told, one line a partition, never sent.
        for (const line of result.stderr.split('\n').filter((text) => text.includes('skipped'))) expect(line).toMatch(/^tap: \w+( week \d{6})?: \d+ rows? skipped: (their \w+, a key property, is null|a key already sent for it)|^tap: \d+ partitions/);
      } finally {
        await wild.close();
      }
    });
  }
});
