/**
 * Tables as a person sees them: the built CLI in a real tmux pane at 40, 50, 80 and 120 columns,
 * against a sandbox (or, for names in every script, a small fixed API) on 127.0.0.1 port 0.
 * Screen columns are measured by tmux, never by the code under test (tmux.ts). Most runs are the
 * built main() in this process writing to the pane's terminal; bin/newsstats.cjs runs in a process
 * of its own where a process is the point (signals, the sandbox command, the README's captures), and
 * one test checks both draw the same screen. Tests within a describe run at once: each has its own
 * panes, config home and, where a request log is read, its own API.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { displayWidth } from '../../src/output/text.js';
import { fakeApi, HANG, rawJson, REPO, runCli, sandbox, sandboxEnv, tempDir, useLoggedSandbox, type FakeApi } from './harness.js';
import { useTmux, type Pane, type Tmux } from './tmux.js';

const WIDTHS = [50, 80, 120] as const;

/** The terminal headers of `people top` and the fields they show. */
const TOP_HEADERS: Record<string, string> = {
  '#': 'rank', NAME: 'fullName', 'PERSON HASH': 'personHash', MENTIONS: 'mentionCount', DOMINANCE: 'dominance',
  SENTIMENT: 'sentiment', REACH: 'reach', POWER: 'power', PERSISTENCE: 'persistence', FROM: 'fromCountryName',
};

/** A borderless line's cells: columns are at least two spaces apart, and no value holds two spaces. */
function cells(line: string): string[] {
  return line.trim().split(/ {2,}/);
}

const terminals = useTmux();

/** One sandbox on the default model for the file's describes, and its last4 ranking as served. */
let server: RunningSandbox;
let ranking: Record<string, unknown>[];
beforeAll(async () => {
  server = await sandbox();
  ranking = await rawJson(server, 'people/top?startWeek=202644&endWeek=202647');
});
afterAll(async () => {
  await server?.close();
});

describe.concurrent('people top in a terminal', () => {

  test.each([40, ...WIDTHS])('at %i columns: caption, short headers, whole names, and no number, hash or date cut', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['people', 'top', '--weeks', 'last4'], width);
    expect(screen.code).toBe(0);
    // The caption, wrapped at the pane's width, names the window and its partial last week (#18).
    const headerAt = screen.lines.findIndex((line) => /^ ?# {2}/.test(line));
    const captionAt = screen.lines.findIndex((line) => line.startsWith('Top 50'));
    expect(screen.lines.slice(captionAt, headerAt).join(' ')).toBe('Top 50 people by mentions · weeks 202644–202647 · 202647 so far (partial)');
    for (const line of screen.lines.slice(captionAt, headerAt)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    const headers = cells(screen.lines[headerAt]!);
    const rows = screen.lines.slice(headerAt + 1);
    expect(rows).toHaveLength(ranking.length);
    // #31 item 7: a reader sees the names, whole, at every width; where a name and the hash beside it
    // do not both fit whole, the hash is what gives way (and the note below names it).
    expect(headers.slice(0, 2)).toEqual(['#', 'NAME']);
    if (width >= 80) expect(headers[2]).toBe('PERSON HASH');
    rows.forEach((line, i) => {
      const row = cells(line);
      expect(row).toHaveLength(headers.length);
      headers.forEach((header, j) => {
        const field = TOP_HEADERS[header]!;
        const value = String(ranking[i]![field]);
        if (field === 'fromCountryName') expect(row[j] === value || row[j]!.endsWith('…'), `${row[j]} for ${value}`).toBe(true);
        else expect(row[j]).toBe(value);
      });
    });
    const hidden = Object.keys(TOP_HEADERS).filter((header) => !headers.includes(header)).map((header) => TOP_HEADERS[header]);
    if (hidden.length > 0) {
      const noun = hidden.length === 1 ? 'column' : 'columns';
      // Notes wrap between words at the pane's width: read them as one text.
      const notes = screen.lines.slice(0, captionAt).join(' ');
      expect(notes).toContain(`${hidden.length} ${noun} hidden at ${width} columns: ${hidden.join(', ')}; see --fields`);
      for (const line of screen.lines.slice(0, captionAt)) expect(line.length).toBeLessThanOrEqual(width);
    }
  });

  test('at 80 columns: rank, the whole name, personHash, mentions and dominance; sentiment is hidden rather than a name cut', async () => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['people', 'top', '--weeks', 'last4'], 80);
    const headerAt = screen.lines.findIndex((line) => line.startsWith(' #  NAME'));
    // 25 cells of hash beside names of up to 20: the names are not cut below the hash's width.
    expect(cells(screen.lines[headerAt]!)).toEqual(['#', 'NAME', 'PERSON HASH', 'MENTIONS', 'DOMINANCE']);
    expect(screen.lines.slice(0, headerAt).join(' ')).toContain('5 columns hidden at 80 columns: sentiment, reach, power, persistence, fromCountryName; see --fields');
    const table = screen.lines.slice(headerAt);
    expect(table.slice(1).map((line) => cells(line)[1])).toEqual(ranking.map((row) => String(row.fullName)));
    for (const width of await tmux.measure(table)) expect(width).toBeLessThanOrEqual(80);
  });

  // The other tests run main() in this process on the pane's terminal (tmux.ts): this one checks that
  // bin/newsstats.cjs, in a process of its own, draws exactly the same screen (notes, caption, table).
  test('at 50 columns bin/newsstats.cjs in its own process draws the same screen as a run in this one', async () => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const [inProcess, spawned] = await Promise.all([false, true].map((spawn) => tmux.run(['people', 'top', '--weeks', 'last4', '--limit', '8'], 50, { spawn })));
    expect(spawned!.code).toBe(0);
    expect(spawned!.lines.join('\n')).toContain('hidden at 50 columns');
    expect(inProcess).toEqual(spawned);
  });

  test('an empty result is one line, not an empty table', async () => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['people', 'search', 'zzzqqq'], 80);
    expect(screen.code).toBe(0);
    expect(screen.lines.filter((line) => line !== '')).toEqual(['no people match "zzzqqq"']);
  });
});

/** Names in every script the data holds, each with the next column's text right after it. */
const NAMES = [
  'Zoë Ångström', // precomposed Latin
  'Zoe\u0308 A\u030angstro\u0308m', // Latin with combining marks
  'अनन्या शर्मा', // Devanagari: spacing vowel signs and a virama
  'श्रीनिवास रामानुजन् अय्यंगार', // Devanagari, longer than a narrow column
  'রবীন্দ্রনাথ ঠাকুর', // Bengali
  'สมชาย ใจดี', // Thai: vowels above
  'محمد علي', // Arabic
  'שָׁלוֹם כהן', // Hebrew with points
  '東京太郎', // CJK
  '김수아', // Hangul
  'Family 👨‍👩‍👧 Ng', // emoji ZWJ sequence
  'Flag 🇩🇪 Weber', // regional-indicator flag
  'Thumbs 👍🏽 Up', // skin-tone modifier
];

