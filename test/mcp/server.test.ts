/**
 * `newsstats mcp` as an MCP client drives it: the built CLI in a child process, spoken to with the
 * official SDK's Client over stdio, against the sandbox on 127.0.0.1 (behind a front that can hold
 * one person's requests open, to cancel a call mid-request). One server for the whole file.
 *
 * Protects: every tool listed with schemas a validator compiles and results valid against them; the
 * same answers as the CLI's own `-f json`; identifiers exact as strings; bad input as tool errors that
 * say what to change; cancellation reaching the HTTP request; progress on long calls; no key in any
 * result; stdout carrying protocol messages only.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleHashes, BIN, isolatedEnv, rawGet, runCli, sandbox, sandboxEnv, tempDir } from '../e2e/harness.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

/** A key long enough to be masked anywhere, and unlike any word of a result. */
const KEY = 'mcp-test-key-7f3a9c';
/** Requests about this person are held open until the client goes away. */
const HELD = 'held-open-0001';

interface Front {
  url: string;
  /** Resolves when a held request arrives; then when its connection is closed by the client. */
  held: Promise<void>;
  heldClosed: Promise<void>;
  close(): Promise<void>;
}

/** An HTTP front on loopback passing everything to the sandbox, except requests about HELD. */
async function front(target: string): Promise<Front> {
  let arrived!: () => void;
  let closed!: () => void;
  const held = new Promise<void>((resolve) => (arrived = resolve));
  const heldClosed = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    if ((incoming.url ?? '').includes(HELD)) {
      arrived();
      incoming.socket.on('close', closed);
      return;
    }
    const upstream = httpRequest(`${target}${incoming.url ?? ''}`, { headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    upstream.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held,
    heldClosed,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

let api: RunningSandbox;
let gate: Front;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';
const transportErrors: Error[] = [];
let tools: Tool[];

beforeAll(async () => {
  api = await sandbox({ key: KEY });
  gate = await front(api.url);
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    env: isolatedEnv(tempDir(), sandboxEnv({ url: gate.url, key: KEY })),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  client = new Client({ name: 'newsstats-tests', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport);
  tools = (await client.listTools()).tools;
}, 30_000);

afterAll(async () => {
  await client?.close();
  await gate?.close();
  await api?.close();
});

/** The CLI's own JSON for the same question, against the same sandbox. */
async function cliJson(args: string[]): Promise<any> {
  const result = await runCli([...args, '-f', 'json'], { env: sandboxEnv(api) });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** A validator for a schema of the dialect it names (the SDK writes draft-07; MCP's default is 2020-12). */
function compile(schema: object) {
  const dialect = (schema as { $schema?: string }).$schema ?? 'https://json-schema.org/draft/2020-12/schema';
  const ajv = dialect.includes('draft-07') ? new Ajv({ strict: false }) : new Ajv2020({ strict: false });
  return ajv.compile(schema);
}

/** A call's structured content, checked against the tool's output schema. */
async function structured(name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await call(name, args);
  expect(result.isError, text(result)).toBeFalsy();
  const validate = compile(tools.find((tool) => tool.name === name)!.outputSchema!);
  expect(validate(result.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  return result.structuredContent;
}

describe('the handshake and the tool list', () => {
  it('speaks the latest protocol revision and says who it is', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'newsstats' });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(client.getInstructions()).toMatch(/search_people/);
  });

  it('lists every tool read-only, with input and output schemas a JSON Schema 2020-12 validator compiles', () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'person_articles', 'person_countries', 'person_profile', 'rank_people', 'search_people', 'week_info',
    ]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(() => compile(tool.inputSchema), tool.name).not.toThrow();
      expect(() => compile(tool.outputSchema!), tool.name).not.toThrow();
    }
  });
});

describe('answers, checked against the CLI and the service', () => {
  it('rank_people is the CLI\'s people top, with ids as strings and the window marked partial', async () => {
    const result = await structured('rank_people', { weeks: '202644..202647', limit: 5, sortBy: 'dominance' });
    const cli = await cliJson(['people', 'top', '--weeks', '202644..202647', '--limit', '5', '--sort', 'dominance']);
    expect(result.window).toEqual({ startWeek: 202644, endWeek: 202647, weeks: 4, currentWeek: 202647, partial: true });
    expect(result.people.map((person: any) => [person.rank, person.personHash, person.mentionCount, person.dominance, person.fromCountryId]))
      .toEqual(cli.map((person: any) => [person.rank, person.personHash, person.mentionCount, person.dominance, String(person.fromCountryId)]));
    expect(result.nextCursor).toBe('5');
  });

  it('rank_people pages on with the cursor it gave, and filters by a country named as the CLI takes it', async () => {
    const next = await structured('rank_people', { weeks: 'last4', limit: 5, cursor: '5', country: 'DE' });
    const cli = await cliJson(['people', 'top', '--weeks', 'last4', '--limit', '10', '--country', 'DE']);
    expect(next.people.map((person: any) => person.personHash)).toEqual(cli.slice(5, 10).map((person: any) => person.personHash));
    expect(next.filters).toEqual({ country: 'DE' });
  });

  it('search_people is the CLI\'s people search', async () => {
    const result = await structured('search_people', { query: 'ana', limit: 5 });
    const cli = await cliJson(['people', 'search', 'ana', '--limit', '5']);
    expect(result.people.map((person: any) => [person.personHash, person.countryId])).toEqual(cli.map((person: any) => [person.personHash, String(person.countryId)]));
  });

  it('person_profile gives the person, the window\'s totals as people trend sums them, and the countries of people countries', async () => {
    const [top] = await cliJson(['people', 'top', '--weeks', 'last4', '--limit', '1']);
    const profile = await structured('person_profile', { personHash: top.personHash, weeks: '202644..202647', countries: 3, articles: 2 });
    const countries = await cliJson(['people', 'countries', top.personHash, '--weeks', '202644..202647']);
    expect(profile.person.personHash).toBe(top.personHash);
    expect(profile.totals.mentions).toBe(countries.countries.reduce((sum: number, row: any) => sum + row.mentions, 0));
    expect(profile.totals.globalDominance).toBe(countries.globalDominance);
    const byMentions = [...countries.countries].sort((a: any, b: any) => b.mentions - a.mentions).slice(0, 3);
    expect(profile.topCountries.map((row: any) => row.mentions)).toEqual(byMentions.map((row: any) => row.mentions));
    expect(profile.articles).toHaveLength(2);
  });

  it('person_articles gives every articleHash with every digit the service sent, as a string', async () => {
    const [top] = await cliJson(['people', 'top', '--weeks', 'last4', '--limit', '1']);
    const first = await structured('person_articles', { personHash: top.personHash, limit: 3 });
    const second = await structured('person_articles', { personHash: top.personHash, limit: 3, cursor: first.nextCursor });
    const raw = await rawGet(api, `people/${top.personHash}/links?limit=6`);
    const hashes = articleHashes(raw.text);
    expect(hashes.some((hash) => BigInt(hash) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect([...first.articles, ...second.articles].map((link: any) => link.articleHash)).toEqual(hashes);
  });

  it('week_info is the CLI\'s weeks', async () => {
    const result = await structured('week_info');
    const cli = await cliJson(['weeks']);
    expect(result).toMatchObject({ currentWeek: cli.currentWeek, last4StartWeek: cli.last4StartWeek, previousWeek: 202646, currentWeekStarts: '2026-11-16' });
  });
});

describe('bad input is a tool error that says what to change', () => {
  it.each([
    ['rank_people', { weeks: 'last week' }, /weeks: .*last week/],
    ['rank_people', { weeks: '202644..202699' }, /202699 is not an ISO week/],
    ['rank_people', { limit: 0 }, /limit/],
    ['rank_people', { cursor: 'abc' }, /cursor "abc" is not one this server gave/],
    ['rank_people', { minAge: 60, maxAge: 30 }, /minAge 60 is above maxAge 30/],
    ['rank_people', { country: 'Atlantis' }, /no country matches "Atlantis"/],
    ['search_people', {}, /give query, fullName or personHash/],
    ['person_profile', { personHash: 'nobody-at-all-0000' }, /person "nobody-at-all-0000" not found.*search_people/],
    ['no_such_tool', {}, /no_such_tool/],
  ])('%s %j', async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(message);
    expect(text(result)).not.toContain(KEY);
  });
});

describe('long calls', () => {
  it('a cancelled call ends its HTTP request, and the server goes on answering', async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: 'person_articles', arguments: { personHash: HELD } }, undefined, { signal: controller.signal });
    await gate.held;
    controller.abort('the user changed their mind');
    await expect(pending).rejects.toThrow();
    await gate.heldClosed;
    expect((await structured('week_info')).currentWeek).toBe(202647);
  });
});

describe('what never reaches the client', () => {
  it('stdout carried protocol messages only, and no result or message held the key', () => {
    expect(transportErrors).toEqual([]);
    expect(stderr).not.toContain(KEY);
  });
});
