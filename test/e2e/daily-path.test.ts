/**
 * The small things on a user's daily path (#18), in-process against a logged sandbox: what a flag
 * accepts, what a slip suggests, which exit code a refusal has. What a person sees at a terminal is
 * in terminal.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { GENDER_CODES } from '../../src/api/gender.js';
import { GENDERS } from '../../src/sandbox/data/index.js';
import { expectFailure, rawJson, readLog, REPO, runCli, runCliWithHome, tempDir, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();

/** The query the CLI sent for a path, from the sandbox's log (its newest request to that path). */
async function lastQuery(pathPart: string): Promise<Record<string, string | string[]>> {
  const entries = (await readLog(logged.log)).filter((entry) => entry.path.includes(pathPart));
  return entries.at(-1)!.query;
}

describe('--gender takes a name', () => {
  test.each([
    ['female', 1],
    ['Male', 2],
    ['non-binary', 3],
    ['unknown', 0],
    ['2', 2],
  ])('people search --gender %s sends gender=%i, and every person found has it', async (gender, code) => {
    const result = await runCli(['people', 'search', 'a', '--gender', gender, '--limit', '20', '-f', 'json'], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    const people = JSON.parse(result.stdout) as Array<{ gender: number }>;
    expect(people.length).toBeGreaterThan(0);
    expect(new Set(people.map((person) => person.gender))).toEqual(new Set([code]));
  });

  test('people top --gender female sends the code', async () => {
    const result = await runCli(['people', 'top', '--weeks', '202644..202647', '--gender', 'female', '--limit', '3', '-f', 'json'], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    expect((await lastQuery('people/top')).gender).toBe('1');
  });

  test('a word it does not know is exit 2 naming the values, with the closest', async () => {
    const line = expectFailure(await runCli(['people', 'top', '--gender', 'femal'], { env: logged.env }), 2);
    expect(line).toBe("error: option '--gender <gender>' argument 'femal' is invalid. --gender takes female, male, non-binary, unknown or a code (an integer of at least 0); did you mean female?");
  });

  test('the names mean the codes the sandbox\'s data uses', () => {
    expect(GENDERS).toEqual({ unknown: GENDER_CODES.unknown, female: GENDER_CODES.female, male: GENDER_CODES.male, nonBinary: GENDER_CODES['non-binary'] });
  });

  test('--help lists the values', async () => {
    const help = (await runCli(['people', 'search', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--gender <gender> only people of this gender: female (1), male (2), non-binary (3), unknown (0), or another code');
  });
});

/** #18: each slip gets one line with what it most likely meant, exit 2, and no request. */
describe('a slip suggests what it meant, in one line', () => {
  test.each([
    [['top', '--weeks', 'last4'], 'error: unknown command "top"; did you mean newsstats people top --weeks last4?'],
    [['version'], 'error: unknown command "version"; did you mean newsstats --version?'],
    [['-q', 'list'], 'error: unknown command "list": it is a verb of people, countries, sources, config; e.g. newsstats -q people list'],
    [['tpa'], 'error: unknown command "tpa"; did you mean tap?'],
    [['people', 'tpo'], 'error: "people" has no verb "tpo"; did you mean top?'],
    [['people', 'top', '--weeks', 'last', '4'], 'error: --weeks takes lastN as one word; did you mean newsstats people top --weeks last4?'],
    [['people', 'top', '--weeks', 'last 12'], 'error: option \'--weeks <spec>\' argument \'last 12\' is invalid. "last 12" is not a week spec; did you mean last12?'],
    [['people', 'top', '--weeks', '2026-W46'], 'error: option \'--weeks <spec>\' argument \'2026-W46\' is invalid. "2026-W46" is not a week spec; did you mean 202646?'],
    [['people', 'top', '--weeks', '2026-W40..2026-W46'], 'is not a week spec; did you mean 202640..202646?'],
    [['people', 'top', '--weeks', '2026-11-18'], '"2026-11-18" is not a week spec; did you mean 202647?'],
    [['people', 'top', '--start', '2026-W40', '--end', '202646'], '"2026-W40" is not a week: write YYYYWW, here 202640.'],
    [['people', 'top', '--weeks', '202647..202640'], '"202647..202640": the range is reversed (202647 comes after 202640); did you mean 202640..202647?'],
    [['people', 'top', '--start', '202647', '--end', '202640'], 'error: --start 202647 comes after --end 202640; did you mean --start 202640 --end 202647?'],
    [['people', 'top', 'last4', '--limit', '5'], 'error: "last4" is a week window, given where no argument goes; did you mean newsstats people top --weeks last4 --limit 5?'],
  ])('newsstats %j', async (args, line) => {
    const before = (await readLog(logged.log)).length;
    const result = await runCli(args, { env: logged.env });
    expect(result.stderr.split('\n').filter(Boolean), result.stderr).toHaveLength(1);
    expect(expectFailure(result, 2)).toContain(line);
    expect(await readLog(logged.log)).toHaveLength(before);
  });

  test.each([
    [['people', 'get', 'Hira'], 'error: person "Hira" not found: that is a name, not a personHash; did you mean newsstats people search Hira?'],
    [['people', 'links', 'Hira Abbasi'], 'error: person "Hira Abbasi" not found: that is a name, not a personHash; did you mean newsstats people search \'Hira Abbasi\'?'],
    [['people', 'trend', 'hira-abbasi-d893', 'Layla', '--weeks', 'last4'], 'error: person "Layla" not found: that is a name, not a personHash; did you mean newsstats people search Layla?'],
  ])('newsstats %j: a name where the personHash goes points at people search (after the service said 404)', async (args, line) => {
    expect(expectFailure(await runCli(args, { env: logged.env }), 2)).toBe(line);
  });

  test('an id-like personHash the service does not know stays a plain 404 (exit 4)', async () => {
    expect(expectFailure(await runCli(['people', 'get', 'nobody-0000'], { env: logged.env }), 4)).toBe('error: person "nobody-0000" not found');
  });
});

/** #18: `newsstats people` alone exited 2 while `newsstats` alone showed the help. */
describe('a noun alone shows its help, exit 0', () => {
  test.each([['people'], ['config'], ['auth'], ['countries'], ['api'], ['completion'], ['-q', 'people']])('newsstats %s', async (...args) => {
    const result = await runCli(args);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const noun = args.at(-1)!;
    expect(result.stdout).toMatch(new RegExp(`^Usage: newsstats ${noun} `));
    expect(result.stdout).toBe((await runCli([noun, '--help'])).stdout);
  });

  test('a noun followed by a word it does not know is still an error', async () => {
    expectFailure(await runCli(['people', 'frobnicate']), 2, 'its verbs: top, movers');
  });
});

/** #18: the refusal named the library's allowInsecureHttp, not the profile key a CLI user sets. */
describe('a plain-http base-url', () => {
  test('config set base-url http://… is refused at once, naming allow-insecure-http; loopback and an opted-in profile are accepted', async () => {
    const home = tempDir();
    const refused = await runCliWithHome(home, ['config', 'set', 'base-url', 'http://stats.example.com']);
    expect(expectFailure(refused, 2)).toBe('error: refusing to send the API key over plain http to stats.example.com: use an https:// base URL, or run `newsstats config set allow-insecure-http true` to accept the risk');
    expect(refused.stderr).not.toContain('allowInsecureHttp');
    expect((await runCliWithHome(home, ['config', 'get', 'base-url'])).code).toBe(2);
    expect((await runCliWithHome(home, ['config', 'set', 'base-url', 'http://127.0.0.1:8787'])).code).toBe(0);
    expect((await runCliWithHome(home, ['config', 'set', 'allow-insecure-http', 'true'])).code).toBe(0);
    expect((await runCliWithHome(home, ['config', 'set', 'base-url', 'http://stats.example.com'])).code).toBe(0);
    expect((await runCliWithHome(home, ['config', 'get', 'base-url'])).stdout).toBe('http://stats.example.com\n');
  });

  test('a later run against it (--base-url) names the profile key too', async () => {
    const line = expectFailure(await runCli(['weeks', '--base-url', 'http://stats.example.com'], { env: { NEWSSTATS_API_KEY: 'sk-test-0001' } }), 2);
    expect(line).toContain('newsstats config set allow-insecure-http true');
    expect(line).not.toContain('allowInsecureHttp');
  });
});

/** #18: a `people top` file says which weeks it covers; without --weeks the window is pinned (last4). */
describe('people top in a file', () => {
  test('CSV: startWeek and endWeek after the contract\'s columns; JSON stays the answer as sent', async () => {
    const csv = await runCli(['people', 'top', '--limit', '3', '-f', 'csv'], { env: logged.env });
    expect(csv.code, csv.stderr).toBe(0);
    const [header, ...rows] = csv.stdout.trimEnd().split('\n');
    expect(header!.split(',').slice(-2)).toEqual(['startWeek', 'endWeek']);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(row.endsWith(',202644,202647')).toBe(true);
    expect((await lastQuery('people/top'))).toMatchObject({ startWeek: '202644', endWeek: '202647', limit: '3' });
    const json = JSON.parse((await runCli(['people', 'top', '--limit', '3', '-f', 'json'], { env: logged.env })).stdout) as Array<Record<string, unknown>>;
    expect(Object.keys(json[0]!)).not.toContain('startWeek');
  });

  test('--fields can pick them, as any field', async () => {
    const result = await runCli(['people', 'top', '--weeks', '202640..202643', '--limit', '2', '-f', 'csv', '--fields', 'rank,personHash,startWeek,endWeek'], { env: logged.env });
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'rank,personHash,startWeek,endWeek',
      ...(await rawJson<Array<{ personHash: string }>>(logged.server, 'people/top?startWeek=202640&endWeek=202643&limit=2')).map((person, index) => `${index + 1},${person.personHash},202640,202643`),
    ]);
  });
});

/** #18: the Monday-morning recipe (docs/recipes.md) compares two completed weeks, and its --jq runs as written. */
describe('the Slack recipe in docs/recipes.md', () => {
  test('last week against the week before, posted as one JSON object', async () => {
    const recipes = readFileSync(join(REPO, 'docs', 'recipes.md'), 'utf8');
    const block = /\*\*Weekly movers to Slack with jq\.\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(recipes)![1]!;
    expect(block).toContain("week=$(date -u -d '7 days ago' +%G%V)");
    expect(block).toContain('people movers --weeks "$week"');
    const expression = /--jq '([\s\S]*?)' \\\n/.exec(block)![1]!;
    // The sandbox's now is 2026-11-22 (week 202647): seven days earlier lies in 202646.
    const result = await runCli(['-q', 'people', 'movers', '--weeks', '202646', '--limit', '20', '--jq', expression], { env: logged.env });
    expect(result.code, result.stderr).toBe(0);
    const message = JSON.parse(result.stdout) as { text: string };
    expect(message.text.split('\n')[0]).toBe('*Movers 202646..202646 vs 202645..202645*');
    expect(message.text).toMatch(/▲\d+ /);
  });
});