function person(fullName: string, index: number) {
  return {
    personHash: `p-${String(index).padStart(2, '0')}`, fullName, description: null, gender: 0, category: 'politics',
    countryId: 1, countryName: 'Testland', birthDate: '1970-01-02T00:00:00', createdAt: '2020-01-01T00:00:00', updatedAt: '2020-01-01T00:00:00',
  };
}

describe.concurrent('names in every script line up', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await fakeApi({ '/api/data/people/search': JSON.stringify(NAMES.map(person)) });
  });
  afterAll(async () => {
    await api?.close();
  });

  test.each(WIDTHS)('at %i columns the columns after the name start at the same screen column on every row', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(api));
    const screen = await tmux.run(['people', 'search', 'any'], width);
    expect(screen.code).toBe(0);
    const headerAt = screen.lines.findIndex((line) => line.startsWith('PERSON HASH'));
    const rows = screen.lines.slice(headerAt + 1, headerAt + 1 + NAMES.length);
    expect(rows.map((line) => line.slice(0, 4))).toEqual(NAMES.map((_, i) => `p-${String(i).padStart(2, '0')}`));
    // Where COUNTRY starts, as tmux draws each line up to it: one screen column for all rows.
    const prefixes = [screen.lines[headerAt]!, ...rows].map((line, i) => line.slice(0, line.indexOf(i === 0 ? 'COUNTRY' : 'Testland')));
    const starts = await tmux.measure(prefixes);
    expect(new Set(starts).size, JSON.stringify(starts)).toBe(1);
    const bornShown = cells(screen.lines[headerAt]!).includes('BORN');
    for (const [i, line] of rows.entries()) {
      const name = cells(line)[1]!;
      expect(name === NAMES[i] || name.endsWith('…')).toBe(true);
      if (bornShown) expect(cells(line).at(-1)).toBe('1970-01-02'); // a date is hidden or whole, never cut
    }
  });

  test('tmux draws every name as wide as newsstats counts it (spacing vowel signs one column, virama none)', async () => {
    const tmux = terminals.terminal();
    const samples = ['हि', 'क्ष', 'অনন্যা', 'বাংলা', ...NAMES];
    expect(await tmux.measure(samples)).toEqual(samples.map(displayWidth));
    expect(await tmux.measure(['हि', 'क्ष'])).toEqual([2, 2]);
  });
});

/** What a table keeps at every width (#18): ids, the sorted-by metric, --fields, URLs, and the note under -q. */
describe.concurrent('tables choose what to hide by meaning', () => {
  const headerOf = (screen: { lines: string[] }, first: RegExp) => cells(screen.lines.find((line) => first.test(line))!);

  test.each([40, 50, 80, 120])('people top at %i columns keeps #, the whole names and the metric sorted by; a hash that gives way is named', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    for (const [sort, header] of [['mentions', 'MENTIONS'], ['dominance', 'DOMINANCE']]) {
      const screen = await tmux.run(['people', 'top', '--weeks', 'last4', '--limit', '5', '--sort', sort!, '-q'], width);
      expect(screen.code).toBe(0);
      const headers = headerOf(screen, /^ ?# {2}/);
      expect(headers).toEqual(expect.arrayContaining(['#', 'NAME', header]));
      const headerAt = screen.lines.findIndex((line) => /^ ?# {2}/.test(line));
      for (const line of screen.lines.slice(headerAt + 1)) expect(cells(line)[1]).not.toMatch(/…$/);
      if (!headers.includes('PERSON HASH')) expect(screen.lines.join(' ')).toMatch(/columns? hidden at \d+ columns: personHash/);
      // -q keeps the note: the table is the output, and it says what it leaves out.
      if (headers.length < 10) expect(screen.lines.join(' ')).toMatch(/columns? hidden at \d+ columns/);
      for (const line of screen.lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    }
  });

  test.each([40, 80])('columns named in --fields are never hidden at %i columns', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['people', 'top', '--limit', '3', '--fields', 'fullName,power,reach,personHash'], width);
    expect(headerOf(screen, /NAME/)).toEqual(['NAME', 'POWER', 'REACH', 'PERSON HASH']);
    expect(screen.lines.join(' ')).not.toMatch(/hidden at/);
  });

  test.each([40, 50, 120])('people links at %i columns shows the article hash and the whole URL', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server, { FORCE_HYPERLINK: '0' }));
    const links = await rawJson<Array<{ articleUrl: string; articleHash: unknown }>>(server, 'people/hira-abbasi-d893/links?limit=3');
    const screen = await tmux.run(['people', 'links', 'hira-abbasi-d893', '--limit', '3'], width, { env: { FORCE_HYPERLINK: '0' } });
    expect(screen.code).toBe(0);
    const text = screen.lines.join('');
    for (const link of links) expect(text.replace(/ /g, '')).toContain(link.articleUrl);
    expect(headerOf(screen, /ARTICLE HASH/)).toContain('ARTICLE HASH');
    // A URL that would run past the edge has a line of its own under its row: the header and the
    // row stay whole lines within the pane, the row right under the header.
    const header = screen.lines.findIndex((line) => /ARTICLE HASH/.test(line));
    expect(displayWidth(screen.lines[header]!)).toBeLessThanOrEqual(width);
    expect(screen.lines[header + 1]).toMatch(/^\d{4}-\d{2}-\d{2} {2}\d{10,}/);
    expect(displayWidth(screen.lines[header + 1]!)).toBeLessThanOrEqual(width);
  });

  // #31 item 7: where the last name or title is narrower than the id beside it, it wraps between words
  // on lines of its own under itself, rather than ending in `…`: the reader gets every word.
  test.each([40, 50])('people search at %i columns: each whole name, on lines under itself beside its whole hash', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const people = await rawJson<Array<{ personHash: string; fullName: string }>>(server, 'people/search?q=kowalczyk');
    expect(people.length).toBeGreaterThan(1);
    const screen = await tmux.run(['people', 'search', 'kowalczyk', '-q'], width);
    expect(screen.code).toBe(0);
    const header = screen.lines.findIndex((line) => /^PERSON HASH {2,}NAME/.test(line));
    const nameAt = screen.lines[header]!.indexOf('NAME');
    const rows = screen.lines.slice(header + 1);
    const names: string[] = [];
    for (const line of rows) {
      expect(line.slice(0, nameAt).trim() === '' || people.some((person) => line.startsWith(`${person.personHash}  `))).toBe(true);
      if (line.startsWith(' ')) names[names.length - 1] += ` ${line.slice(nameAt)}`;
      else names.push(line.slice(nameAt));
    }
    expect(names).toEqual(people.map((person) => person.fullName));
    expect(screen.lines.join('')).not.toContain('…');
    if (width === 40) expect(rows.length).toBeGreaterThan(people.length);
    for (const lineWidth of await tmux.measure(screen.lines)) expect(lineWidth).toBeLessThanOrEqual(width);
  });

  test.each([40, 50])('people links at %i columns: each whole title on lines under itself, above its whole URL', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server, { FORCE_HYPERLINK: '0' }));
    const links = await rawJson<Array<{ articleTitle: string; articleUrl: string; articleHash: unknown }>>(server, 'people/hira-abbasi-d893/links?limit=5');
    const screen = await tmux.run(['people', 'links', 'hira-abbasi-d893', '--limit', '5', '-q'], width, { env: { FORCE_HYPERLINK: '0' } });
    expect(screen.code).toBe(0);
    const header = screen.lines.findIndex((line) => /ARTICLE HASH {2,}TITLE/.test(line));
    const titleAt = screen.lines[header]!.indexOf('TITLE');
    const titles: string[] = [];
    const urls: string[] = [];
    for (const line of screen.lines.slice(header + 1)) {
      if (/^\d{4}-\d{2}-\d{2} {2}\d+ {2}/.test(line)) titles.push(line.slice(titleAt));
      else if (/^ {2}https?:/.test(line)) urls.push(line.trim());
      else {
        // A continuation line: blank under the date and the hash, and before the row's URL.
        expect(line.slice(0, titleAt).trim()).toBe('');
        expect(urls).toHaveLength(titles.length - 1);
        titles[titles.length - 1] += ` ${line.slice(titleAt)}`;
      }
    }
    // At 40 the column is 7 cells: a longer word (`pressure`) is broken between its letters, nothing lost.
    const withoutSpaces = (text: string) => text.replace(/ /g, '');
    expect(titles.map(withoutSpaces)).toEqual(links.map((link) => withoutSpaces(link.articleTitle)));
    if (width === 50) expect(titles).toEqual(links.map((link) => link.articleTitle));
    expect(urls).toEqual(links.map((link) => link.articleUrl));
    expect(screen.lines.join('')).not.toContain('…');
  });

  test('a several-person trend at 40 columns keeps PERSON HASH and its metric, hiding the names', async () => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const trend = await tmux.run(['people', 'trend', 'hira-abbasi-d893', 'layla-haddad-69d2', '--weeks', 'last4', '-q'], 40);
    expect(headerOf(trend, /^WEEK/)).toEqual(['WEEK', 'PERSON HASH', 'MENTIONS']);
    for (const line of trend.lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  test('people movers and a several-person trend show personHash at 80 columns', async () => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const movers = await tmux.run(['people', 'movers', '--weeks', 'last4', '--limit', '5'], 80);
    expect(headerOf(movers, /RANK CHANGE/)).toContain('PERSON HASH');
    const trend = await tmux.run(['people', 'trend', 'hira-abbasi-d893', 'layla-haddad-69d2', '--weeks', 'last4'], 80);
    expect(headerOf(trend, /^WEEK/)).toContain('PERSON HASH');
  });
});

