/**
 * Every command end to end against a real sandbox over HTTP: main() in-process with in-memory streams
 * (runCli, test/e2e/harness.ts) for most, the built bin/newsstats.cjs in a child process where the
 * process itself matters (pipes, signals, the bin file).
 * Each command's output is compared with the sandbox's own answer to the query the command should
 * have sent, so a flag that is dropped or mistranslated changes the data and fails the test.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  BIN, type CliResult, expectFailure, expectSuccess, rawGet, rawJson, REPO, runCli, runCliWithHome, sandbox, sandboxEnv, spawnCli, tempDir,
} from './harness.js';

const KEY = 'sk-e2e-commands-4d2b';
let server: RunningSandbox;

beforeAll(async () => {
  server = await sandbox({ key: KEY });
});
afterAll(async () => {
  await server?.close();
});

function run(args: string[], extra: Record<string, string | undefined> = {}, input?: string): Promise<CliResult> {
  return runCli(args, { env: sandboxEnv(server, extra), ...(input !== undefined && { input }) });
}

async function cliJson<T = any>(args: string[]): Promise<T> {
  return JSON.parse(expectSuccess(await run([...args, '-f', 'json']))) as T;
}

/** The CLI's JSON for `args` equals the sandbox's body for `path`, and that body is not empty. */
async function expectSameAsRaw(args: string[], path: string): Promise<any> {
  const [cli, raw] = await Promise.all([cliJson(args), rawJson(server, path)]);
  if (Array.isArray(raw)) expect(raw.length, path).toBeGreaterThan(0);
  expect(cli).toEqual(raw);
  return raw;
}

/** Query parameters of each request the CLI logged under -v, by path. */
function requested(stderr: string): Array<{ path: string; params: Record<string, string> }> {
  return [...stderr.matchAll(/^GET (\S+) (\d{3}) /gm)].map((match) => {
    const url = new URL(match[1]!);
    return { path: url.pathname, params: Object.fromEntries(url.searchParams) };
  });
}

function csvRecords(text: string): Array<Record<string, string>> {
  return parse(text, { columns: true }) as Array<Record<string, string>>;
}

describe.concurrent('weeks', () => {
  test('weeks prints the service week info', async () => {
    expect(await cliJson(['weeks'])).toEqual({ currentWeek: 202647, last4StartWeek: 202644 });
  });
});

describe.concurrent('people list/get/search', () => {
  test('people list is the whole people list', async () => {
    const raw = await expectSameAsRaw(['people', 'list'], 'people');
    expect(raw).toHaveLength(480);
  });

  test('people get <personHash> is that person', async () => {
    const person = await expectSameAsRaw(['people', 'get', 'hira-abbasi-d893'], 'people/hira-abbasi-d893');
    expect(person.fullName).toBe('Hira Abbasi');
  });

  test('people search with a free-text query', async () => {
    const rows = await expectSameAsRaw(['people', 'search', 'abbasi'], 'people/search?q=abbasi');
    expect(rows.map((row: any) => row.personHash)).toContain('hira-abbasi-d893');
  });

  test('people search --hash', async () => {
    const rows = await expectSameAsRaw(['people', 'search', '--hash', 'hira-abbasi-d893'], 'people/search?personHash=hira-abbasi-d893');
    expect(rows[0].personHash).toBe('hira-abbasi-d893');
  });

  test('people search --name --exact matches the full name only', async () => {
    const rows = await expectSameAsRaw(
      ['people', 'search', '--name', 'Hira Abbasi', '--exact'],
      'people/search?fullName=Hira%20Abbasi&exactName=true',
    );
    expect(rows.map((row: any) => row.fullName)).toEqual(rows.map(() => 'Hira Abbasi'));
  });

  test('people search --country DE sends countryId 18', async () => {
    const rows = await expectSameAsRaw(['people', 'search', 'a', '--country', 'DE'], 'people/search?q=a&countryId=18');
    expect(new Set(rows.map((row: any) => row.countryId))).toEqual(new Set([18]));
  });

  test('people search --limit 3', async () => {
    const rows = await expectSameAsRaw(['people', 'search', 'a', '--limit', '3'], 'people/search?q=a&limit=3');
    expect(rows).toHaveLength(3);
  });
});

