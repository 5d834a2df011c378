/**
 * Week panels: `people top --weeks A..B --per-week` is one ranking per week, as one table with a
 * leading week column. Expected rows come from the sandbox directly, one single-week ranking a week.
 */
import { describe, expect, it } from 'vitest';
import { apiGet, countPath, csvHeader, csvRecords, type Json, logOf, runCli, text, useLoggedSandbox } from './harness.js';
import { readTsv, tsvRecords } from './tsv-read.js';

const logged = useLoggedSandbox();


const WEEKS = [202640, 202641, 202642, 202643, 202644, 202645, 202646, 202647];

/** The panel as the sandbox itself gives it: one single-week ranking per week, in week order. */
async function expectedPanel(weeks: number[], params: Record<string, string | number | boolean | undefined>) {
  const rows: Array<{ week: number; item: Json }> = [];
  for (const week of weeks) {
    const ranking = (await apiGet(logged.server, '/people/top', { ...params, startWeek: week, endWeek: week })) as Json[];
    for (const item of ranking) rows.push({ week, item });
  }
  return rows;
}

const COMPARED = ['rank', 'personHash', 'fullName', 'mentionCount', 'dominance', 'sentiment', 'fromCountryId'];

function expectSameRows(actual: Array<Record<string, string>>, expected: Array<{ week: number; item: Json }>) {
  expect(actual).toHaveLength(expected.length);
  expect(actual.map((row) => Object.fromEntries([['week', row.week], ...COMPARED.map((field) => [field, row[field]])]))).toEqual(
    expected.map(({ week, item }) => Object.fromEntries([['week', String(week)], ...COMPARED.map((field) => [field, text(item[field])])])),
  );
}

