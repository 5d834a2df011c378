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
/** Requests about this person are refused with a 401 whose title quotes the key, as a careless service might. */
const ECHO = 'echoes-the-key-0001';
/** A search for this answers a person whose description holds the key. */
const ECHO_IN_DATA = 'echo-in-data';

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
    if ((incoming.url ?? '').includes(ECHO)) {
      outgoing.writeHead(401, { 'content-type': 'application/problem+json' });
      outgoing.end(JSON.stringify({ title: `invalid API key ${KEY}`, status: 401 }));
      return;
    }
    if ((incoming.url ?? '').includes(ECHO_IN_DATA)) {
      outgoing.writeHead(200, { 'content-type': 'application/json' });
      outgoing.end(JSON.stringify([{ personHash: 'echo-0001', fullName: 'Echo', countryId: 1, description: `key ${KEY} inside` }]));
      return;
    }
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
});

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
      'articles_overview', 'compare_people', 'country_attention', 'list_countries', 'list_sources', 'people_movers', 'person_articles',
      'person_countries', 'person_profile', 'person_trend', 'rank_people', 'recent_articles', 'recent_posts', 'search_people',
      'source_links', 'week_info',
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

  it('people_movers is the CLI\'s people movers, changes exact', async () => {
    const result = await structured('people_movers', { weeks: '202644..202647', limit: 8, depth: 100 });
    const cli = await cliJson(['people', 'movers', '--weeks', '202644..202647', '--limit', '8', '--depth', '100']);
    expect(result.comparison).toMatchObject({ startWeek: 202640, endWeek: 202643, partial: false });
    const fields = (row: any) => [row.personHash, row.status, row.rank, row.previousRank, row.rankChange, row.mentionChange, row.dominanceChange];
    expect(result.movers.map(fields)).toEqual(cli.map(fields));
  });

  it('person_trend is the CLI\'s people trend, with progress a request at a time', async () => {
    const [top] = await cliJson(['people', 'top', '--weeks', 'last4', '--limit', '1']);
    const progress: number[] = [];
    const result = (await client.callTool({ name: 'person_trend', arguments: { personHashes: [top.personHash], weeks: '202642..202647' } }, undefined, {
      onprogress: ({ progress: done, total }) => {
        expect(total).toBe(6);
        progress.push(done);
      },
    })) as CallToolResult;
    const cli = await cliJson(['people', 'trend', top.personHash, '--weeks', '202642..202647']);
    const rows = (result.structuredContent as any).rows;
    expect(rows.map((row: any) => [row.week, row.mentions, row.globalDominance, row.countries, row.partial]))
      .toEqual(cli.map((row: any) => [row.week, row.mentions, row.globalDominance, row.countries, row.week === 202647]));
    // The SDK's client handles notifications a microtask later than responses, so the last ones may
    // arrive after it stopped listening (test/mcp/stdio.test.ts reads the server's own order).
    expect(progress.length).toBeGreaterThan(0);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
  });

  it('compare_people gives each person\'s totals over the window, as people countries sums them', async () => {
    const [first, second] = await cliJson(['people', 'top', '--weeks', 'last4', '--limit', '2']);
    const result = await structured('compare_people', { personHashes: [first.personHash, second.personHash], weeks: 'last4' });
    for (const [index, person] of [first, second].entries()) {
      const countries = await cliJson(['people', 'countries', person.personHash, '--weeks', 'last4']);
      expect(result.people[index]).toMatchObject({
        personHash: person.personHash,
        mentions: countries.countries.reduce((sum: number, row: any) => sum + row.mentions, 0),
        globalReach: countries.globalReach,
        countries: countries.countries.length,
      });
    }
  });

  it('country_attention is the CLI\'s countries attention and countries focus', async () => {
    const result = await structured('country_attention', { countries: ['DE', 'Japan'], weeks: '202644..202647' });
    for (const [index, country] of ['DE', 'JP'].entries()) {
      const attention = await cliJson(['countries', 'attention', country]);
      const focus = await cliJson(['countries', 'focus', country, '--weeks', '202644..202647']);
      expect(result.countries[index].country.countryIso).toBe(country);
      expect(result.countries[index].internationalAttention).toEqual({ ...attention, countryId: String(attention.countryId) });
      expect(result.countries[index].domesticFocus).toEqual({ ...focus, countryId: String(focus.countryId) });
    }
  });

  it('list_sources and source_links are the CLI\'s sources list and sources links', async () => {
    const sources = await structured('list_sources', { country: 'DE', limit: 100 });
    const cli = await cliJson(['sources', 'list', '--country', 'DE']);
    expect(sources.sources.map((source: any) => source.sourceId)).toEqual(cli.map((source: any) => String(source.sourceId)));
    const links = await structured('source_links', { sourceId: sources.sources[0].sourceId, which: 'unmatched', limit: 200 });
    const cliLinks = await cliJson(['sources', 'links', sources.sources[0].sourceId]);
    expect(links.links).toEqual(cliLinks.unmatchedLinks);
    expect(links.counts).toEqual({ all: cliLinks.allLinks.length, matched: cliLinks.matchedLinks.length, unmatched: cliLinks.unmatchedLinks.length });
  });

  it('recent_articles, recent_posts and articles_overview are the CLI\'s, articleHash exact', async () => {
    const articles = await structured('recent_articles', { limit: 5 });
    expect(articles.articles.map((article: any) => article.articleHash)).toEqual(articleHashes((await rawGet(api, 'articles/recent?limit=5')).text));
    const posts = await structured('recent_posts', { count: 3 });
    expect(posts.posts.map((post: any) => [post.slug, post.content])).toEqual((await cliJson(['posts', 'recent', '--count', '3'])).map((post: any) => [post.slug, undefined]));
    const overview = await structured('articles_overview', { days: 30 });
    expect(overview).toEqual({ recent: await cliJson(['articles', 'stats', '--days', '30']), allTime: await cliJson(['articles', 'stats', '--all-time']) });
  });

  it('week_info is the CLI\'s weeks', async () => {
    const result = await structured('week_info');
    const cli = await cliJson(['weeks']);
    expect(result).toMatchObject({ currentWeek: cli.currentWeek, last4StartWeek: cli.last4StartWeek, previousWeek: 202646, currentWeekStarts: '2026-11-16' });
  });
});

