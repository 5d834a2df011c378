/**
 * `--format chart` on ranked lists: horizontal bars on a terminal (main() told it writes to one: runCliOnTerminal), unicode
 * blocks in a UTF-8 locale and ASCII otherwise; anywhere else a usage error before any request.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  apiGet, type Json, logOf, runCli, runCliOnTerminal, stripAnsi, tempDir, text, useLoggedSandbox,
} from './harness.js';

const logged = useLoggedSandbox();


const BLOCKS = '█▉▊▋▌▍▎▏';
const WINDOW = { startWeek: 202644, endWeek: 202647 };

/** A bar's length in eighths of a cell (unicode blocks) or in cells (ASCII '#'). */
function barLength(line: string): number {
  let length = 0;
  for (const char of line) {
    if (BLOCKS.includes(char)) length += 8 - BLOCKS.indexOf(char);
    else if (char === '#') length += 1;
  }
  return length;
}

function expectChartOf(output: string, ranking: Json[], valueField: string, width: number) {
  // The caption names the metric and the window; the bars follow.
  // A caption that names a partial week may wrap onto a second line.
  const all = output.trimEnd().split('\n');
  const lines = all.slice(-ranking.length);
  const caption = all.slice(0, -ranking.length).join(' ');
  expect(caption).toMatch(new RegExp(`^Top ${ranking.length} people by ${valueField === 'dominance' ? 'dominance' : 'mentions'} · weeks \\d{6}–\\d{6}( \\(default last4\\))?( · \\d{6} so far \\(partial\\))?$`));
  expect(lines).toHaveLength(ranking.length);
  lines.forEach((line, index) => {
    const person = ranking[index]!;
    const name = text(person.fullName);
    expect(line.trimEnd().endsWith(` ${text(person[valueField])}`), line).toBe(true);
    if (/^[\x20-\x7e]{1,20}$/.test(name)) {
      expect(line.startsWith(name)).toBe(true);
      expect(line.length).toBeLessThanOrEqual(width);
    }
  });
  // Ranked by this value, all positive: bars never grow down the list, and the first fills the area.
  const bars = lines.map(barLength);
  for (let index = 1; index < bars.length; index += 1) expect(bars[index]!).toBeLessThanOrEqual(bars[index - 1]!);
  expect(bars.at(-1)!).toBeLessThan(bars[0]!);
  expect(bars.at(-1)!).toBeGreaterThan(0);
  return lines;
}