describe('people top --per-week', () => {
  it('emits one ranking per week, in week then rank order, with a leading week column (csv)', async () => {
    const { result, entries } = await logOf(logged.log, () =>
      runCli(['people', 'top', '--weeks', '202640..202647', '--per-week', '--limit', '5', '-f', 'csv'], { env: logged.env }),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(csvHeader(result.stdout)[0]).toBe('week');
    const expected = await expectedPanel(WEEKS, { limit: 5 });
    expect(expected).toHaveLength(WEEKS.length * 5);
    expectSameRows(csvRecords(result.stdout), expected);

    // One single-week ranking per week, each asked exactly once; explicit weeks need no week info.
    const top = entries.filter((entry) => entry.path === '/api/data/people/top');
    expect(top.map((entry) => Number(entry.query.startWeek)).sort()).toEqual(WEEKS);
    for (const entry of top) expect(entry.query).toEqual({ startWeek: entry.query.startWeek, endWeek: entry.query.startWeek, limit: '5' });
    expect(countPath(entries, '/api/data/weeks/current')).toBe(0);
  });

  it('passes every ranking filter and --limit to each week\'s ranking', async () => {
    const countries = (await apiGet(logged.server, '/countries')) as Json[];
    const germany = countries.find((country) => country.countryIso === 'DE')!;
    const args = [
      'people', 'top', '--weeks', '202644..202647', '--per-week', '--limit', '3',
      '--country', 'DE', '--sort', 'dominance', '--gender', '1', '--min-age', '20', '--max-age', '80', '--category', 'politics',
      '-f', 'csv',
    ];
    const { result, entries } = await logOf(logged.log, () => runCli(args, { env: logged.env }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const params = { limit: 3, countryId: text(germany.countryId), sortBy: 'dominance', gender: 1, minAge: 20, maxAge: 80, newsCategory: 'politics' };
    const expected = await expectedPanel([202644, 202645, 202646, 202647], params);
    expect(expected.length).toBeGreaterThan(0);
    expectSameRows(csvRecords(result.stdout), expected);

    const top = entries.filter((entry) => entry.path === '/api/data/people/top');
    expect(top).toHaveLength(4);
    for (const entry of top) {
      expect(entry.query).toMatchObject({ limit: '3', countryId: text(germany.countryId), sortBy: 'dominance', gender: '1', minAge: '20', maxAge: '80', newsCategory: 'politics' });
      expect(entry.query.startWeek).toBe(entry.query.endWeek);
    }
  });

  it('passes --from-country and --fresh too', async () => {
    const countries = (await apiGet(logged.server, '/countries')) as Json[];
    const nigeria = countries.find((country) => country.countryIso === 'NG')!;
    const cases = [
      { flags: ['--weeks', '202644..202647', '--from-country', 'NG'], weeks: WEEKS.slice(4), params: { fromCountryId: text(nigeria.countryId) }, query: { fromCountryId: text(nigeria.countryId) } },
      { flags: ['--weeks', '202640..202647', '--fresh'], weeks: WEEKS, params: { fresh: true }, query: { fresh: 'true' } },
    ];
    for (const { flags, weeks, params, query } of cases) {
      const { result, entries } = await logOf(logged.log, () => runCli(['people', 'top', ...flags, '--per-week', '--limit', '4', '-f', 'csv'], { env: logged.env }));
      expect(result.code).toBe(0);
      const expected = await expectedPanel(weeks, { limit: 4, ...params });
      expect(expected.length).toBeGreaterThan(0);
      expectSameRows(csvRecords(result.stdout), expected);
      const top = entries.filter((e) => e.path === '/api/data/people/top');
      expect(top).toHaveLength(weeks.length);
      for (const entry of top) expect(entry.query).toMatchObject({ ...query, limit: '4' });
    }
  });

  it('gives the same rows in every format', async () => {
    const base = ['people', 'top', '--weeks', '202645..202647', '--per-week', '--limit', '4'];
    const expected = (await expectedPanel([202645, 202646, 202647], { limit: 4 })).map(({ week, item }) => `${week}/${text(item.rank)}/${text(item.personHash)}`);
    expect(expected).toHaveLength(12);

    const [json, ndjson, tsv, table] = await Promise.all([
      runCli([...base, '-f', 'json'], { env: logged.env }),
      runCli([...base, '-f', 'ndjson'], { env: logged.env }),
      runCli([...base, '-f', 'tsv'], { env: logged.env }),
      runCli([...base, '-f', 'table'], { env: logged.env }),
    ]);
    for (const run of [json, ndjson, tsv, table]) expect(run.code).toBe(0);

    const jsonRows = JSON.parse(json.stdout) as Json[];
    expect(Object.keys(jsonRows[0]!)[0]).toBe('week');
    expect(jsonRows.map((row) => `${row.week}/${row.rank}/${row.personHash}`)).toEqual(expected);

    const ndjsonRows = ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
    expect(ndjsonRows.map((row) => `${row.week}/${row.rank}/${row.personHash}`)).toEqual(expected);

    const tsvRows = tsvRecords(tsv.stdout);
    expect(readTsv(tsv.stdout)[0]![0]).toBe('week');
    expect(tsvRows.map((row) => `${row.week}/${row.rank}/${row.personHash}`)).toEqual(expected);

    // A table off a terminal is tab-separated: week first, then the ranked list's default columns.
    const [header, ...lines] = table.stdout.trimEnd().split('\n');
    expect(header!.split('\t').slice(0, 3)).toEqual(['week', 'rank', 'fullName']);
    expect(lines).toHaveLength(12);
    const names = (await expectedPanel([202645, 202646, 202647], { limit: 4 })).map(({ week, item }) => `${week}\t${text(item.rank)}\t${text(item.fullName)}`);
    expect(lines.map((line) => line.split('\t').slice(0, 3).join('\t'))).toEqual(names);
  });

  it('accepts the week column in --fields', async () => {
    const result = await runCli(['people', 'top', '--weeks', '202646..202647', '--per-week', '--limit', '2', '-f', 'csv', '--fields', 'week,rank,personHash'], { env: logged.env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const expected = await expectedPanel([202646, 202647], { limit: 2 });
    expect(result.stdout).toBe(['week,rank,personHash', ...expected.map(({ week, item }) => `${week},${text(item.rank)},${text(item.personHash)}`)].join('\n') + '\n');
  });

  it('resolves relative windows with one week-info request and one ranking per week', async () => {
    const { result, entries } = await logOf(logged.log, () =>
      runCli(['people', 'top', '--weeks', 'last4', '--per-week', '--limit', '2', '-f', 'csv', '--fields', 'week,rank'], { env: logged.env }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('week,rank\n202644,1\n202644,2\n202645,1\n202645,2\n202646,1\n202646,2\n202647,1\n202647,2\n');
    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
    expect(countPath(entries, '/api/data/people/top')).toBe(4);
  });

  it('refuses, before any request, a panel without a window, --fields week without --per-week, and a panel chart', async () => {
    const { result: runs, entries } = await logOf(logged.log, () =>
      Promise.all([
        runCli(['people', 'top', '--per-week', '-f', 'csv'], { env: logged.env }),
        runCli(['people', 'top', '--weeks', 'last4', '-f', 'csv', '--fields', 'week,rank'], { env: logged.env }),
        runCli(['people', 'top', '--weeks', 'last4', '--per-week', '-f', 'chart'], { env: logged.env }),
      ]),
    );
    const [noWindow, weekField, chart] = runs;
    expect(noWindow.code).toBe(2);
    expect(noWindow.stderr).toMatch(/--weeks/);
    expect(weekField.code).toBe(2);
    expect(weekField.stderr).toMatch(/week/);
    expect(chart.code).toBe(2);
    for (const run of runs) expect(run.stdout).toBe('');
    expect(entries).toEqual([]);
  });

  it('reaching past the current week is a usage error (exit 2) with no partial output', async () => {
    const result = await runCli(['people', 'top', '--weeks', '202640..202652', '--per-week', '--limit', '2', '-f', 'csv'], { env: logged.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/202652|week/);
  });
});