describe('resources and prompts', () => {
  it('the week info and the field meanings are resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(['newsstats://contract/fields', 'newsstats://weeks/current']);
    const week = await client.readResource({ uri: 'newsstats://weeks/current' });
    expect(JSON.parse((week.contents[0] as { text: string }).text)).toMatchObject({ currentWeek: 202647, last4StartWeek: 202644, previousWeek: 202646 });
    const fields = (await client.readResource({ uri: 'newsstats://contract/fields' })).contents[0] as { text: string };
    for (const field of ['mentionCount', 'dominance', 'reach', 'power', 'sentiment', 'persistence', 'articleHash']) expect(fields.text).toContain(`\`${field}\``);
  });

  it('a weekly briefing prompt names the tools it plans with', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['weekly_briefing']);
    const { messages } = await client.getPrompt({ name: 'weekly_briefing', arguments: { week: '202646', country: 'DE' } });
    const body = (messages[0]!.content as { text: string }).text;
    expect(body).toContain('202646');
    for (const name of ['rank_people', 'people_movers', 'person_profile', 'country_attention']) {
      expect(body).toContain(name);
      expect(tools.map((tool) => tool.name)).toContain(name);
    }
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
    ['person_trend', { personHashes: ['nobody-at-all-0000'] }, /person "nobody-at-all-0000" not found/],
    ['person_trend', { personHashes: ['x-1'], weeks: 'last60' }, /60 weeks; this tool takes at most 53/],
    ['people_movers', { limit: 50, depth: 10 }, /depth 10 is below limit 50/],
    ['people_movers', { vs: 'yesterday' }, /vs: /],
    ['country_attention', { countries: [] }, /countries/],
    ['source_links', { sourceId: '99999' }, /source 99999 not found/],
    ['recent_articles', { cursor: '500' }, /the service keeps the latest 500 articles; cursor 500 is past them/],
    ['person_articles', { personHash: 'x-1', cursor: '250' }, /the service keeps at most 250 links a person; cursor 250 is past them/],
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
  it('the key is masked in structured content and text, should the service echo it in data', async () => {
    const result = await call('search_people', { query: ECHO_IN_DATA });
    expect(result.isError, text(result)).toBeFalsy();
    expect(JSON.stringify(result)).not.toContain(KEY);
    expect((result.structuredContent as any).people[0].description).toMatch(/^key \S+ inside$/);
  });

  it('a refused key is a tool error that says a person must fix the configuration, the key masked even where the service quoted it', async () => {
    const result = await call('person_profile', { personHash: ECHO });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/refused the API key.*A person must fix the server's configuration/);
    expect(text(result)).not.toContain(KEY);
  });

  it('a refused key names the login of the profile and service the server was started with, not the default profile', async () => {
    const home = tempDir();
    const env = isolatedEnv(home, sandboxEnv({ url: gate.url, key: KEY }));
    delete env.NEWSSTATS_BASE_URL;
    const started = new StdioClientTransport({ command: process.execPath, args: [BIN, '--base-url', gate.url, 'mcp'], env, stderr: 'pipe' });
    const other = new Client({ name: 'newsstats-tests-context', version: '1.0.0' });
    await other.connect(started);
    try {
      const result = (await other.callTool({ name: 'person_profile', arguments: { personHash: ECHO } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toContain(`\`newsstats --base-url ${gate.url} auth login\``);
    } finally {
      await other.close();
    }
  });

  it('stdout carried protocol messages only, and no result or message held the key', () => {
    // A progress notification the client's SDK read after the response it belongs to is its own race, not a malformed message.
    expect(transportErrors.map((error) => error.message).filter((message) => !message.startsWith('Received a progress notification for an unknown token'))).toEqual([]);
    expect(stderr).not.toContain(KEY);
  });
});
