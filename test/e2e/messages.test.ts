/**
 * The messages around the data, end to end against a sandbox on 127.0.0.1: where output goes
 * (-o -, extensions, the "wrote N rows" line), and the messages that point the user the right way.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { displayWidth } from '../../src/output/text.js';
import {
  expectFailure, expectSuccess, rawJson, runCli, runCliOnTerminal, runCliWithHome, runServingCli, sandbox,
  stderrLines, stripAnsi, tempDir, useLoggedSandbox,
} from './harness.js';
import { useTmux } from './tmux.js';

const logged = useLoggedSandbox();

describe.concurrent('output destinations', () => {
  test('-o - is stdout', async () => {
    const result = await runCli(['people', 'top', '--weeks', 'last4', '--limit', '3', '-f', 'csv', '-o', '-'], { env: logged.env });
    const lines = expectSuccess(result).trimEnd().split('\n');
    expect(lines[0]!.startsWith('rank,personHash,fullName')).toBe(true);
    expect(lines).toHaveLength(4);
    expect(existsSync(join(process.cwd(), '-'))).toBe(false);
  });

  test('an --output extension that names no format is a usage error listing the known ones, unless --format says', async () => {
    const dir = tempDir();
    for (const name of ['report.txt', 'report.xls']) {
      const result = await runCli(['people', 'top', '--weeks', 'last4', '--output', join(dir, name)], { env: logged.env });
      expectFailure(result, 2, `--output ${join(dir, name)}: the extension names no format (known: .csv, .tsv, .json, .ndjson, .jsonl, .xlsx, .parquet)`);
      expect(result.stderr).toContain('hint: use one of those extensions, or say the format with --format');
      expect(existsSync(join(dir, name))).toBe(false);
    }
    const withFormat = await runCli(['people', 'top', '--weeks', 'last4', '--limit', '2', '--output', join(dir, 'report.txt'), '--format', 'tsv'], { env: logged.env });
    expectSuccess(withFormat);
    expect(readFileSync(join(dir, 'report.txt'), 'utf8').split('\n')[0]!.startsWith('rank\tpersonHash')).toBe(true);
  });

  test('in a terminal, a finished --output run says what it wrote; -q and a pipe keep quiet', async () => {
    const dir = tempDir();
    const file = join(dir, 'cs.csv');
    const shown = await runCliOnTerminal(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '-o', file], { env: logged.env });
    expect(shown.code).toBe(0);
    const rows = readFileSync(file, 'utf8').trimEnd().split('\n').length - 1;
    expect(rows).toBeGreaterThan(3);
    expect(shown.stdout).toContain(`wrote ${rows} rows to ${file}`);

    const quiet = await runCliOnTerminal(['-q', 'people', 'top', '--weeks', 'last4', '-o', join(dir, 'top.csv')], { env: logged.env });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain('wrote');
    const piped = await runCli(['people', 'top', '--weeks', 'complete4', '-o', join(dir, 'top2.csv')], { env: logged.env });
    expect(expectSuccess(piped)).toBe('');
    expect(piped.stderr).toBe('');
  });
});

/** A home whose config file has the profiles `default` and `prod`, both pointing at the sandbox. */
function homeWithProfiles(url: string): string {
  const home = tempDir();
  mkdirSync(join(home, 'config', 'newsstats'), { recursive: true });
  const profile = { 'base-url': url, 'api-key': logged.server.key };
  writeFileSync(join(home, 'config', 'newsstats', 'config.json'), JSON.stringify({ profiles: { default: profile, prod: profile } }), { mode: 0o600 });
  return home;
}

