/**
 * people movers: every row is checked against two `people top` rankings fetched here, directly from
 * the sandbox, and joined by the test's own simple reading of the rules.
 */
import { parse as parseLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/text.js';
import { apiGet, countPath, logOf, runCli, runCliOnTerminal, stripAnsi, text, useLoggedSandbox, type Json } from './harness.js';

const logged = useLoggedSandbox();

interface Expected {
  personHash: string;
  rank: string;
  previousRank: string;
  rankChange: string;
  status: string;
  leftTop: string;
  mentionChange: string;
  dominanceChange: string;
}

/** a - b for numbers with few decimals, rounded back to the finer scale: independent of the CLI's bigint arithmetic. */
function minus(a: string, b: string): string {
  const decimals = Math.max(...[a, b].map((value) => value.split('.')[1]?.length ?? 0));
  const result = (Number(a) - Number(b)).toFixed(decimals);
  return /^-0(\.0*)?$/.test(result) ? result.slice(1) : result;
}

async function expectedMovers(window: [number, number], comparison: [number, number], limit: number, depth: number, query: Record<string, string | number> = {}): Promise<Expected[]> {
  const top = async ([startWeek, endWeek]: [number, number]) =>
    (await apiGet(logged.server, '/people/top', { startWeek, endWeek, limit: depth, ...query })) as Json[];
  const [now, before] = await Promise.all([top(window), top(comparison)]);
  const find = (ranking: Json[], hash: string) => ranking.find((item) => text(item.personHash) === hash);
  const shown = now.filter((item) => Number(text(item.rank)) <= limit).map((item) => text(item.personHash));
  const left = before.filter((item) => Number(text(item.rank)) <= limit && !shown.includes(text(item.personHash))).map((item) => text(item.personHash));
  return [...shown, ...left].map((hash) => {
    const a = find(now, hash);
    const b = find(before, hash);
    const change = a && b ? Number(text(b.rank)) - Number(text(a.rank)) : undefined;
    return {
      personHash: hash,
      rank: text(a?.rank),
      previousRank: text(b?.rank),
      rankChange: change === undefined ? '' : String(change),
      status: !b ? 'new' : !a ? 'out' : change! > 0 ? 'up' : change! < 0 ? 'down' : 'same',
      leftTop: String(left.includes(hash)),
      mentionChange: a && b ? String(BigInt(text(a.mentionCount)) - BigInt(text(b.mentionCount))) : '',
      dominanceChange: a && b ? minus(text(a.dominance), text(b.dominance)) : '',
    };
  });
}

/** The caption's last part: what the marks of the rows that fell out of the top `limit` mean, for those shown. */
function legendOf(rows: Expected[], limit: number, depth: number): string {
  const left = rows.filter((row) => row.leftTop === 'true');
  return [
    left.some((row) => row.status !== 'out') ? ` · left: fell out of the top ${limit}` : '',
    left.some((row) => row.status === 'out') ? ` · out: not in the first ${depth} now` : '',
  ].join('');
}

function moverRows(stdout: string): Expected[] {
  return (parseLossless(stdout) as Json[]).map((row) => ({
    personHash: text(row.personHash),
    rank: text(row.rank),
    previousRank: text(row.previousRank),
    rankChange: text(row.rankChange),
    status: text(row.status),
    leftTop: text(row.leftTop),
    mentionChange: text(row.mentionChange),
    dominanceChange: text(row.dominanceChange),
  }));
}

describe('people movers', () => {
  it('joins last4 with the four weeks before it, read to depth 200, and asks for exactly those two rankings', async () => {
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'movers', '--weeks', 'last4', '--limit', '15', '-f', 'json'], { env: logged.env }));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = moverRows(result.stdout);
    expect(rows).toEqual(await expectedMovers([202644, 202647], [202640, 202643], 15, 200));
    expect(rows.slice(0, 15).map((row) => row.rank)).toEqual(Array.from({ length: 15 }, (_, index) => String(index + 1)));
    // Climbs from deep in the ranking count as climbs: at depth 200 nobody in this top 15 is new.
    expect(rows.filter((row) => row.status === 'up').length).toBeGreaterThan(0);
    expect(rows.some((row) => Number(row.rankChange) > 15)).toBe(true);

    const tops = entries.filter((entry) => entry.path === '/api/data/people/top');
    expect(tops.map((entry) => [entry.query.startWeek, entry.query.endWeek, entry.query.limit]).sort()).toEqual([
      ['202640', '202643', '200'],
      ['202644', '202647', '200'],
    ]);
    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);

    const first = (parseLossless(result.stdout) as Json[])[0]!;
    expect(Object.keys(first)).toEqual([
      'rank', 'previousRank', 'rankChange', 'status', 'leftTop', 'personHash', 'fullName', 'mentionCount', 'previousMentionCount',
      'mentionChange', 'dominance', 'previousDominance', 'dominanceChange', 'window', 'previousWindow',
    ]);
    expect([first.window, first.previousWindow]).toEqual(['202644..202647', '202640..202643']);
  });

  it('asks the week info once a run, however many relative windows it resolves (--weeks last4 --vs last8)', async () => {
    const { result, entries } = await logOf(logged.log, () => runCli(['people', 'movers', '--weeks', 'last4', '--vs', 'last8', '--limit', '5', '-f', 'json'], { env: logged.env }));
    expect(result.code).toBe(0);
    expect(countPath(entries, '/api/data/weeks/current')).toBe(1);
    expect(entries.filter((entry) => entry.path === '/api/data/people/top').map((entry) => [entry.query.startWeek, entry.query.endWeek]).sort()).toEqual([
      ['202640', '202647'],
      ['202644', '202647'],
    ]);
  });

  it('shows new and out when the depth is the limit, with --vs a week spec, sort and filters on both rankings', async () => {
    const args = ['people', 'movers', '--weeks', '202647', '--vs', '202646', '--limit', '10', '--depth', '10', '--sort', 'dominance', '--gender', '1'];
    const { result, entries } = await logOf(logged.log, () => runCli([...args, '-f', 'json'], { env: logged.env }));
    expect(result.code).toBe(0);
    const rows = moverRows(result.stdout);
    const expected = await expectedMovers([202647, 202647], [202646, 202646], 10, 10, { sortBy: 'dominance', gender: 1 });
    expect(rows).toEqual(expected);
    expect(rows.filter((row) => row.status === 'new').length).toBeGreaterThan(0);
    const out = rows.filter((row) => row.status === 'out');
    expect(out.length).toBe(rows.filter((row) => row.status === 'new').length);
    for (const row of out) expect([row.rank, row.rankChange, row.mentionChange]).toEqual(['', '', '']);
    // An explicit range needs no week info; both rankings carry the same filters.
    expect(countPath(entries, '/api/data/weeks/current')).toBe(0);
    for (const entry of entries.filter((e) => e.path === '/api/data/people/top')) {
      expect([entry.query.sortBy, entry.query.gender, entry.query.limit]).toEqual(['dominance', '1', '10']);
    }

    // CSV carries the same rows, empty where JSON has null.
    const csv = await runCli([...args, '-f', 'csv', '--fields', 'personHash,status,rankChange'], { env: logged.env });
    expect(csv.stdout.trimEnd().split('\n').slice(1)).toEqual(expected.map((row) => `${row.personHash},${row.status},${row.rankChange}`));
  });

  it('on a terminal: a caption naming both windows, ▲ and ▼ in colour, = for no change', async () => {
    const expected = await expectedMovers([202644, 202647], [202640, 202643], 20, 200);
    const result = await runCliOnTerminal(['people', 'movers', '--weeks', 'last4'], { env: { ...logged.env, FORCE_COLOR: '1' }, columns: 80 });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    // The caption names both windows and that the last holds the current, partial week (#18).
    const headerAt = lines.findIndex((line) => /\bPERSON HASH\b/.test(stripAnsi(line)));
    expect(lines.slice(0, headerAt).map(stripAnsi).join(' ')).toBe('Ranks by mentions in weeks 202644–202647 against weeks 202640–202643 (rankings read to 200) · 202647 so far (partial): fewer mentions than a full week' + legendOf(expected, 20, 200));
    for (const line of lines) expect(displayWidth(stripAnsi(line))).toBeLessThanOrEqual(80);
    const up = expected.find((row) => row.status === 'up')!;
    const down = expected.find((row) => row.status === 'down')!;
    expect(result.stdout).toContain(`\x1b[32m▲ ${up.rankChange}\x1b[39m`);
    expect(result.stdout).toContain(`\x1b[31m▼ ${down.rankChange.slice(1)}\x1b[39m`);
    // One table row per mover under the header, in order, with its rank (or nothing, for `out`) first.
    const plain = lines.map(stripAnsi);
    const header = plain.findIndex((line) => /\bPERSON HASH\b/.test(line));
    const body = plain.slice(header + 1);
    expect(body).toHaveLength(expected.length);
    const ranks = body.map((line) => /^\s*(\d+)\s/.exec(line)?.[1] ?? null);
    expect(ranks).toEqual(expected.map((row) => row.rank));
    // A row that fell out of the top 20 says so in a word, readable without colour: `left ▼ 13`.
    expect(expected.some((row) => row.leftTop === 'true' && row.status === 'down')).toBe(true);
    body.forEach((line, index) => {
      const row = expected[index]!;
      if (row.leftTop === 'true' && row.status !== 'out') expect(line).toMatch(/\bleft [▲▼=]/u);
      else expect(line).not.toMatch(/\bleft\b/);
    });
  });

  it.each([50, 120])('fits a %i-column terminal, the caption wrapped rather than cut', async (columns) => {
    const expected = await expectedMovers([202644, 202647], [202640, 202643], 5, 200);
    const result = await runCliOnTerminal(['people', 'movers', '--weeks', 'last4', '--limit', '5'], { env: { ...logged.env, NO_COLOR: '1' }, columns });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(columns);
    // At 50 columns a note on stderr (same terminal) first names the columns hidden to fit.
    const captionStart = lines.findIndex((line) => line.startsWith('Ranks by'));
    const captionEnd = lines.findIndex((line) => /\bRANK CHANGE\b/.test(line));
    expect(lines.slice(captionStart, captionEnd).join(' ')).toBe('Ranks by mentions in weeks 202644–202647 against weeks 202640–202643 (rankings read to 200) · 202647 so far (partial): fewer mentions than a full week' + legendOf(expected, 5, 200));
    expect(lines.some((line) => /▲ \d+|▼ \d+/u.test(line))).toBe(true);
  });

  it('--format chart draws the rank change as bars either side of one axis', async () => {
    const expected = await expectedMovers([202644, 202647], [202640, 202643], 20, 200);
    const result = await runCliOnTerminal(['people', 'movers', '--weeks', 'last4', '-f', 'chart'], { env: { ...logged.env, NO_COLOR: '1' }, columns: 80 });
    expect(result.code).toBe(0);
    const all = result.stdout.trimEnd().split('\n');
    const bars = all.slice(-expected.length);
    expect(all.slice(0, -expected.length).join(' ')).toBe('Ranks by mentions in weeks 202644–202647 against weeks 202640–202643 (rankings read to 200) · 202647 so far (partial): fewer mentions than a full week' + legendOf(expected, 20, 200));
    expect(bars).toHaveLength(expected.length);
    // Terminal columns where the bar (whole and eighth blocks, U+2588..U+258F) starts and ends.
    const axis = (line: string) => {
      const bar = /[█-▏]+/u.exec(line) ?? { index: 0, 0: '' };
      const start = displayWidth(line.slice(0, bar.index));
      return { start, end: start + bar[0].length - 1 };
    };
    // Changes too small for an eighth of a cell draw no bar.
    const drawn = (status: string) => bars.filter((line, index) => expected[index]!.status === status && /[█-▏]/u.test(line)).map(axis);
    const climbs = drawn('up');
    const falls = drawn('down');
    expect(climbs.length * falls.length).toBeGreaterThan(0);
    // Every climb starts right of where every fall ends: the bars diverge from one zero axis.
    expect(Math.min(...climbs.map((bar) => bar.start))).toBeGreaterThan(Math.max(...falls.map((bar) => bar.end)));
    bars.forEach((line, index) => expect(line.trimEnd().split(/\s+/).at(-1)).toBe(expected[index]!.rankChange || expected[index]!.status));
    // The bars of those who fell out of the top 20 carry the caption's mark before their value.
    bars.forEach((line, index) => expect(/ left -?\d+$/.test(line.trimEnd())).toBe(expected[index]!.leftTop === 'true' && expected[index]!.rankChange !== ''));
  });

  it('refuses --depth below --limit and a bad --vs before any request', async () => {
    const { result: runs, entries } = await logOf(logged.log, () =>
      Promise.all([
        runCli(['people', 'movers', '--limit', '50', '--depth', '20'], { env: logged.env }),
        runCli(['people', 'movers', '--vs', 'lastweek'], { env: logged.env }),
      ]),
    );
    expect(runs.map((run) => run.code)).toEqual([2, 2]);
    expect(runs[0]!.stderr).toMatch(/--depth 20 is below --limit 50/);
    expect(runs[1]!.stderr).toMatch(/lastweek/);
    expect(entries).toEqual([]);
  });
});
