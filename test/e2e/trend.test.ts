/**
 * Person trend: `people trend <personHash> --weeks SPEC`, one row a week built from that week's
 * country statistics. Expected rows come from the sandbox directly, one single-week request a week.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  apiGet, countPath, csvHeader, csvRecords, expectedTrendRow, type Json, logOf, rawJson, runCli, runCliOnTerminal, stripAnsi, text,
  useLoggedSandbox,
} from './harness.js';

const logged = useLoggedSandbox();
let person: string;

const LAST12 = [202636, 202637, 202638, 202639, 202640, 202641, 202642, 202643, 202644, 202645, 202646, 202647];
const TREND_FIELDS = ['week', 'mentions', 'globalDominance', 'globalSentiment', 'globalReach', 'globalPower', 'persistence', 'countries'];

beforeAll(async () => {
  const [first] = (await apiGet(logged.server, '/people/top', { limit: 1 })) as Json[];
  person = text(first!.personHash);
});

/** The trend as the sandbox gives it: per week, mentions summed over countries and the global metrics. */
async function expectedTrend(weeks: number[]): Promise<Array<Record<string, string>>> {
  const rows = [];
  for (const week of weeks) rows.push(await expectedTrendRow(logged.server, person, week));
  return rows;
}

describe('people trend', () => {
  it('gives one row a week over last12, each from that week\'s country statistics', async () => {
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'trend', person, '--weeks', 'last12', '-f', 'csv'], { env: logged.env }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(csvHeader(result.stdout)).toEqual(TREND_FIELDS);
    const expected = await expectedTrend(LAST12);
    expect(expected.some((row) => row.mentions !== '0')).toBe(true);
    expect(csvRecords(result.stdout)).toEqual(expected);

    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
    const stats = entries.filter((entry) => entry.path === `/api/data/people/${person}/country-stats`);
    expect(stats.map((entry) => Number(entry.query.startWeek)).sort()).toEqual(LAST12);
    for (const entry of stats) expect(entry.query.endWeek).toBe(entry.query.startWeek);
  });

  it('takes explicit ranges, and json keeps numbers as numbers', async () => {
    const result = await runCli(['people', 'trend', person, '--weeks', '202640..202643', '-f', 'json'], { env: logged.env });
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Json[];
    const expected = await expectedTrend([202640, 202641, 202642, 202643]);
    expect(rows.map((row) => Object.keys(row))).toEqual(expected.map(() => TREND_FIELDS));
    expect(rows.map((row) => Object.fromEntries(TREND_FIELDS.map((field) => [field, typeof row[field] === 'number' ? String(row[field]) : row[field]])))).toEqual(expected);
    for (const row of rows) expect(typeof row.mentions).toBe('number');
  });

  it('ends a terminal table with sparklines of mentions and sentiment', async () => {
    const expected = await expectedTrend(LAST12);
    const result = await runCliOnTerminal(['people', 'trend', person, '--weeks', 'last12'], { env: logged.env, columns: 120 });
    expect(result.code).toBe(0);
    const lines = stripAnsi(result.stdout).trimEnd().split('\n');
    const [mentionsLine, sentimentLine] = lines.slice(-2);
    const mentions = /^mentions\s+(\S{12}) {2}low \S+ {2}high \S+$/u.exec(mentionsLine!);
    const sentiment = /^globalSentiment\s+(\S{12}) {2}low \S+ {2}high \S+$/u.exec(sentimentLine!);
    expect(mentions, mentionsLine).not.toBeNull();
    expect(sentiment, sentimentLine).not.toBeNull();
    // Each sparkline spans its own range: the week with the most mentions is the full block, the
    // week with the fewest the lowest one.
    for (const [match, field] of [[mentions!, 'mentions'], [sentiment!, 'globalSentiment']] as const) {
      const marks = [...match[1]!];
      expect(marks.every((mark) => '▁▂▃▄▅▆▇█'.includes(mark))).toBe(true);
      const values = expected.map((row) => Number(row[field]));
      expect(marks[values.indexOf(Math.max(...values))]).toBe('█');
      expect(marks[values.indexOf(Math.min(...values))]).toBe('▁');
    }
    // The table above it has a row per week.
    for (const week of LAST12) expect(lines.some((line) => line.includes(String(week)))).toBe(true);

    // Off a terminal the table is plain tab-separated lines, with no sparklines.
    const piped = await runCli(['people', 'trend', person, '--weeks', 'last12', '-f', 'table'], { env: logged.env });
    expect(piped.code).toBe(0);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(13);
    expect(piped.stdout).not.toMatch(/[▁▂▃▄▅▆▇█]/u);
  });

  it('--format chart draws the --metric as a line on a terminal, each week on its column', async () => {
    const expected = await expectedTrend(LAST12);
    const result = await runCliOnTerminal(['people', 'trend', person, '--weeks', 'last12', '--format', 'chart', '--metric', 'globalSentiment'], {
      env: { ...logged.env, NO_COLOR: '1' },
      columns: 80,
    });
    expect(result.code).toBe(0);
    const [caption, ...lines] = result.stdout.trimEnd().split('\n');
    // The person by name (#18), not by personHash.
    expect(caption).toBe(`${(await rawJson<{ fullName: string }>(logged.server, `people/${person}`)).fullName} · weeks 202636–202647 · 202647 so far (partial)`);
    // Title, 11 rows of plot, the x axis, the week labels.
    expect(lines).toHaveLength(14);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);

    const values = expected.map((row) => Number(row.globalSentiment));
    const lowest = values.indexOf(Math.min(...values));
    const highest = values.indexOf(Math.max(...values));
    expect(lines[0]).toBe(
      `globalSentiment, 202636 to 202647: low ${expected[lowest]!.globalSentiment}, ` +
        `high ${expected[highest]!.globalSentiment}, last ${expected[11]!.globalSentiment}`,
    );
    // The plot starts after the y axis ("-0.123 ┤"); week i is drawn on column round(i * (w - 1) / 11).
    const plotStart = lines[1]!.indexOf('┤') + 1;
    const plotWidth = 80 - plotStart;
    const columnOf = (week: number) => plotStart + Math.round((week * (plotWidth - 1)) / 11);
    expect(lines[1]![columnOf(highest)]).not.toBe(' ');
    expect(lines[11]![columnOf(lowest)]).not.toBe(' ');
    expect(lines[12]).toMatch(/└─+$/);
    expect(lines[13]!.trim().split(/\s+/)[0]).toBe('202636');
  });

  it('the default chart metric is mentions', async () => {
    const expected = await expectedTrend(LAST12);
    const result = await runCliOnTerminal(['people', 'trend', person, '--weeks', 'last12', '-f', 'chart'], { env: { ...logged.env, NO_COLOR: '1' }, columns: 80 });
    expect(result.code).toBe(0);
    const title = result.stdout.split('\n')[1]!;
    expect(title.startsWith('mentions, 202636 to 202647: low ')).toBe(true);
    expect(title.endsWith(`, last ${expected[11]!.mentions}`)).toBe(true);
  });

  it('refuses a chart off a terminal and an unknown metric, before any request', async () => {
    const { result: runs, entries } = await logOf(logged.log, () =>
      Promise.all([
        runCli(['people', 'trend', person, '--weeks', 'last12', '-f', 'chart'], { env: logged.env }),
        runCli(['people', 'trend', person, '--weeks', 'last12', '--metric', 'bogus'], { env: logged.env }),
      ]),
    );
    const [chart, metric] = runs;
    expect(chart.code).toBe(2);
    expect(chart.stderr).toMatch(/table/);
    expect(chart.stderr).toMatch(/csv/);
    expect(metric.code).toBe(2);
    expect(metric.stderr).toMatch(/mentions/);
    for (const run of runs) expect(run.stdout).toBe('');
    expect(entries).toEqual([]);
  });

  it('an unknown person is one 404 (exit 4), not one per week', async () => {
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'trend', 'nobody-0000', '--weeks', 'last12', '-f', 'csv'], { env: logged.env }));
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(entries.filter((entry) => entry.status === 404)).toHaveLength(1);
    expect(countPath(entries, /country-stats$/)).toBe(0);
  });
});