describe.concurrent('messages that point the right way', () => {
  test('a misspelled --profile or NEWSSTATS_PROFILE: exit 2, the profiles listed, the closest suggested', async () => {
    const home = homeWithProfiles(logged.server.url);
    const flag = await runCliWithHome(home, ['--profile', 'prdo', 'weeks']);
    expectFailure(flag, 2, 'profile "prdo" does not exist (profiles: default, prod); did you mean prod?');
    expect(flag.stderr).not.toContain('config set');
    const env = await runCliWithHome(home, ['weeks'], { env: { NEWSSTATS_PROFILE: 'staging' } });
    expectFailure(env, 2, 'profile "staging" does not exist (profiles: default, prod)');
    // A name near none is no typo: the next step sets it up, and runs on that profile (#31), through
    // the variable that named it or the flag repeated.
    expect(env.stderr).toContain('\nhint: set it up with `newsstats auth login` (its key) and `newsstats config set base-url URL` (its service)\n');
    const fresh = await runCliWithHome(tempDir(), ['--profile', 'staging', 'weeks']);
    expectFailure(fresh, 2, 'profile "staging" does not exist (no profiles are set up yet)');
    expect(fresh.stderr).toContain('\nhint: set it up with `newsstats --profile staging auth login` (its key) and `newsstats --profile staging config set base-url URL` (its service)\n');
    expect(expectSuccess(await runCliWithHome(home, ['--profile', 'prod', 'weeks', '-f', 'json']))).toContain('202647');
  });

  test('no base URL, or a blank one: exit 2, and the hint names --base-url, NEWSSTATS_BASE_URL, the profile key and --sandbox', async () => {
    const hint = 'hint: pass --base-url URL, set NEWSSTATS_BASE_URL, or run `newsstats config set base-url URL`; add --sandbox to try newsstats on synthetic data';
    const unset = await runCli(['weeks'], { env: { NEWSSTATS_API_KEY: 'some-key' } });
    expectFailure(unset, 2);
    expect(stderrLines(unset)).toEqual(['error: no base URL is set', hint]);
    const blank = await runCli(['weeks'], { env: { NEWSSTATS_BASE_URL: ' ', NEWSSTATS_API_KEY: 'some-key' } });
    expectFailure(blank, 2);
    // A blank variable is an unset one (the settings table reads every variable so).
    expect(stderrLines(blank)).toEqual(['error: no base URL is set', hint]);
    const wrong = await runCli(['weeks'], { env: { NEWSSTATS_BASE_URL: 'ftp://stats.example.com', NEWSSTATS_API_KEY: 'some-key' } });
    expectFailure(wrong, 2);
    expect(stderrLines(wrong)).toEqual(['error: NEWSSTATS_BASE_URL must start with https://']);
  });

  test('auth status prints its block, then accepted: yes', async () => {
    const home = homeWithProfiles(logged.server.url);
    const result = await runCliWithHome(home, ['auth', 'status', '-f', 'table']);
    expect(expectSuccess(result)).toContain('accepted\tyes');
    expect(result.stdout).toContain(`baseUrl\t${logged.server.url}`);
  });

  test('auth status with a rejected NEWSSTATS_API_KEY: the block, accepted: no (401: ...), exit 3, and the hint names the variable', async () => {
    const home = homeWithProfiles(logged.server.url);
    const result = await runCliWithHome(home, ['auth', 'status', '-f', 'json'], { env: { NEWSSTATS_API_KEY: 'sk-stale-key-9999' } });
    expect(result.code).toBe(3);
    const block = JSON.parse(result.stdout) as Record<string, string>;
    expect(block).toMatchObject({ keySource: 'NEWSSTATS_API_KEY', key: '••••9999' });
    expect(block.accepted).toMatch(/^no \(401: .+\)$/);
    expect(result.stderr).toContain('hint: the key comes from NEWSSTATS_API_KEY, which overrides the saved key');
    expect(result.stderr).not.toContain('sk-stale-key-9999');
  });

  test('auth status when the service is unreachable: the block, accepted: unreachable (...), exit 5', async () => {
    const home = homeWithProfiles('http://127.0.0.1:9');
    const result = await runCliWithHome(home, ['auth', 'status', '--retries', '0', '-f', 'json']);
    expect(result.code).toBe(5);
    expect((JSON.parse(result.stdout) as Record<string, string>).accepted).toMatch(/^unreachable \(.+\)$/);
  });

  test('auth login with a rejected key does not hint at auth login', async () => {
    const result = await runCli(['auth', 'login', '--with-key'], { env: { NEWSSTATS_BASE_URL: logged.server.url }, input: 'sk-wrong-0000\n' });
    expectFailure(result, 3, 'rejected the key (401');
    expect(result.stderr).not.toContain('auth login');
  });

  test('a country that matches nothing: exit 2 with a suggestion; an unknown id stays 404', async () => {
    const uk = await runCli(['countries', 'get', 'UK'], { env: logged.env });
    expectFailure(uk, 2, 'no country matches "UK" (id, ISO code, name or slug); did you mean GB (United Kingdom)?');
    const typo = await runCli(['people', 'top', '--weeks', 'last4', '--country', 'Germny'], { env: logged.env });
    expectFailure(typo, 2, 'did you mean DE (Germany)?');
    expectFailure(await runCli(['countries', 'get', '999'], { env: logged.env }), 4);
  });

  test('--exact works with a plain query', async () => {
    const exact = JSON.parse(expectSuccess(await runCli(['people', 'search', 'Hira Abbasi', '--exact', '-f', 'json'], { env: logged.env }))) as Array<{ fullName: string }>;
    expect(exact.map((person) => person.fullName)).toEqual(['Hira Abbasi']);
    const part = JSON.parse(expectSuccess(await runCli(['people', 'search', 'Hira Abb', '--exact', '-f', 'json'], { env: logged.env })));
    expect(part).toEqual([]);
  });

  test('--metric takes the short names the tables show', async () => {
    const [short, long] = await Promise.all(
      ['dominance', 'globalDominance'].map((metric) =>
        runCliOnTerminal(['people', 'trend', 'hira-abbasi-d893', '--weeks', 'last4', '--metric', metric, '-f', 'chart'], { env: logged.env }),
      ),
    );
    expect(short!.code).toBe(0);
    expect(stripAnsi(short!.stdout)).toBe(stripAnsi(long!.stdout));
    expect(stripAnsi(short!.stdout)).toContain('globalDominance');
    const bad = await runCli(['people', 'trend', 'hira-abbasi-d893', '--metric', 'bogus'], { env: logged.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('dominance, sentiment, reach, power');
  });
});

describe('help that fits', () => {
  const terminals = useTmux();

  test('newsstats alone prints the help on stdout and exits 0', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: newsstats /);
    expect(result.stdout).toContain('Examples:');
    expect(result.stderr).toBe('');
  });

  test('a verb\'s --help lists the global options in their own section', async () => {
    const help = expectSuccess(await runCli(['people', 'top', '--help']));
    const [own, inherited] = help.split('Global Options:');
    expect(own).toContain('--per-week');
    expect(own).not.toContain('--format');
    for (const flag of ['--format', '--output', '--fields', '--profile', '--quiet']) expect(inherited).toContain(flag);
  });

  test('help topics wrap at 80 columns when piped and at the terminal\'s width, never inside a word', async () => {
    const piped = expectSuccess(await runCli(['help', 'formats']));
    for (const line of piped.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    const screen = await terminals.terminal().run(['help', 'formats'], 50);
    expect(screen.code).toBe(0);
    // Lines the terminal had to wrap itself would be joined by capture-pane -J and run over 50.
    for (const line of screen.lines) expect(displayWidth(line), line).toBeLessThanOrEqual(50);
    // An example too long for the line continues after ` \` (#31): the words are the same otherwise.
    const words = (text: string) => text.split(/\s+/).filter((word) => word !== '' && word !== '\\');
    expect(words(screen.lines.join('\n'))).toEqual(words(piped));
  });

  test('the sandbox --help examples work when pasted into a shell', async () => {
    const help = expectSuccess(await runCli(['sandbox', '--help']));
    const examples = [...help.matchAll(/^ {2}\$ (newsstats sandbox .*)$/gm)].map((match) => match[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      // Port 8787 may be taken on this machine: the pasted command is what is checked, on any port.
      const words = shellWords(example.replace('--port 8787', '--port 0'));
      expect(words[0], example).toBe('newsstats');
      let url = '';
      const result = await runServingCli(words.slice(1), async (line) => {
        url = line;
      });
      expect(url, example).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(result.code, result.stderr).toBe(0);
    }
  });
});

/**
 * The words a shell passes for a pasted command line (quotes, a trailing # comment): sh itself splits
 * it, so the check stays "as pasted", and the words then run in-process.
 */
function shellWords(command: string): string[] {
  const split = spawnSync('sh', ['-c', `set -- ${command}\nprintf '%s\\0' "$@"`], { encoding: 'utf8' });
  expect(split.status, split.stderr).toBe(0);
  return split.stdout.split('\0').slice(0, -1);
}

describe('trends that don\'t mislead', () => {
  /** In the sandbox at FIXED_NOW this person has no mentions in 202636 and 202642-202645. */
  const SPARSE = 'achieng-gebremariam-35f8';
  const NO_MENTIONS = [0, 6, 7, 8, 9];

  test('without --weeks a trend is last12; the current week is marked partial; sparklines carry low and high and leave gaps', async () => {
    const [terminal, piped] = await Promise.all([
      runCliOnTerminal(['people', 'trend', SPARSE], { env: { ...logged.env, NO_COLOR: '1' }, columns: 120 }),
      runCli(['people', 'trend', SPARSE, '-f', 'json'], { env: logged.env }),
    ]);
    const rows = JSON.parse(expectSuccess(piped)) as Array<{ week: number; mentions: number; globalSentiment: number }>;
    expect(rows.map((row) => row.week)).toEqual([202636, 202637, 202638, 202639, 202640, 202641, 202642, 202643, 202644, 202645, 202646, 202647]);
    expect(rows.flatMap((row, i) => (row.mentions === 0 ? [i] : []))).toEqual(NO_MENTIONS);

    expect(terminal.code).toBe(0);
    const lines = terminal.stdout.trimEnd().split('\n');
    // By name, the default window named (#18).
    const { fullName } = await rawJson<{ fullName: string }>(logged.server, `people/${SPARSE}`);
    expect(lines).toContain(`${fullName} · weeks 202636–202647 (default last12) · 202647 so far (partial)`);
    const sentiment = /^globalSentiment {2}(.{12}) {2}low (\S+) {2}high (\S+)$/u.exec(lines.at(-1)!);
    expect(sentiment, lines.at(-1)).not.toBeNull();
    // A week with no mentions has no sentiment: a gap, not the 0 the service sends for it.
    expect([...sentiment![1]!].flatMap((mark, i) => (mark === ' ' ? [i] : []))).toEqual(NO_MENTIONS);
    const measured = rows.filter((row) => row.mentions > 0).map((row) => row.globalSentiment);
    expect(Number(sentiment![2])).toBe(Math.min(...measured));
    expect(Number(sentiment![3])).toBe(Math.max(...measured));
    expect(lines.at(-2)).toMatch(/^mentions {9}.{12} {2}low 0 {2}high \d+$/u);
  });

  test('the line chart leaves the weeks without mentions empty; the bar chart is titled with its metric and window', async () => {
    const [line, bars] = await Promise.all([
      runCliOnTerminal(['people', 'trend', SPARSE, '-f', 'chart', '--metric', 'sentiment'], { env: { ...logged.env, NO_COLOR: '1' }, columns: 80 }),
      runCliOnTerminal(['people', 'top', '--weeks', 'last4', '--sort', 'dominance', '--limit', '5', '-f', 'chart'], { env: { ...logged.env, NO_COLOR: '1' }, columns: 80 }),
    ]);
    expect(line.code).toBe(0);
    // The plot's 11 rows start at the first axis mark, under a caption of one or two lines and the title.
    const chartLines = line.stdout.trimEnd().split('\n');
    const top = chartLines.findIndex((row) => row.includes('┤'));
    const plot = chartLines.slice(top, top + 11);
    const start = plot[0]!.indexOf('┤') + 1;
    const columnOf = (index: number) => start + Math.round((index * (80 - start - 1)) / 11);
    for (const index of [7, 8]) expect(plot.map((row) => row[columnOf(index)] ?? ' ').join('').trim(), `week ${index}`).toBe('');
    expect(plot.map((row) => row[columnOf(11)] ?? ' ').join('').trim()).not.toBe('');
    expect(bars.code).toBe(0);
    expect(bars.stdout.split('\n')[0]).toBe('Top 5 people by dominance · weeks 202644–202647 · 202647 so far (partial)');
  });
});

describe.concurrent('colour as the ecosystem expects', () => {
  const top = ['people', 'top', '--weeks', 'last4', '--limit', '3', '--fields', 'rank,fullName,sentiment'];
  const terminal = (env: Record<string, string | undefined>) => runCliOnTerminal(top, { env: { ...logged.env, COLORTERM: undefined, ...env } });

  test('the depth follows the terminal: 24-bit only when COLORTERM says so, else 256 or 16', async () => {
    const [truecolor, xterm256, xterm] = await Promise.all([
      terminal({ TERM: 'xterm-256color', COLORTERM: 'truecolor' }),
      terminal({ TERM: 'xterm-256color' }),
      terminal({ TERM: 'xterm' }),
    ]);
    expect(truecolor.stdout).toMatch(/\x1b\[38;2;\d+;\d+;\d+m-?\d/);
    expect(xterm256.stdout).toMatch(/\x1b\[38;5;\d+m-?\d/);
    expect(xterm256.stdout).not.toContain('\x1b[38;2;');
    expect(xterm.stdout).toMatch(/\x1b\[(3[0-7]|9[0-7])m-?\d/);
    expect(xterm.stdout).not.toMatch(/\x1b\[38;[25];/);
  });

  test('TERM=dumb and NO_COLOR turn it off', async () => {
    const [dumb, noColor] = await Promise.all([terminal({ TERM: 'dumb' }), terminal({ TERM: 'xterm-256color', NO_COLOR: '1' })]);
    for (const run of [dumb, noColor]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('SENTIMENT');
      expect(run.stdout).not.toContain('\x1b[');
    }
  });

  test('FORCE_COLOR colours notes also when stderr is piped; a piped table stays plain data', async () => {
    // stdout on a terminal (so the table hides columns and says so), stderr into a file.
    const notesOf = async (force: string | undefined) => {
      const run = await runCliOnTerminal(['people', 'top', '--weeks', 'last4'], {
        env: { ...logged.env, TERM: 'xterm', FORCE_COLOR: force },
        columns: 80,
        stderrPiped: true,
      });
      expect(run.code).toBe(0);
      return run.stderr;
    };
    const [forced, plain] = await Promise.all([notesOf('1'), notesOf(undefined)]);
    expect(forced).toMatch(/^\x1b\[2m\d+ columns hidden at 80 columns: .*; see --fields\x1b\[22m\n$/);
    expect(plain).toMatch(/^\d+ columns hidden at 80 columns: .*; see --fields\n$/);
    const table = await runCli([...top, '-f', 'table'], { env: { ...logged.env, FORCE_COLOR: '1' } });
    expect(table.stdout).not.toContain('\x1b[');
    expect(table.stdout.split('\n')[0]).toBe('rank\tfullName\tsentiment');
  });
});

describe('the key prompt in a terminal', () => {
  const KEY = 'sk-terminal-SECRET-5150';
  let server: RunningSandbox;
  const terminals = useTmux();
  beforeAll(async () => {
    server = await sandbox({ key: KEY });
  });
  afterAll(async () => {
    await server?.close();
  });

  test('Ctrl-U, Ctrl-D, arrow keys and backspace edit nothing into the key, and a bracketed paste is text', async () => {
    const tmux = terminals.terminal();
    const pane = await tmux.start(['--base-url', server.url, 'auth', 'login']);
    await pane.waitFor('API key for');
    await pane.keys(['oops'], true);
    await pane.keys(['C-u']);
    await pane.keys(['sk-term'], true);
    await pane.keys(['C-d', 'Left', 'Up', 'Home']);
    await pane.keys(['x'], true);
    await pane.keys(['BSpace']);
    await pane.paste('inal-SECRET\n-5150'); // unbracketed, the newline would be Enter and cut the key
    await pane.keys(['Enter']);
    const { code, modes, lines } = await pane.finished();
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toContain('with key ••••5150');
    expect(lines.join('\n')).not.toContain('SECRET');
    expect(modes).toEqual(expect.arrayContaining(['icanon', 'echo']));
    const status = await runCliWithHome(tmux.home, ['auth', 'status', '-f', 'json']);
    expect(JSON.parse(expectSuccess(status))).toMatchObject({ key: '••••5150', accepted: 'yes' });
  });

  test('Ctrl-C at the prompt exits 130 with the terminal restored and nothing saved', async () => {
    const tmux = terminals.terminal();
    const pane = await tmux.start(['--base-url', server.url, 'auth', 'login']);
    await pane.waitFor('API key for');
    await pane.keys(['sk-partial'], true);
    await pane.keys(['C-c']);
    const { code, modes, lines } = await pane.finished();
    expect(code).toBe(130);
    expect(modes).toEqual(expect.arrayContaining(['icanon', 'echo']));
    expect(lines.join('\n')).toContain('login cancelled; nothing was saved');
    expect(existsSync(join(tmux.home, 'config', 'newsstats', 'config.json'))).toBe(false);
  });
});