/**
 * Captions (#18): the window, also when it was the default, the current week marked partial wherever
 * a window holds it, the filters as given, and names rather than hashes; wrapped at the pane's width.
 */
describe.concurrent('captions say what the rows are', () => {
  const logged = useLoggedSandbox();

  /** The caption: the lines from the first that starts with `start` to the table's header. */
  async function captionOf(tmux: Tmux, args: string[], width: number, start: string, header: RegExp): Promise<string> {
    const screen = await tmux.run(args, width);
    expect(screen.code, screen.lines.join('\n')).toBe(0);
    const from = screen.lines.findIndex((line) => line.startsWith(start));
    const to = screen.lines.findIndex((line, index) => index > from && header.test(line));
    expect(from, screen.lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(to, screen.lines.join('\n')).toBeGreaterThan(from);
    for (const line of screen.lines.slice(from, to)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    return screen.lines.slice(from, to).join(' ');
  }

  test.each([40, 80, 120])('people top without --weeks at %i columns: the default window, pinned, and its partial week', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    expect(await captionOf(tmux, ['people', 'top', '--limit', '5'], width, 'Top 5', /^ ?# {2}/))
      .toBe('Top 5 people by mentions · weeks 202644–202647 (default last4) · 202647 so far (partial)');
  });

  test.each([50, 120])('people top with filters at %i columns names each, and a window of full weeks has no partial mark', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    expect(await captionOf(tmux, ['people', 'top', '--weeks', '202640..202643', '--country', 'DE', '--gender', 'female', '--min-age', '30', '--limit', '5'], width, 'Top ', /^ ?# {2}/))
      .toMatch(/^Top \d+ people by mentions · weeks 202640–202643 · country DE · female · aged 30\+$/);
  });

  test.each([40, 80])('people movers --weeks current at %i columns says the week is partial, compared with a full one', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    expect(await captionOf(tmux, ['people', 'movers', '--weeks', 'current', '--limit', '5', '--country', 'DE', '--gender', 'male'], width, 'Ranks', /RANK CHANGE|^ ?# /))
      .toBe('Ranks by mentions in week 202647 against week 202646 (rankings read to 200) · 202647 so far (partial): fewer mentions than a full week · country DE · male · out: not in the first 200 now');
  });

  test('people movers of two completed weeks has no partial mark', async () => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    expect(await captionOf(tmux, ['people', 'movers', '--weeks', '202646', '--limit', '5'], 80, 'Ranks', /RANK CHANGE/))
      .toBe('Ranks by mentions in week 202646 against week 202645 (rankings read to 200) · left: fell out of the top 5');
  });

  test.each([50, 120])('--per-week and people countries get captions at %i columns', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    expect(await captionOf(tmux, ['people', 'top', '--weeks', '202645..202647', '--per-week', '--limit', '3'], width, 'Top 3', /^WEEK/))
      .toBe('Top 3 people by mentions, week by week · weeks 202645–202647 · 202647 so far (partial)');
    expect(await captionOf(tmux, ['people', 'countries', 'hira-abbasi-d893'], width, 'hira-abbasi-d893', /^COUNTRY/))
      .toBe("hira-abbasi-d893 by country · weeks 202644–202647 (the service's default) · 202647 so far (partial)");
  });

  test('a trend of several people names them, not their hashes', async () => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    const names = await Promise.all(['hira-abbasi-d893', 'layla-haddad-69d2'].map(async (hash) => (await rawJson<{ fullName: string }>(logged.server, `people/${hash}`)).fullName));
    expect(await captionOf(tmux, ['people', 'trend', 'hira-abbasi-d893', 'layla-haddad-69d2', '--weeks', '202646..202647'], 80, names[0]!, /^WEEK/))
      .toBe(`${names.join(', ')} · weeks 202646–202647 · 202647 so far (partial)`);
  });
});

/** #18: the README's captures are what the sandbox shows, re-taken on 2026-11-25 (its data is the same all that day). */
describe.concurrent('the README\'s terminal captures', () => {
  // The day the captures were taken: the sandbox's data is the same all that day.
  const logged = useLoggedSandbox({ now: new Date('2026-11-25T00:00:00Z') });
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');

  test('people top --weeks last4 at 80 columns: notes, caption and the first 20 rows', async () => {
    const block = /^```text\n([\s\S]*?)^```/m.exec(readme.slice(readme.indexOf('`newsstats --sandbox people top --weeks last4` in an 80-column terminal')))![1]!;
    // The two lines of the --sandbox note are not printed against a sandbox given by URL.
    const expected = block.split('\n').slice(2, -1);
    expect(expected).toHaveLength(24);
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    // bin/newsstats.cjs in a process of its own: the captures are what a person running it sees.
    const screen = await tmux.run(['people', 'top', '--weeks', 'last4'], 80, { spawn: true });
    expect(screen.lines.slice(0, expected.length)).toEqual(expected);
  });

  test('people movers --weeks 202644..202647 --limit 6 at 80 columns', async () => {
    const command = '$ newsstats --sandbox -q people movers --weeks 202644..202647 --limit 6\n';
    const at = readme.indexOf(command) + command.length;
    const expected = readme.slice(at, readme.indexOf('```', at)).trimEnd().split('\n');
    expect(expected).toHaveLength(11);
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    const screen = await tmux.run(['-q', 'people', 'movers', '--weeks', '202644..202647', '--limit', '6'], 80, { spawn: true });
    expect(screen.lines).toEqual(expected);
  });
});

/**
 * The progress bar leaves nothing on the screen however the run ends (#18 D): Ctrl-C (the `^C` the
 * terminal echoes included), kill, an error; and what is written while it runs gets lines of its own.
 * An export of three people whose third never answers (or is a 404) holds the bar on the screen.
 */
describe.concurrent('the progress bar leaves no trace on the screen', () => {
  const people = [1, 2, 3].map((rank) => ({ rank, personHash: `p${rank}`, fullName: `Person ${rank}`, mentionCount: 10 - rank }));
  const links = (personHash: string) =>
    JSON.stringify([1, 2].map((n) => ({ personHash, articleHash: n, mentionDate: '2026-11-20T10:00:00', snippet: `snippet ${n}`, sentiment: 0.5 })));
  const routes = { '/api/data/people/top': JSON.stringify(people), '/api/data/people/p1/links': links('p1'), '/api/data/people/p2/links': links('p2') };
  const exportLinks = (...more: string[]) =>
    ['export', 'links', '--top', '3', '--weeks', '202644..202647', '--no-context', '--concurrency', '1', '-o', join(tempDir(), 'links.csv'), ...more];
  /** What a bar leaves behind: its cells, its counts, its ETA. */
  const BAR_TRACE = /[█░]|\b\d+\/(3|30)\b|ETA/;
  const EXIT_LINE = /^::newsstats-exit=\d+$/;
  let failing: FakeApi;
  beforeAll(async () => {
    failing = await fakeApi(routes);
  });
  afterAll(async () => {
    await failing?.close();
  });
  /** An API of its own for each test (they run at once): its request log is that test's run's. */
  async function withHangingApi(test: (hanging: FakeApi) => Promise<void>): Promise<void> {
    const hanging = await fakeApi({ ...routes, '/api/data/people/p3/links': HANG });
    try {
      await test(hanging);
    } finally {
      await hanging.close();
    }
  }

  /** The screen once the bar is drawn and the run waits on the third person. */
  function barOnScreen(pane: Pane, hanging: FakeApi, marker: RegExp = /\/3\b/): Promise<string[]> {
    return pane.until(
      (lines) => hanging.requests.some((url) => url.startsWith('/api/data/people/p3/links')) && lines.some((line) => marker.test(line)),
      'no progress bar',
    );
  }

  test.each([40, 80, 120])('Ctrl-C at %i columns: the bar and the echoed ^C are erased; the shell goes on at column 0', (width) => withHangingApi(async (hanging) => {
    const tmux = terminals.terminal(sandboxEnv(hanging));
    const pane = await tmux.start(exportLinks(), width);
    const drawn = (await barOnScreen(pane, hanging)).filter((line) => line !== '');
    // One row, short enough that the ^C echoed after it cannot wrap it onto a second.
    expect(drawn).toEqual([expect.stringMatching(/^links .*\/3/)]);
    expect(displayWidth(drawn[0]!)).toBeLessThanOrEqual(width - 3);
    await pane.keys(['C-c']);
    const { code, lines } = await pane.finished();
    expect(code).toBe(130);
    expect(lines.filter((line) => line !== '')).toEqual([]);
    expect((await pane.screen()).filter((line) => line.includes('::newsstats-exit='))).toEqual([expect.stringMatching(EXIT_LINE)]);
  }));

  test('SIGTERM at 80 columns: erased too, exit 143', () => withHangingApi(async (hanging) => {
    const tmux = terminals.terminal(sandboxEnv(hanging));
    const pane = await tmux.start(exportLinks(), 80);
    await barOnScreen(pane, hanging);
    process.kill(pane.processId(), 'SIGTERM');
    const { code, lines } = await pane.finished();
    expect(code).toBe(143);
    expect(lines.filter((line) => line !== '')).toEqual([]);
  }));

  test('Ctrl-C during a slow export from the sandbox (--latency), at 40 columns', async () => {
    const slow = await sandbox({ latencyMs: 300 });
    try {
      const tmux = terminals.terminal(sandboxEnv(slow));
      const pane = await tmux.start(['export', 'links', '--top', '30', '--concurrency', '1', '--weeks', 'last4', '-o', join(tempDir(), 'links.csv')], 40);
      await pane.waitFor('/30');
      await pane.keys(['C-c']);
      const { code, lines } = await pane.finished();
      expect(code).toBe(130);
      expect(lines.join('\n')).not.toMatch(BAR_TRACE);
      expect(lines.filter((line) => line !== '')).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  test.each([40, 80, 120])('an error at %i columns starts a line of its own, and no bar is left', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(failing));
    const screen = await tmux.run(exportLinks(), width);
    expect(screen.code).toBe(4);
    const shown = screen.lines.filter((line) => line !== '');
    expect(shown[0]).toMatch(/^error: /);
    expect(shown.join(' ')).toContain('p3');
    expect(shown.join('\n')).not.toMatch(BAR_TRACE);
    for (const line of shown) expect(displayWidth(line)).toBeLessThanOrEqual(width);
  });

  test('--verbose lines while the bar runs each get a line of their own, at column 0; Ctrl-C leaves only them', () => withHangingApi(async (hanging) => {
    const tmux = terminals.terminal(sandboxEnv(hanging));
    const pane = await tmux.start(exportLinks('--verbose'), 200);
    await barOnScreen(pane, hanging);
    await pane.waitFor('/p2/links');
    await pane.keys(['C-c']);
    const { code, lines } = await pane.finished();
    expect(code).toBe(130);
    const shown = lines.filter((line) => line !== '');
    expect(shown.map((line) => line.replace(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/data\/([^?]*).* 200 \d+ms$/, '$1'))).toEqual([
      'people/top', 'people/p1/links', 'people/p2/links',
    ]);
  }));
});

/**
 * Messages wrap between words at the terminal's width and stay one line in a log (#18 item 5): an
 * error with its suggestion, a slip, a missing key with its hint, the sandbox's own notes. The same
 * command with `2>file` writes each message as one line; on the screen no line is wider than the pane
 * (tmux joins the rows it wrapped itself, so a line the terminal had to break would show as too wide).
 */
describe.concurrent('messages wrap at a terminal and stay one line in a log', () => {

  const CASES: Array<[string, string[], number, RegExp]> = [
    ['an unknown flag with its suggestion', ['people', 'top', '--weeks', 'last4', '--feilds', 'fullName'], 1, /^error: unknown option '--feilds'; did you mean --fields\?$/],
    ['a missing key and its hint', ['people', 'top', '--weeks', 'last4'], 2, /^error: no API key for profile "default"\nhint: run `newsstats auth login`, or set NEWSSTATS_API_KEY$/],
    ['a week written as ISO', ['people', 'top', '--weeks', '2026-W46'], 1, /^error: .*"2026-W46" is not a week spec; did you mean 202646\?$/],
    ['a refusal naming a command to run', ['config', 'set', 'base-url', 'http://remote.example.com'], 1, /^error: refusing .* `newsstats config set allow-insecure-http true` to accept the risk$/],
  ];

  test.each([40, 80].flatMap((width) => CASES.map((item) => [width, ...item] as const)))('at %i columns: %s', async (width, _name, args, messages, expected) => {
    const tmux = terminals.terminal({ NEWSSTATS_BASE_URL: server.url });
    const log = join(tempDir(), 'stderr.log');
    const [screen, logged] = [await tmux.run(args, width), await tmux.run(args, width, { stderrTo: log })];
    expect(screen.code, screen.lines.join('\n')).toBe(2 + (messages === 2 ? 1 : 0));
    // In the log: one line a message, whole.
    const logLines = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(logLines).toHaveLength(messages);
    expect(logLines.join('\n')).toMatch(expected);
    expect(logged.lines.filter((line) => line !== '')).toEqual([]);
    // On the screen: the same words, broken between them, no line wider than the pane.
    const shown = screen.lines.filter((line) => line !== '');
    for (const line of shown) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    expect(shown.join(' ')).toBe(logLines.join(' '));
    if (logLines.some((line) => displayWidth(line) > width)) expect(shown.length).toBeGreaterThan(messages);
  });

  test('a command quoted in a message is kept whole on one line where it fits (80 columns)', async () => {
    const tmux = terminals.terminal({ NEWSSTATS_BASE_URL: server.url });
    const screen = await tmux.run(['config', 'set', 'base-url', 'http://remote.example.com'], 80);
    expect(screen.lines.filter((line) => line.includes('`newsstats config set allow-insecure-http true`'))).toHaveLength(1);
  });

  // One line elsewhere: test/sandbox/serve.test.ts reads what serveSandbox writes to a plain stream.
  test.each([40, 80])('the sandbox\'s own line at %i columns', async (width) => {
    const tmux = terminals.terminal();
    const pane = await tmux.start(['sandbox', '--port', '0'], width);
    await pane.waitFor('stops.');
    const screen = (await pane.screen()).filter((line) => line !== '');
    const url = screen[0]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const line of screen) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    expect(screen.slice(1).join(' ')).toBe(`newsstats sandbox: serving synthetic data at ${url} (key: sandbox). Ctrl-C stops.`);
    expect(screen.length).toBeGreaterThan(2);
  });
});

/**
 * #18: every message and suggestion wraps between words at a terminal's width, and stays one line
 * where stderr is a log (not a terminal), so grep finds it whole.
 */
describe.concurrent('slip suggestions wrap at a terminal and stay one line in a log', () => {
  const logged = useLoggedSandbox();

  const SLIPS: string[][] = [
    ['people', 'top', 'last4', '--limit', '5', '--country', 'DE'], // a suggestion of ours
    ['people', 'top', '--weeks', '2026-W40..2026-W46'], // the week grammar's, through commander
    ['people', 'top', '--gender', 'femal'], // commander's refusal with our parser's suggestion
    ['people', 'get', 'Hira Abbasi'], // after the service's 404
    ['top', '--weeks', 'last4', '--limit', '5', '--format', 'csv'], // a verb without its noun
    ['people', 'top', '--limt', '5'], // commander's own "(Did you mean --limit?)", made one line
  ];

  test.each([40, 80])('at %i columns', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(logged.server));
    for (const args of SLIPS) {
      const log = await runCli(args, { env: sandboxEnv(logged.server) });
      expect(log.code, log.stderr).toBe(2);
      // In a log: one line, whatever its length.
      const logLines = log.stderr.split('\n').filter(Boolean);
      expect(logLines, log.stderr).toHaveLength(1);
      const screen = await tmux.run(args, width);
      expect(screen.code).toBe(2);
      const shown = screen.lines.filter((line) => line !== '');
      for (const line of shown) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
      if (displayWidth(logLines[0]!) > width) expect(shown.length).toBeGreaterThan(1);
      // The same words, in the same order: wrapped, not cut.
      expect(shown.join(' ').split(/\s+/)).toEqual(logLines[0]!.split(/\s+/));
    }
  });
});