describe('--format chart', () => {
  it('draws one unicode bar per ranked person, the value as sent, in a UTF-8 terminal', async () => {
    const ranking = (await apiGet(logged.server, '/people/top', { ...WINDOW, limit: 8 })) as Json[];
    const result = await runCliOnTerminal(['people', 'top', '--weeks', '202644..202647', '--limit', '8', '--format', 'chart'], {
      env: { ...logged.env, NO_COLOR: '1' },
      columns: 70,
    });
    expect(result.code).toBe(0);
    const lines = expectChartOf(result.stdout, ranking, 'mentionCount', 70);
    expect(lines[0]).toContain('█');
    expect(result.stdout).not.toContain('#');
    expect(result.stdout).not.toContain('\x1b[');
  });

  it('charts the sort metric: --sort dominance draws dominance', async () => {
    const ranking = (await apiGet(logged.server, '/people/top', { ...WINDOW, limit: 6, sortBy: 'dominance' })) as Json[];
    const result = await runCliOnTerminal(['people', 'top', '--weeks', '202644..202647', '--limit', '6', '--sort', 'dominance', '-f', 'chart'], {
      env: { ...logged.env, NO_COLOR: '1' },
      columns: 80,
    });
    expect(result.code).toBe(0);
    expectChartOf(result.stdout, ranking, 'dominance', 80);
  });

  it('falls back to ASCII when the locale is not UTF-8', async () => {
    const ranking = (await apiGet(logged.server, '/people/top', { ...WINDOW, limit: 5 })) as Json[];
    const args = ['people', 'top', '--weeks', '202644..202647', '--limit', '5', '-f', 'chart'];
    const [plainC, lcAll] = await Promise.all([
      runCliOnTerminal(args, { env: { ...logged.env, NO_COLOR: '1', LANG: 'C' }, columns: 70 }),
      // LC_ALL wins over LANG.
      runCliOnTerminal(args, { env: { ...logged.env, NO_COLOR: '1', LANG: 'C.UTF-8', LC_ALL: 'C' }, columns: 70 }),
    ]);
    for (const result of [plainC, lcAll]) {
      expect(result.code).toBe(0);
      expectChartOf(result.stdout, ranking, 'mentionCount', 70);
      expect(result.stdout).toContain('#');
      expect(result.stdout).not.toMatch(/[█▉▊▋▌▍▎▏…]/u);
    }
  });

  it('colours the bars on a terminal unless NO_COLOR or --no-color', async () => {
    const args = ['people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'chart'];
    const [coloured, noColorFlag] = await Promise.all([
      runCliOnTerminal(args, { env: logged.env, columns: 70 }),
      runCliOnTerminal([...args, '--no-color'], { env: logged.env, columns: 70 }),
    ]);
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain('\x1b[');
    expect(stripAnsi(coloured.stdout)).toBe(noColorFlag.stdout);
    expect(noColorFlag.stdout).not.toContain('\x1b[');
  });

  it('fits narrow terminals: a long label is cut, the value kept whole', async () => {
    const ranking = (await apiGet(logged.server, '/people/top', { ...WINDOW, limit: 5 })) as Json[];
    const result = await runCliOnTerminal(['people', 'top', '--weeks', '202644..202647', '--limit', '5', '-f', 'chart'], {
      env: { ...logged.env, NO_COLOR: '1' },
      columns: 30,
    });
    expect(result.code).toBe(0);
    // The caption wraps at 30 columns; the last five lines are the bars.
    const lines = result.stdout.trimEnd().split('\n').slice(-5);
    expect(lines).toHaveLength(5);
    lines.forEach((line, index) => {
      expect(line.trimEnd().endsWith(` ${text(ranking[index]!.mentionCount)}`)).toBe(true);
      expect([...line].length).toBeLessThanOrEqual(30);
    });
    // At least one name is longer than the label column here, and ends in an ellipsis.
    expect(ranking.some((person) => [...text(person.fullName)].length > 12)).toBe(true);
    expect(lines.some((line) => line.includes('…'))).toBe(true);
  });

  it('is a usage error off a terminal, suggesting table or csv, before any request', async () => {
    const dir = tempDir();
    const { result: runs, entries } = await logOf(logged.log, () =>
      Promise.all([
        runCli(['people', 'top', '--weeks', 'last4', '-f', 'chart'], { env: logged.env }),
        runCliOnTerminal(['people', 'top', '--weeks', 'last4', '-f', 'chart', '--output', join(dir, 'chart.txt')], { env: logged.env }),
      ]),
    );
    const [piped, toFile] = runs;
    expect(piped.code).toBe(2);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toMatch(/--format table/);
    expect(piped.stderr).toMatch(/--format csv|csv/);
    expect(toFile.code).toBe(2);
    expect(toFile.stdout).toMatch(/table/);
    expect(entries).toEqual([]);
  });

  it('is a usage error for commands that are not ranked lists', async () => {
    const { result: runs, entries } = await logOf(logged.log, () =>
      Promise.all([
        runCliOnTerminal(['countries', 'list', '-f', 'chart'], { env: logged.env }),
        runCliOnTerminal(['export', 'country-stats', '--top', '2', '-f', 'chart'], { env: logged.env }),
      ]),
    );
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(/table/);
    }
    expect(entries).toEqual([]);
  });
});