describe.concurrent('people top', () => {
  test('--weeks last4 sends startWeek=last4StartWeek and endWeek=currentWeek', async () => {
    const result = await run(['people', 'top', '--weeks', 'last4', '--limit', '5', '-v', '-f', 'json']);
    const stdout = expectSuccess(result);
    expect(requested(result.stderr)).toEqual([
      { path: '/api/data/weeks/current', params: {} },
      { path: '/api/data/people/top', params: { startWeek: '202644', endWeek: '202647', limit: '5' } },
    ]);
    expect(JSON.parse(stdout)).toEqual(await rawJson(server, 'people/top?startWeek=202644&endWeek=202647&limit=5'));
  });

  test('--start/--end send the window as given, without asking for the current week', async () => {
    const result = await run(['people', 'top', '--start', '202640', '--end', '202643', '--limit', '4', '-v', '-f', 'json']);
    const stdout = expectSuccess(result);
    expect(requested(result.stderr)).toEqual([
      { path: '/api/data/people/top', params: { startWeek: '202640', endWeek: '202643', limit: '4' } },
    ]);
    expect(JSON.parse(stdout)).toEqual(await rawJson(server, 'people/top?startWeek=202640&endWeek=202643&limit=4'));
  });

  test('--sort dominance ranks by dominance, rank from 1', async () => {
    const rows = await expectSameAsRaw(['people', 'top', '--sort', 'dominance', '--limit', '20'], 'people/top?sortBy=dominance&limit=20');
    expect(rows.map((row: any) => row.rank)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const dominance = rows.map((row: any) => row.dominance as number);
    expect(dominance).toEqual([...dominance].sort((a, b) => b - a));
    const byMentions = await rawJson<any[]>(server, 'people/top?limit=20');
    expect(rows.map((row: any) => row.personHash)).not.toEqual(byMentions.map((row) => row.personHash));
  });

  // Each filter changes the ranking (checked against the unfiltered one), so a dropped flag fails.
  const filters: Array<[string, string[], string]> = [
    ['--country DE', ['--country', 'DE'], 'countryId=18'],
    ['--from-country DE', ['--from-country', 'de'], 'fromCountryId=18'],
    ['--gender 2', ['--gender', '2'], 'gender=2'],
    ['--min-age/--max-age', ['--min-age', '30', '--max-age', '45'], 'minAge=30&maxAge=45'],
    ['--category sport', ['--category', 'sport'], 'newsCategory=sport'],
    ['--fresh', ['--fresh'], 'fresh=true'],
  ];
  test.each(filters)('%s', async (_name, flags, query) => {
    const baseline = await rawGet(server, 'people/top?limit=10');
    const filtered = await rawGet(server, `people/top?limit=10&${query}`);
    expect(filtered.status).toBe(200);
    expect(filtered.text).not.toBe(baseline.text);
    const rows = await expectSameAsRaw(['people', 'top', '--limit', '10', ...flags], `people/top?limit=10&${query}`);
    if (query.startsWith('fromCountryId')) expect(new Set(rows.map((row: any) => row.fromCountryId))).toEqual(new Set([18]));
    if (query.startsWith('gender')) expect(new Set(rows.map((row: any) => row.gender))).toEqual(new Set([2]));
  });

  test('--limit 7 gives 7 ranked rows', async () => {
    const rows = await expectSameAsRaw(['people', 'top', '--limit', '7'], 'people/top?limit=7');
    expect(rows.map((row: any) => row.rank)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe.concurrent('people links/countries', () => {
  test('people links --limit', async () => {
    const rows = await expectSameAsRaw(['people', 'links', 'hira-abbasi-d893', '--limit', '4'], 'people/hira-abbasi-d893/links?limit=4');
    expect(rows).toHaveLength(4);
    expect(rows[0]).toHaveProperty('articleTitle');
  });

  test('people links --no-context has only the link fields', async () => {
    const rows = await expectSameAsRaw(
      ['people', 'links', 'hira-abbasi-d893', '--limit', '3', '--no-context'],
      'people/hira-abbasi-d893/links?limit=3&includeContext=false',
    );
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['personHash', 'articleHash', 'mentionDate', 'snippet', 'sentiment']);
      expect(row).not.toHaveProperty('articleTitle');
    }
  });

  test('people countries: one row per country, personHash/startWeek/endWeek first', async () => {
    const [result, stats] = await Promise.all([
      run(['people', 'countries', 'hira-abbasi-d893', '--weeks', 'last4', '-f', 'csv']),
      rawJson<any>(server, 'people/hira-abbasi-d893/country-stats?startWeek=202644&endWeek=202647'),
    ]);
    const text = expectSuccess(result);
    const header = (parse(text, { to_line: 1 }) as string[][])[0]!;
    expect(header.slice(0, 3)).toEqual(['personHash', 'startWeek', 'endWeek']);
    const rows = csvRecords(text);
    expect(stats.countries.length).toBeGreaterThan(1);
    expect(rows).toHaveLength(stats.countries.length);
    expect(rows.map((row) => row.countryIso)).toEqual(stats.countries.map((country: any) => country.countryIso));
    expect(new Set(rows.map((row) => `${row.personHash} ${row.startWeek} ${row.endWeek}`))).toEqual(
      new Set(['hira-abbasi-d893 202644 202647']),
    );
    expect(rows.map((row) => row.mentions)).toEqual(stats.countries.map((country: any) => String(country.mentions)));
  });
});

describe.concurrent('people trend and exports', () => {
  test('people trend: one row a week, mentions summed exactly from that week\'s country stats', async () => {
    const result = await run(['people', 'trend', 'hira-abbasi-d893', '--weeks', 'last4', '-f', 'csv']);
    const rows = csvRecords(expectSuccess(result));
    const weeks = [202644, 202645, 202646, 202647];
    const stats = await Promise.all(weeks.map((week) => rawJson<any>(server, `people/hira-abbasi-d893/country-stats?startWeek=${week}&endWeek=${week}`)));
    expect(rows).toEqual(
      stats.map((week, index) => ({
        week: String(weeks[index]),
        mentions: String(week.countries.reduce((total: number, country: any) => total + country.mentions, 0)),
        globalDominance: String(week.globalDominance),
        globalSentiment: String(week.globalSentiment),
        globalReach: String(week.globalReach),
        globalPower: String(week.globalPower),
        persistence: String(week.persistence),
        countries: String(week.countries.length),
      })),
    );
  });

  test('export country-stats: the top N people\'s country rows in rank order', async () => {
    const result = await run(['export', 'country-stats', '--top', '2', '--weeks', 'last4', '-f', 'csv', '-q']);
    const rows = csvRecords(expectSuccess(result));
    const top = await rawJson<any[]>(server, 'people/top?startWeek=202644&endWeek=202647&limit=2');
    const stats = await Promise.all(top.map((person) => rawJson<any>(server, `people/${person.personHash}/country-stats?startWeek=202644&endWeek=202647`)));
    expect(rows.map((row) => [row.rank, row.fullName, row.personHash, row.startWeek, row.endWeek, row.countryIso, row.mentions])).toEqual(
      top.flatMap((person, index) =>
        stats[index].countries.map((country: any) => [String(person.rank), person.fullName, person.personHash, '202644', '202647', country.countryIso, String(country.mentions)]),
      ),
    );
  });

  test('export links: --limit links a person for the top N, rank and name first', async () => {
    const result = await run(['export', 'links', '--top', '2', '--limit', '3', '--weeks', 'last4', '-f', 'ndjson', '-q']);
    const rows = expectSuccess(result).trimEnd().split('\n').map((line) => JSON.parse(line));
    const top = await rawJson<any[]>(server, 'people/top?startWeek=202644&endWeek=202647&limit=2');
    const links = await Promise.all(top.map((person) => rawJson<any[]>(server, `people/${person.personHash}/links?limit=3`)));
    expect(rows).toEqual(top.flatMap((person, index) => links[index]!.map((link) => ({ rank: person.rank, fullName: person.fullName, ...link }))));
    expect(Object.keys(rows[0]).slice(0, 3)).toEqual(['rank', 'fullName', 'personHash']);
  });
});

describe('cache', () => {
  test('the countries list is cached across runs; cache clear empties it; --no-cache bypasses it', async () => {
    const home = tempDir();
    const env = sandboxEnv(server);
    const paths = async (args: string[]) => {
      const result = await runCliWithHome(home, [...args, '-v', '-f', 'json'], { env });
      expect(JSON.parse(expectSuccess(result))).toEqual({ countryId: 18, countryName: 'Germany', countryIso: 'DE' });
      return requested(result.stderr).map((request) => request.path);
    };
    expect(await paths(['countries', 'get', 'de'])).toEqual(['/api/data/countries', '/api/data/countries/18']);
    expect(await paths(['countries', 'get', 'de'])).toEqual(['/api/data/countries/18']);
    expect(await paths(['countries', 'get', 'de', '--no-cache'])).toEqual(['/api/data/countries', '/api/data/countries/18']);

    const dir = expectSuccess(await runCliWithHome(home, ['cache', 'path'])).trim();
    expect(dir).toBe(join(home, 'cache', 'newsstats'));
    const cached = readdirSync(dir, { recursive: true }).map(String);
    expect(cached.some((name) => name.includes('countries'))).toBe(true);
    expect(cached.join('\n')).not.toContain(KEY);

    expectSuccess(await runCliWithHome(home, ['cache', 'clear']));
    expect(existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((name) => String(name).includes('countries')) : []).toEqual([]);
    expect(await paths(['countries', 'get', 'de'])).toEqual(['/api/data/countries', '/api/data/countries/18']);
  });
});

describe.concurrent('completion and help', () => {
  // Each script is checked by its own shell where that shell is installed.
  const shells = [
    ['bash', ['bash', '-n']],
    ['zsh', ['zsh', '-n']],
    ['fish', ['fish', '--no-execute']],
  ] as Array<[string, string[]]>;
  test.each(shells.filter(([shell]) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0))('completion %s is a script its shell parses, naming every noun', async (shell, check) => {
    const script = expectSuccess(await runCli(['completion', shell]));
    for (const noun of ['people', 'countries', 'sources', 'articles', 'posts', 'weeks', 'export', 'api', 'auth', 'config', 'cache', 'sandbox']) {
      expect(script).toContain(noun);
    }
    const file = join(tempDir(), `newsstats.${shell}`);
    writeFileSync(file, script);
    const parsed = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(check[0]!, [...check.slice(1), file], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', (error) => resolve({ code: -1, stderr: String(error) }));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(parsed).toEqual({ code: 0, stderr: '' });
  });

  test('help exit-codes lists every exit code', async () => {
    const text = expectSuccess(await runCli(['help', 'exit-codes']));
    const codes = [...text.matchAll(/^ {2}(\d+) +\S/gm)].map((match) => Number(match[1]));
    expect(codes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 129, 130, 143]);
  });

  test('help weeks explains 53-week years; an unknown topic is a usage error', async () => {
    const [weeks, unknown] = await Promise.all([runCli(['help', 'weeks']), runCli(['help', 'nope'])]);
    // Help wraps at 80 columns when piped: read it with its line breaks as spaces.
    expect(expectSuccess(weeks).replace(/\s+/g, ' ')).toMatch(/202553 is refused \(2025 has 52\)/);
    expectFailure(unknown, 2, 'no help topic or command "nope"');
  });
});

describe.concurrent('countries', () => {
  test('countries list', async () => {
    const rows = await expectSameAsRaw(['countries', 'list'], 'countries');
    expect(rows).toHaveLength(52);
  });

  test.each([['18'], ['de'], ['germany'], ['Germany']])('countries get %s is Germany', async (query) => {
    expect(await cliJson(['countries', 'get', query])).toEqual({ countryId: 18, countryName: 'Germany', countryIso: 'DE' });
  });

  test('countries get by slug with a hyphen', async () => {
    expect(await cliJson(['countries', 'get', 'united-kingdom'])).toEqual({ countryId: 50, countryName: 'United Kingdom', countryIso: 'GB' });
  });

  test('countries attention', async () => {
    const data = await expectSameAsRaw(['countries', 'attention', 'DE'], 'countries/18/international-attention');
    expect(data.countryId).toBe(18);
  });

  test('countries focus --weeks', async () => {
    const data = await expectSameAsRaw(['countries', 'focus', 'DE', '--weeks', '202640..202643'], 'countries/18/domestic-focus?startWeek=202640&endWeek=202643');
    expect([data.startWeek, data.endWeek]).toEqual([202640, 202643]);
    expect(await cliJson(['countries', 'focus', 'DE', '--weeks', 'last4'])).toMatchObject({ startWeek: 202644, endWeek: 202647 });
  });
});

describe.concurrent('sources', () => {
  test('sources list and --country', async () => {
    const all = await expectSameAsRaw(['sources', 'list'], 'sources');
    const german = await expectSameAsRaw(['sources', 'list', '--country', 'DE'], 'sources?countryId=18');
    expect(german.length).toBeLessThan(all.length);
    expect(new Set(german.map((source: any) => source.countryId))).toEqual(new Set([18]));
  });

  test('sources get', async () => {
    const source = await expectSameAsRaw(['sources', 'get', '1'], 'sources/1');
    expect(source.sourceId).toBe(1);
  });

  test('sources links: one row per link with a matched column; --no-filter', async () => {
    const [filtered, unfiltered, raw, rawUnfiltered] = await Promise.all([
      run(['sources', 'links', '1', '-f', 'csv']),
      run(['sources', 'links', '1', '--no-filter', '-f', 'csv']),
      rawJson<any>(server, 'sources/1/links'),
      rawJson<any>(server, 'sources/1/links?applyFilter=false'),
    ]);
    const rows = csvRecords(expectSuccess(filtered));
    expect(rows.map((row) => row.url)).toEqual(raw.allLinks);
    expect(rows.map((row) => row.matched)).toEqual(raw.allLinks.map((url: string) => String(raw.matchedLinks.includes(url))));
    expect(rows.filter((row) => row.matched === 'true').length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.matched === 'false').length).toBeGreaterThan(0);
    expect(new Set(rows.map((row) => `${row.sourceId} ${row.sourceName}`))).toEqual(new Set(['1 Ironwood Courier']));

    const all = csvRecords(expectSuccess(unfiltered));
    expect(rawUnfiltered.matchedLinks).not.toEqual(raw.matchedLinks);
    expect(all.map((row) => row.matched)).toEqual(
      rawUnfiltered.allLinks.map((url: string) => String(rawUnfiltered.matchedLinks.includes(url))),
    );
  });
});

describe.concurrent('posts and articles', () => {
  test('posts recent --count', async () => {
    const posts = await expectSameAsRaw(['posts', 'recent', '--count', '3'], 'posts/recent?count=3');
    expect(posts).toHaveLength(3);
  });

  test('posts get <slug>', async () => {
    const [latest] = await rawJson<any[]>(server, 'posts/recent?count=1');
    const post = await expectSameAsRaw(['posts', 'get', latest.slug], `posts/${latest.slug}`);
    expect(post.slug).toBe(latest.slug);
  });

  test('articles recent --limit', async () => {
    const articles = await expectSameAsRaw(['articles', 'recent', '--limit', '5'], 'articles/recent?limit=5');
    expect(articles).toHaveLength(5);
    expect(articles[0]).toHaveProperty('sourceName');
  });

  test('articles recent --no-source-context has the base fields only', async () => {
    const articles = await expectSameAsRaw(['articles', 'recent', '--limit', '3', '--no-source-context'], 'articles/recent?limit=3&includeSourceContext=false');
    for (const article of articles) expect(Object.keys(article)).toEqual(['articleHash', 'url', 'title', 'sourceId', 'people']);
  });

  test('articles stats --days and --all-time', async () => {
    const days = await expectSameAsRaw(['articles', 'stats', '--days', '30'], 'articles/stats?days=30');
    expect(days.days).toBe(30);
    const allTime = await expectSameAsRaw(['articles', 'stats', '--all-time'], 'articles/stats/all-time');
    expect(Object.keys(allTime)).toEqual(['totalArticles', 'totalSources', 'totalCountries']);
    expect(allTime.totalArticles).toBeGreaterThan(days.totalArticles);
  });
});

describe.concurrent('api', () => {
  test('api with a full path prints the body as JSON', async () => {
    const result = await run(['api', '/api/data/weeks/current']);
    expect(JSON.parse(expectSuccess(result))).toEqual({ currentWeek: 202647, last4StartWeek: 202644 });
  });

  test('api with a short path and --param', async () => {
    const result = await run(['api', 'people/top', '--param', 'limit=3']);
    const rows = JSON.parse(expectSuccess(result));
    expect(rows).toEqual(await rawJson(server, 'people/top?limit=3'));
    expect(rows).toHaveLength(3);
  });
});

describe('auth', () => {
  test('login --with-key saves the key (0600), status masks it, logout removes it', async () => {
    const home = tempDir();
    const env = { NEWSSTATS_BASE_URL: server.url };

    const login = await runCliWithHome(home, ['auth', 'login', '--with-key'], { env, input: `${KEY}\n` });
    expectSuccess(login);
    expect(login.stdout).toBe('');
    expect(login.stderr).toContain('••••4d2b');
    expect(login.stderr).not.toContain(KEY);

    const path = (await runCliWithHome(home, ['config', 'path'])).stdout.trim();
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    // The saved profile carries the key (and the base URL it was checked against).
    expect(readFileSync(path, 'utf8')).toContain(KEY);

    const status = await runCliWithHome(home, ['auth', 'status', '-f', 'json'], { env });
    expect(JSON.parse(expectSuccess(status))).toEqual({
      profile: 'default',
      baseUrl: server.url,
      baseUrlSource: 'NEWSSTATS_BASE_URL',
      keySource: 'profile',
      key: '••••4d2b',
      accepted: 'yes',
    });
    expect(status.stdout + status.stderr).not.toContain(KEY);

    // The saved key works for a data command with no key in the environment.
    expect(JSON.parse(expectSuccess(await runCliWithHome(home, ['weeks', '-f', 'json'], { env })))).toEqual({
      currentWeek: 202647,
      last4StartWeek: 202644,
    });

    expectSuccess(await runCliWithHome(home, ['auth', 'logout'], { env }));
    expect(readFileSync(path, 'utf8')).not.toContain(KEY);
    // Logged out: the block still prints (accepted: no), then the run fails with exit 3.
    const loggedOut = await runCliWithHome(home, ['auth', 'status', '-f', 'json'], { env });
    expect(loggedOut.code).toBe(3);
    expect(JSON.parse(loggedOut.stdout)).toMatchObject({ key: null, keySource: 'none', accepted: 'no (no key)' });
    expect(loggedOut.stderr).toContain('error: not logged in');
  });

  test('login with a rejected key exits 3 and saves nothing', async () => {
    const home = tempDir();
    const result = await runCliWithHome(home, ['auth', 'login', '--with-key'], {
      env: { NEWSSTATS_BASE_URL: server.url },
      input: 'sk-wrong-key-000000\n',
    });
    expectFailure(result, 3, /401/);
    const path = (await runCliWithHome(home, ['config', 'path'])).stdout.trim();
    expect(existsSync(path) ? readFileSync(path, 'utf8') : '').not.toContain('sk-wrong-key-000000');
  });
});

describe('config', () => {
  test('set/get/list/unset/path, with a 0600 file in a 0700 directory', async () => {
    const home = tempDir();
    const path = expectSuccess(await runCliWithHome(home, ['config', 'path'])).trim();
    expect(path.startsWith(home)).toBe(true);

    expect(expectSuccess(await runCliWithHome(home, ['config', 'set', 'base-url', 'https://stats.example.com/']))).toBe('');
    expectSuccess(await runCliWithHome(home, ['config', 'set', 'retries', '5', '--profile', 'staging']));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);

    expect(expectSuccess(await runCliWithHome(home, ['config', 'get', 'base-url']))).toBe('https://stats.example.com\n');
    expect(JSON.parse(expectSuccess(await runCliWithHome(home, ['config', 'list', '-f', 'json'])))).toEqual([
      { profile: 'default', key: 'base-url', value: 'https://stats.example.com' },
      { profile: 'staging', key: 'retries', value: '5' },
    ]);

    expectSuccess(await runCliWithHome(home, ['config', 'unset', 'base-url']));
    expectFailure(await runCliWithHome(home, ['config', 'get', 'base-url']), 2, 'base-url is not set in profile "default"');
    expect(expectSuccess(await runCliWithHome(home, ['config', 'get', 'retries', '--profile', 'staging']))).toBe('5\n');
  });

  test('config refuses bad keys and values before writing anything', async () => {
    const home = tempDir();
    const [unknown, apiKey, retries] = await Promise.all([
      runCliWithHome(home, ['config', 'set', 'colour', 'red']),
      runCliWithHome(home, ['config', 'set', 'api-key', 'sk-should-not-be-saved']),
      runCliWithHome(home, ['config', 'set', 'retries', '99']),
    ]);
    expectFailure(unknown, 2, 'unknown config key "colour"');
    expectFailure(apiKey, 2, 'the key is not set with config');
    expect(apiKey.stderr).toContain('newsstats auth login');
    expectFailure(retries, 2, 'retries takes an integer from 0 to 20');
    const path = (await runCliWithHome(home, ['config', 'path'])).stdout.trim();
    expect(existsSync(path)).toBe(false);
  });
});

describe('sandbox command', () => {
  test('prints only the URL on stdout, a banner on stderr, serves, and exits 0 on SIGTERM', async () => {
    let firstLine: Promise<string> | undefined;
    let lastResponse: { status: number; body: unknown } | undefined;
    // A process of its own: what a real SIGTERM does to the server, and its exit status, is the point.
    const result = spawnCli(['sandbox', '--port', '0', '--now', '2026-11-22'], {
      onSpawn: (child) => {
        firstLine = new Promise((resolve, reject) => {
          let buffered = '';
          child.stdout!.on('data', (chunk: Buffer | string) => {
            buffered += chunk.toString();
            const newline = buffered.indexOf('\n');
            if (newline >= 0) resolve(buffered.slice(0, newline));
          });
          child.on('close', () => reject(new Error(`sandbox exited before printing its URL: ${buffered}`)));
        });
        void firstLine
          .then(async (url) => {
            const response = await fetch(`${url}/api/data/weeks/current`, { headers: { 'X-Api-Key': 'sandbox' } });
            lastResponse = { status: response.status, body: await response.json() };
          })
          .catch((error: unknown) => (lastResponse = { status: -1, body: String(error) }))
          .finally(() => child.kill('SIGTERM'));
      },
    });
    const done = await result;
    const url = await firstLine!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(url).not.toBe('http://127.0.0.1:0');
    expect(lastResponse).toEqual({ status: 200, body: { currentWeek: 202647, last4StartWeek: 202644 } });
    expect(done.stdout).toBe(`${url}\n`);
    expect(done.stderr).toContain(`serving synthetic data at ${url}`);
    expect(done.stderr).not.toMatch(/^error:/m);
    expect({ code: done.code, signal: done.signal }).toEqual({ code: 0, signal: null });
  });
});

describe('global --sandbox', () => {
  test('runs against the in-process sandbox with a note on stderr', async () => {
    const result = await runCli(['--sandbox', 'weeks', '-f', 'json'], { env: { NEWSSTATS_API_KEY: undefined } });
    const data = JSON.parse(expectSuccess(result));
    expect(Object.keys(data)).toEqual(['currentWeek', 'last4StartWeek']);
    expect(result.stderr).toContain('synthetic');
  });
});

describe('53-week years (2020 has week 53)', () => {
  let old: RunningSandbox;
  beforeAll(async () => {
    old = await sandbox({ now: new Date('2021-01-05T12:00:00Z') });
  });
  afterAll(async () => {
    await old?.close();
  });
  const runOld = (args: string[]) => runCli(args, { env: sandboxEnv(old) });

  test.concurrent('the service is in week 202101', async () => {
    expect(JSON.parse(expectSuccess(await runOld(['weeks', '-f', 'json'])))).toEqual({ currentWeek: 202101, last4StartWeek: 202051 });
  });

  test.concurrent('--weeks last4 spans 202051..202101', async () => {
    const result = await runOld(['people', 'top', '--weeks', 'last4', '--limit', '1', '-v', '-f', 'json']);
    expectSuccess(result);
    expect(result.stderr).toContain(`${old.url}/api/data/people/top?startWeek=202051&endWeek=202101`);
  });

  test.concurrent('--weeks last2 starts at 202053', async () => {
    const result = await runOld(['people', 'top', '--weeks', 'last2', '--limit', '1', '-v', '-f', 'json']);
    expectSuccess(result);
    expect(result.stderr).toContain('startWeek=202053&endWeek=202101');
  });

  test.concurrent('--per-week over 202052..202101 has weeks 202052, 202053, 202101', async () => {
    const result = await runOld(['people', 'top', '--weeks', '202052..202101', '--per-week', '--limit', '2', '-f', 'csv']);
    const rows = csvRecords(expectSuccess(result));
    expect(rows.map((row) => row.week)).toEqual(['202052', '202052', '202053', '202053', '202101', '202101']);
    const raw53 = await rawJson<any[]>(old, 'people/top?startWeek=202053&endWeek=202053&limit=2');
    expect(rows.slice(2, 4).map((row) => row.personHash)).toEqual(raw53.map((row) => row.personHash));
    expect(rows.slice(2, 4).map((row) => row.mentionCount)).toEqual(raw53.map((row) => String(row.mentionCount)));
  });

  test.concurrent('--weeks 202153 is not a week (2021 has 52)', async () => {
    expectFailure(await runOld(['people', 'top', '--weeks', '202153']), 2, /202153 is not an ISO week: 2021 has weeks 202101 to 202152/);
  });
});

describe('pipes', () => {
  test('a reader that closes early (| head -c 100) ends the run with exit 0 and no EPIPE trace', async () => {
    // A real process behind a real pipe: EPIPE from a reader gone is the point.
    // sh has no PIPESTATUS: the CLI's own exit status is reported on fd 3.
    const script = `{ "${process.execPath}" "${BIN}" people list -f json 2>&4; echo "cli=$?" >&3; } 4>&2 | head -c 100`;
    const child = spawn('sh', ['-c', script], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: tempDir(), NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY },
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let status = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8');
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: string) => (status += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(Buffer.byteLength(stdout)).toBe(100);
    expect(stdout.startsWith('[\n  {\n')).toBe(true);
    expect(stderr).toBe('');
    expect(status.trim()).toBe('cli=0');
  });
});