/**
 * #31 item 1: output taller than the screen goes through a pager (NEWSSTATS_PAGER, the profile's
 * `pager`, PAGER, then less -FRX), so the caption, the header and rank 1 are on the first screen.
 * bin/newsstats.cjs in a process of its own: a pager needs one to hand the terminal to.
 */
describe.concurrent('a pager at a terminal', () => {
  /** A pager that marks each line it is given, and shows it at once. */
  const MARKING = { NEWSSTATS_PAGER: "sed -u 's/^/paged|/'" };
  const TOP = ['people', 'top', '--weeks', 'last4'];

  test.each([[80, 24], [40, 24], [50, 50], [120, 50]])('less at %i x %i: notes, caption, header and rank 1 on the first screen; q ends the run with 0', async (width, height) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const pane = await tmux.start(TOP, width, {}, height);
    // less -FRX waits at its prompt, at the bottom of a full screen.
    const screen = await pane.until((lines) => lines.length >= height && lines[height - 1]!.startsWith(':'), 'no less prompt');
    const first = screen.slice(0, height - 1);
    const captionAt = first.findIndex((line) => line.startsWith('Top 50 people by mentions'));
    expect(captionAt, first.join('\n')).toBeGreaterThanOrEqual(0);
    // The hidden-columns note went through the pager too, above the caption, as without one.
    expect(first.slice(0, captionAt).join(' ')).toContain('hidden at');
    const headerAt = first.findIndex((line) => /^ ?# {2}/.test(line));
    expect(headerAt).toBeGreaterThan(captionAt);
    expect(first[headerAt + 1]).toMatch(/^ ?1 {2}/);
    // Rank 1 is read by its name, whole, at every width (#31 item 7).
    expect(cells(first[headerAt]!)[1]).toBe('NAME');
    expect(cells(first[headerAt + 1]!)[1]).toBe(String(ranking[0]!.fullName));
    await pane.keys(['q']);
    const { code, lines } = await pane.finished();
    expect(code).toBe(0);
    expect(lines.join('\n')).not.toMatch(/EPIPE|Error:|^\s+at /m);
  });

  test('output that fits the screen is printed as it is, no pager started', async () => {
    const tmux = terminals.terminal(sandboxEnv(server, MARKING));
    const screen = await tmux.run([...TOP, '--limit', '5'], 80, { spawn: true, height: 24 });
    expect(screen.code).toBe(0);
    expect(screen.lines.some((line) => line.startsWith('Top 5 people'))).toBe(true);
    expect(screen.lines.filter((line) => line.startsWith('paged|'))).toEqual([]);
  });

  test('taller output goes to the pager whole, the notes in order with the data', async () => {
    const tmux = terminals.terminal(sandboxEnv(server, MARKING));
    const screen = await tmux.run([...TOP, '--limit', '30'], 80, { spawn: true, height: 24 });
    expect(screen.code).toBe(0);
    const paged = screen.lines.filter((line) => line !== '');
    for (const line of paged) expect(line).toMatch(/^paged\|/);
    const text = paged.map((line) => line.slice('paged|'.length));
    const noteAt = text.findIndex((line) => line.includes('hidden at 80 columns'));
    const captionAt = text.findIndex((line) => line.startsWith('Top 30 people'));
    expect(noteAt).toBeGreaterThanOrEqual(0);
    expect(captionAt).toBeGreaterThan(noteAt);
    expect(text.slice(captionAt + 2)).toHaveLength(30);
  });

  test('--no-pager, the pager setting cat, and --output print without a pager', async () => {
    const tmux = terminals.terminal(sandboxEnv(server, { PAGER: "sed -u 's/^/paged|/'" }));
    const direct = await tmux.run(['--no-pager', ...TOP], 80, { spawn: true, height: 24 });
    expect(direct.code).toBe(0);
    expect(direct.lines.filter((line) => line.startsWith('paged|'))).toEqual([]);
    expect(direct.lines.filter((line) => /^ ?\d+ {2}/.test(line))).toHaveLength(50);
    const output = await tmux.run([...TOP, '--format', 'table', '-o', '/dev/stdout'], 80, { spawn: true, height: 24 });
    expect(output.lines.filter((line) => line.startsWith('paged|'))).toEqual([]);
    expect((await tmux.run(['config', 'set', 'pager', 'cat'], 80)).code).toBe(0);
    const configured = await tmux.run(TOP, 80, { spawn: true, height: 24 });
    expect(configured.lines.filter((line) => line.startsWith('paged|'))).toEqual([]);
    expect(configured.lines.filter((line) => /^ ?\d+ {2}/.test(line))).toHaveLength(50);
  });

  test('not a terminal: never paged', async () => {
    const result = await runCli([...TOP, '--format', 'table'], { env: sandboxEnv(server, MARKING) });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('paged|');
  });

  test.each([
    ['a missing pager', 'no-such-pager-31', /could not be started/],
    ['a failing pager', 'false', /exited with status 1/],
  ])('%s: the output printed whole, one note, exit 0', async (_name, pager, note) => {
    const tmux = terminals.terminal(sandboxEnv(server, { NEWSSTATS_PAGER: pager }));
    const screen = await tmux.run(TOP, 80, { spawn: true, height: 24 });
    expect(screen.code).toBe(0);
    expect(screen.lines.join(' ')).toMatch(note);
    expect(screen.lines.filter((line) => /^ ?\d+ {2}/.test(line))).toHaveLength(50);
  });

  test('a pager that quits early ends the run quietly with 0', async () => {
    const tmux = terminals.terminal(sandboxEnv(server, { NEWSSTATS_PAGER: 'head -n 3' }));
    const screen = await tmux.run(TOP, 80, { spawn: true, height: 24 });
    expect(screen.code).toBe(0);
    expect(screen.lines.filter((line) => line !== '')).toHaveLength(3);
    expect(screen.lines.join('\n')).not.toMatch(/EPIPE|Error/);
  });
});

