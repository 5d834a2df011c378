/**
 * `people trend` with several people: long-format rows, one person and week a row, checked against
 * the sandbox's own country statistics; an unknown person fails before any weekly request.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiGet, countPath, csvHeader, csvRecords, expectedTrendRow, logOf, maxInFlight, runCli, runCliOnTerminal, text, useLoggedSandbox,
  type Json,
} from './harness.js';

const logged = useLoggedSandbox();
const WEEKS = [202645, 202646, 202647];
const METRICS = ['mentions', 'globalDominance', 'globalSentiment', 'globalReach', 'globalPower', 'persistence', 'countries'];
let people: Json[];

beforeAll(async () => {
  // Three people from different parts of the ranking, given out of rank order.
  const top = (await apiGet(logged.server, '/people/top', { limit: 30 })) as Json[];
  people = [top[20]!, top[0]!, top[9]!];
});

/** One person's week, with the person after the week as several-person rows have it. */
async function expectedRow(person: Json, week: number): Promise<Record<string, string>> {
  const { week: weekText, ...metrics } = await expectedTrendRow(logged.server, text(person.personHash), week);
  return { week: weekText!, personHash: text(person.personHash), fullName: text(person.fullName), ...metrics };
}

describe('people trend with several people', () => {
  it('gives persons x weeks rows, ordered by week then by the order the people were given', async () => {
    const hashes = people.map((person) => text(person.personHash));
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'trend', ...hashes, '--weeks', '202645..202647', '-f', 'csv'], { env: logged.env }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(csvHeader(result.stdout)).toEqual(['week', 'personHash', 'fullName', ...METRICS]);
    const expected = [];
    for (const week of WEEKS) for (const person of people) expected.push(await expectedRow(person, week));
    expect(csvRecords(result.stdout)).toEqual(expected);

    // One person lookup each, then one request per person and week, never more than 4 at once.
    const stats = entries.filter((entry) => entry.path.endsWith('/country-stats'));
    expect(stats).toHaveLength(9);
    for (const hash of hashes) expect(countPath(entries, `/api/data/people/${hash}`)).toBe(1);
    expect(maxInFlight(stats)).toBeLessThanOrEqual(4);
  });

  it('an unknown person is one exit 4 naming it, before any weekly request', async () => {
    const known = text(people[0]!.personHash);
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'trend', known, 'nobody-0000', '--weeks', 'last12', '-f', 'csv'], { env: logged.env }));
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/nobody-0000/);
    expect(countPath(entries, /country-stats$/)).toBe(0);
  });

  it('one person, or one person given twice, keeps the one-person shape', async () => {
    const hash = text(people[1]!.personHash);
    const once = await runCli(['people', 'trend', hash, '--weeks', '202645..202647', '-f', 'json'], { env: logged.env });
    const twice = await runCli(['people', 'trend', hash, hash, '--weeks', '202645..202647', '-f', 'json'], { env: logged.env });
    expect(once.code).toBe(0);
    expect(twice.stdout).toBe(once.stdout);
    const rows = JSON.parse(once.stdout) as Json[];
    expect(rows.map((row) => Object.keys(row))).toEqual(WEEKS.map(() => ['week', ...METRICS]));
  });

  it('--fields may name the person columns with several people', async () => {
    const hashes = people.slice(0, 2).map((person) => text(person.personHash));
    const result = await runCli(['people', 'trend', ...hashes, '--weeks', '202647', '-f', 'csv', '--fields', 'fullName,mentions'], { env: logged.env });
    expect(result.code).toBe(0);
    expect(csvRecords(result.stdout).map((row) => row.fullName)).toEqual(people.slice(0, 2).map((person) => text(person.fullName)));
  });

  it('--format chart draws a line per person, told apart by marks and a legend', async () => {
    const hashes = people.slice(0, 2).map((person) => text(person.personHash));
    const last = await Promise.all(people.slice(0, 2).map((person) => expectedRow(person, 202647)));
    for (const [env, marks] of [[{ NO_COLOR: '1' }, ['●', '■']], [{ NO_COLOR: '1', LANG: 'C' }, ['*', '+']]] as const) {
      const result = await runCliOnTerminal(['people', 'trend', ...hashes, '--weeks', '202636..202647', '-f', 'chart'], { env: { ...logged.env, ...env }, columns: 80 });
      expect(result.code).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      // The caption (wrapped at 80 columns) names the people and the weeks, the current one marked unfinished.
      const title = lines.indexOf('mentions, 202636 to 202647');
      // By name (#18): the hashes are in the table and the data.
      expect(lines.slice(0, title).join(' ')).toBe(`${people.slice(0, 2).map((person) => text(person.fullName)).join(', ')} · weeks 202636–202647 · 202647 so far (partial)`);
      expect(lines.slice(title + 1, title + 3)).toEqual([0, 1].map((index) => `  ${marks[index]} ${text(people[index]!.fullName)}: last ${last[index]!.mentions}`));
      const plot = lines.slice(title + 3, title + 14).join('\n');
      for (const mark of marks) expect(plot).toContain(mark);
      expect(result.stdout).not.toMatch(/\x1b\[/);
    }
    const coloured = await runCliOnTerminal(['people', 'trend', ...hashes, '--weeks', '202636..202647', '-f', 'chart'], { env: { ...logged.env, FORCE_COLOR: '1' }, columns: 80 });
    expect(coloured.stdout).toContain('\x1b[36m●\x1b[39m');
    expect(coloured.stdout).toContain('\x1b[33m■\x1b[39m');
  });
});