/**
 * #31 item 2: help wraps between words at every width from 40 up, as messages do: no line wider than
 * the pane (tmux would break it mid-word), and the same words in the same order as the help printed
 * to a pipe at 80 columns (continuation backslashes aside).
 */
describe.concurrent('help wraps between words at any width', () => {
  const HELP = [['--help'], ['people', '--help'], ['people', 'top', '--help'], ['export', 'links', '--help'], ['help', 'weeks'], ['help', 'environment'], ['help', 'formats']];
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '' && word !== '\\');

  test.each([40, 50, 80, 120])('at %i columns', async (width) => {
    const tmux = terminals.terminal();
    for (const args of HELP) {
      const piped = await runCli(args);
      expect(piped.code).toBe(0);
      const screen = await tmux.run(args, width, { height: 300 });
      expect(screen.code).toBe(0);
      // Only a single word wider than the pane (a config path) may be: there is no space to break at.
      for (const line of screen.lines.filter((text) => /\S\s+\S/.test(text))) expect(displayWidth(line), `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(width);
      // help environment shows this pane's own config path; the rest is the same text.
      const normalise = (text: string) => words(text).filter((word) => !word.includes(tmux.home) && !word.startsWith('/'));
      expect(normalise(screen.lines.join('\n')), args.join(' ')).toEqual(normalise(piped.stdout));
    }
  });
});

/**
 * #31 item 3: every URL printed is the URL sent. The -v line and an error's request are compared
 * with what a server on 127.0.0.1 received, with base URLs that carry a path (a prefix, a pasted API
 * root, both).
 */
describe.concurrent('the URL printed is the URL sent', () => {
  const WEEK = JSON.stringify({ currentWeek: 202647, last4StartWeek: 202644 });

  test.each(['', '/api/data', '/prefix', '/prefix/api/data', '/prefix/'])('base URL path "%s": -v shows what the server received', async (basePath) => {
    const prefix = basePath.replace(/\/$/, '').replace(/\/api\/data$/, '');
    const api = await fakeApi({ [`${prefix}/api/data/weeks/current`]: WEEK });
    try {
      const result = await runCli(['-v', '--base-url', `${api.url}${basePath}`, 'weeks', '-f', 'json'], { env: { NEWSSTATS_API_KEY: api.key } });
      expect(result.code, result.stderr).toBe(0);
      const shown = [...result.stderr.matchAll(/^GET (\S+) 200 /gm)].map((match) => match[1]);
      expect(shown).toEqual(api.requests.map((path) => `${api.url}${path}`));
      // An error names the request as it was sent too.
      const failed = await runCli(['--base-url', `${api.url}${basePath}`, 'api', 'nothing/here'], { env: { NEWSSTATS_API_KEY: api.key } });
      expect(failed.code).toBe(4);
      expect(failed.stderr).toContain(`GET ${api.requests.find((path) => path.includes('nothing/here'))}`);
    } finally {
      await api.close();
    }
  });
});

/**
 * #31 item 4: complete weeks by default where a file is written, and a word on stderr when a file
 * or pipe gets the current, partial week (no caption marks it there).
 */
describe.concurrent('complete weeks in files', () => {
  let currentWeek: number;
  beforeAll(async () => {
    currentWeek = Number(((await rawJson(server, 'weeks/current')) as unknown as { currentWeek: number }).currentWeek);
  });
  const csvWeeks = (path: string, column: string) => {
    const [header, ...rows] = readFileSync(path, 'utf8').trim().split('\n');
    const at = header!.split(',').indexOf(column);
    return new Set(rows.map((row) => Number(row.split(',')[at])));
  };

  test('an export of last4 into a file says the current week is partial; complete4 and the default hold whole weeks', async () => {
    const dir = tempDir();
    const partial = await runCli(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '-o', join(dir, 'cs.csv')], { env: sandboxEnv(server) });
    expect(partial.code).toBe(0);
    expect(partial.stderr).toContain(`cs.csv holds week ${currentWeek}, which is not over: its counts are partial (--weeks complete4 gives the 4 complete weeks before it)`);
    expect(csvWeeks(join(dir, 'cs.csv'), 'endWeek')).toEqual(new Set([currentWeek]));
    for (const weeks of [['--weeks', 'complete4'], []]) {
      const whole = await runCli(['export', 'country-stats', '--top', '3', ...weeks, '-o', join(dir, 'whole.csv')], { env: sandboxEnv(server) });
      expect(whole.code).toBe(0);
      expect(whole.stderr).not.toContain('partial');
      const ends = [...csvWeeks(join(dir, 'whole.csv'), 'endWeek')];
      expect(ends).toHaveLength(1);
      expect(ends[0]).toBeLessThan(currentWeek);
    }
  });

  test('people top: -o file defaults to complete4, a terminal table to last4 with its partial week in the caption', async () => {
    const dir = tempDir();
    const file = await runCli(['people', 'top', '--limit', '3', '--fields', 'rank,startWeek,endWeek', '-o', join(dir, 'top.csv')], { env: sandboxEnv(server) });
    expect(file.code).toBe(0);
    expect(file.stderr).not.toContain('partial');
    expect([...csvWeeks(join(dir, 'top.csv'), 'endWeek')][0]).toBeLessThan(currentWeek);
    const piped = await runCli(['export', 'country-stats', '--top', '2', '--weeks', 'last2', '-f', 'csv'], { env: sandboxEnv(server) });
    expect(piped.stderr).toContain(`the export holds week ${currentWeek}, which is not over: its counts are partial (--weeks complete2`);
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['people', 'top', '--limit', '3'], 80);
    expect(screen.lines.join(' ')).toContain(`${currentWeek} so far (partial)`);
    expect(screen.lines.join(' ')).not.toContain('which is not over');
  });
});

/**
 * #31 item 5: a base URL that points at a plain web server is said to be one, with exit 5, not read as
 * a missing person (exit 4) or a contract violation of the service.
 */
describe.concurrent('a server that is not the API', () => {
  const plainServer = async (status: number) => {
    const { createServer } = await import('node:http');
    const server = createServer((_request, response) => {
      response.writeHead(status, { 'content-type': 'text/html' });
      response.end('<html><body>It works!</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  };

  test.each([[404, ['people', 'get', 'hira-abbasi-d893']], [200, ['people', 'top', '--weeks', '202644..202647']]])('a web server answering %i', async (status, args) => {
    const server = await plainServer(status);
    try {
      const result = await runCli(['--base-url', `${server.url}/api/data`, ...args], { env: { NEWSSTATS_API_KEY: 'k' } });
      expect(result.code).toBe(5);
      const answer = status === 404 ? 'GET /api/data/people/\\S+ answered 404' : 'invalid JSON in the response to GET /api/data/people/top';
      expect(result.stderr).toMatch(new RegExp(`^error: this doesn't look like the News-Mention Statistics API at ${server.url}: ${answer}`));
      expect(result.stderr).toContain('hint: check --base-url');
    } finally {
      await server.close();
    }
  });

  test('the API\'s own 404 stays "not found", exit 4', async () => {
    const server = await sandbox();
    try {
      const result = await runCli(['people', 'get', 'nobody-here-0000'], { env: sandboxEnv(server) });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('person "nobody-here-0000" not found');
    } finally {
      await server.close();
    }
  });
});

/** #31 item 6: a hint's command runs where and as whom the failed one did. */
describe.concurrent('hints keep the context they were given', () => {
  test('--profile, --sandbox: the suggested command repeats them; a hint never changes another profile', async () => {
    const home = tempDir();
    const env = { XDG_CONFIG_HOME: join(home, 'config'), HOME: home };
    expect((await runCli(['config', 'set', 'base-url', 'http://127.0.0.1:9', '--profile', 'prod'], { env })).code).toBe(0);
    const noKey = await runCli(['--profile', 'prod', 'weeks'], { env });
    expect(noKey.code).toBe(3);
    expect(noKey.stderr).toContain('run `newsstats --profile prod auth login`');
    const insecure = await runCli(['config', 'set', 'base-url', 'http://10.0.0.5:8080', '--profile', 'lan'], { env });
    expect(insecure.code).toBe(2);
    expect(insecure.stderr).toContain('`newsstats --profile lan config set allow-insecure-http true`');
    const name = await runCli(['--sandbox', 'people', 'get', 'Hira Abbasi'], { env });
    expect(name.code).toBe(2);
    expect(name.stderr).toContain("did you mean newsstats --sandbox people search 'Hira Abbasi'?");
  });
});

/** #31 item 9: slips get the fix they most likely meant, and failures a next step. */
describe.concurrent('small slips and next steps', () => {
  test.each([
    [['people', 'top', '--format=JSON'], 2, 'did you mean --format json?'],
    [['people', 'top', '--sort', 'mention'], 2, 'did you mean --sort mentions?'],
    [['people', 'top', '--fields', 'rank,nmae'], 2, 'unknown field "nmae" (did you mean fullName?)'],
    [['people', 'top', '-o', 'json'], 2, '--output json names a file; did you mean --format json?'],
  ])('%j', async (args, code, expected) => {
    const result = await runCli(['--sandbox', ...args]);
    expect(result.code).toBe(code);
    expect(result.stderr).toContain(expected);
  });

  test('nothing listening at the base URL: a next step, and no other profile or service in it', async () => {
    const result = await runCli(['--base-url', 'http://127.0.0.1:9', '--retries', '0', 'weeks'], { env: { NEWSSTATS_API_KEY: 'k' } });
    expect(result.code).toBe(5);
    expect(result.stderr).toContain('(ECONNREFUSED)');
    expect(result.stderr).toContain('hint: is the service running there? check --base-url');
    expect(result.stderr).toContain('`newsstats sandbox` serves synthetic data');
  });
});

describe('the sandbox on a port in use', () => {
  test('says so and points at --port 0', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = await runCli(['sandbox', '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`port ${port} is already in use`);
      expect(result.stderr).toContain('hint: choose another --port, or --port 0 for any free one');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});

/** The terminal headers of a several-person trend and the fields they show. */
const TREND_HEADERS: Record<string, string> = {
  WEEK: 'week', NAME: 'fullName', 'PERSON HASH': 'personHash', MENTIONS: 'mentions', DOMINANCE: 'globalDominance', SENTIMENT: 'globalSentiment',
  REACH: 'globalReach', POWER: 'globalPower', PERSISTENCE: 'persistence', COUNTRIES: 'countries',
};

describe.concurrent('views give a reader the text', () => {
  /** The words of a text, as a screen shows them once its wrapped lines are read as one text. */
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

  test.each([40, 50])('sources get 17 at %i columns: the whole URL on one line, the description wrapped, not cut', async (width) => {
    const source = await rawJson<{ url: string; description: string; linkFilter: string }>(server, 'sources/17');
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['-q', 'sources', 'get', '17'], width, { height: 50 });
    expect(screen.code).toBe(0);
    // tmux joins the rows it wrapped itself: a URL the terminal wrapped still reads and copies as one line.
    expect(screen.lines).toContain(`url${' '.repeat(screen.lines.find((line) => line.startsWith('url'))!.indexOf('https') - 3)}${source.url}`);
    expect(screen.lines.join('\n')).not.toContain('…');
    const at = screen.lines.findIndex((line) => line.startsWith('description'));
    const next = screen.lines.findIndex((line, i) => i > at && /^\S/.test(line));
    expect(words(screen.lines.slice(at, next).join(' ').slice('description'.length))).toEqual(words(source.description));
    for (const line of screen.lines.filter((text) => /\S\s+\S/.test(text) && !text.includes(source.url) && !text.includes(source.linkFilter))) {
      expect(displayWidth(line), line).toBeLessThanOrEqual(width);
    }
  });

  test.each([[80, 24], [80, 50]])('posts get at %i x %i: the whole content and summary, wrapped between words under their label', async (width, height) => {
    const [latest] = await rawJson<Array<{ slug: string }>>(server, 'posts/recent?count=1');
    const post = await rawJson<{ content: string; summary: string }>(server, `posts/${latest!.slug}`);
    expect(displayWidth(post.content)).toBeGreaterThan(width);
    const tmux = terminals.terminal(sandboxEnv(server));
    const screen = await tmux.run(['--no-pager', '-q', 'posts', 'get', latest!.slug], width, { height });
    expect(screen.code).toBe(0);
    const field = (label: string) => {
      const at = screen.lines.findIndex((line) => line.startsWith(`${label} `));
      const next = screen.lines.findIndex((line, i) => i > at && /^\S/.test(line));
      return screen.lines.slice(at, next).join(' ').slice(label.length);
    };
    expect(words(field('content'))).toEqual(words(post.content));
    expect(words(field('summary'))).toEqual(words(post.summary));
    for (const line of screen.lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
  });

  test.each(['0', '1'])('people links --limit 5 at 80 columns (FORCE_HYPERLINK=%s): a title keeps as many cells as the article hash', async (hyperlinks) => {
    const links = await rawJson<Array<{ articleTitle: string; articleHash: unknown }>>(server, 'people/hira-abbasi-d893/links?limit=5');
    const tmux = terminals.terminal(sandboxEnv(server, { FORCE_HYPERLINK: hyperlinks }));
    const screen = await tmux.run(['-q', 'people', 'links', 'hira-abbasi-d893', '--limit', '5'], 80, { env: { FORCE_HYPERLINK: hyperlinks } });
    expect(screen.code).toBe(0);
    const headerAt = screen.lines.findIndex((line) => line.includes('ARTICLE HASH'));
    const header = screen.lines[headerAt]!;
    const titleAt = header.indexOf('TITLE');
    expect(titleAt).toBeGreaterThan(0);
    const rows = screen.lines.slice(headerAt + 1).filter((line) => /^\d{4}-\d{2}-\d{2}/.test(line));
    expect(rows).toHaveLength(5);
    rows.forEach((line, i) => {
      const title = cells(line.slice(titleAt))[0]!;
      const whole = links[i]!.articleTitle;
      expect(title === whole || (title.endsWith('…') && whole.startsWith(title.slice(0, -1))), `${title} for ${whole}`).toBe(true);
      expect(displayWidth(title)).toBeGreaterThanOrEqual(Math.min(displayWidth(whole), String(links[i]!.articleHash).length));
    });
  });

  /** people movers' rows after the top N: those who fell out of it, marked `left` (or `out`) in a word. */
  test.each([[40, 24], [50, 50], [80, 24], [120, 50]])('people movers at %i x %i marks the rows that fell out of the top 6, and the caption says what the mark means', async (width, height) => {
    const json = await runCli(['people', 'movers', '--weeks', '202644..202647', '--limit', '6', '-f', 'json'], { env: sandboxEnv(server) });
    const movers = JSON.parse(json.stdout) as Array<{ rank: number | null; status: string; leftTop: boolean }>;
    expect(movers.slice(0, 6).map((row) => row.leftTop)).toEqual([false, false, false, false, false, false]);
    expect(movers.slice(6).length).toBeGreaterThan(0);
    expect(movers.slice(6).every((row) => row.leftTop)).toBe(true);
    const tmux = terminals.terminal(sandboxEnv(server, { NO_COLOR: '1' }));
    const screen = await tmux.run(['--no-pager', '-q', 'people', 'movers', '--weeks', '202644..202647', '--limit', '6'], width, { height, env: { NO_COLOR: '1' } });
    expect(screen.code).toBe(0);
    const headerAt = screen.lines.findIndex((line) => line.includes('RANK CHANGE'));
    expect(screen.lines.slice(0, headerAt).join(' ')).toMatch(/ · left: fell out of the top 6$/);
    // At 40 columns a long name wraps onto lines under itself (#31), blank before NAME: not rows.
    const nameAt = screen.lines[headerAt]!.indexOf('NAME');
    const rows = screen.lines.slice(headerAt + 1).filter((line) => line.slice(0, nameAt).trim() !== '');
    expect(rows).toHaveLength(movers.length);
    rows.forEach((line, i) => {
      const mark = movers[i]!.leftTop && movers[i]!.status !== 'out';
      expect(/(^|\s)left [▲▼=]/u.test(line), line).toBe(mark);
    });
    for (const line of screen.lines) expect(displayWidth(line), line).toBeLessThanOrEqual(width);
  });

  test.each([80, 120])('a several-person trend at %i columns names every column it leaves out in the note', async (width) => {
    const tmux = terminals.terminal(sandboxEnv(server));
    const hashes = ranking.slice(0, 3).map((row) => String(row.personHash));
    const screen = await tmux.run(['people', 'trend', ...hashes, '--weeks', '202644..202647'], width);
    expect(screen.code).toBe(0);
    const headerAt = screen.lines.findIndex((line) => line.startsWith('WEEK'));
    const headers = cells(screen.lines[headerAt]!);
    const hidden = Object.keys(TREND_HEADERS).filter((header) => !headers.includes(header)).map((header) => TREND_HEADERS[header]);
    const captionAt = screen.lines.findIndex((line, i) => i < headerAt && line.includes('202644'));
    const notes = screen.lines.slice(0, captionAt).join(' ');
    if (hidden.length === 0) expect(notes).not.toContain('hidden');
    else expect(notes).toContain(`${hidden.length} ${hidden.length === 1 ? 'column' : 'columns'} hidden at ${width} columns: ${hidden.join(', ')}; see --fields`);
  });
});
