import { LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import type { RenderOptions, View } from '../../../src/output/index.js';
import { capColumnWidths, fitColumns, sparkline, type ColumnLayout } from '../../../src/output/table.js';
import { displayWidth } from '../../../src/output/text.js';
import { BIG, peopleView } from './fixtures.js';
import { render } from './helpers.js';

const ANSI = /\x1b\[[0-9;]*m/g;

const longNames = {
  data: [
    { rank: new LosslessNumber('1'), fullName: '習近平 国家主席 中華人民共和国', countryName: 'People’s Republic of China', mentions: new LosslessNumber('98765') },
    { rank: new LosslessNumber('2'), fullName: 'Alexandria Ocasio-Cortez of New York', countryName: 'United States of America', mentions: new LosslessNumber('5') },
    { rank: new LosslessNumber('3'), fullName: '문재인', countryName: '대한민국', mentions: new LosslessNumber('123') },
  ],
  fields: ['rank', 'fullName', 'countryName', 'mentions'],
};

/** Screen columns where each cell of a borderless line starts, from the widths of what precedes it. */
function cellStarts(line: string): number[] {
  const starts: number[] = [];
  const cells = line.split(/ {2,}/);
  let offset = 0;
  for (const cell of cells) {
    const at = line.indexOf(cell, offset);
    starts.push(displayWidth(line.slice(0, at)));
    offset = at + cell.length;
  }
  return starts;
}

async function terminal(view: View, options: Partial<RenderOptions> = {}): Promise<{ lines: string[]; notes: string[] }> {
  const notes: string[] = [];
  const text = await render(view, { format: 'table', isTTY: true, width: 80, notice: (note) => notes.push(note), ...options });
  return { lines: text === '' ? [] : text.replace(/\n$/, '').split('\n'), notes };
}

describe('table on a terminal', () => {
  test.each([100, 60, 40, 30])('every line fits %i columns by display width, no borders, no trailing spaces', async (width) => {
    const { lines } = await terminal(longNames, { width });
    for (const line of lines) {
      expect(displayWidth(line)).toBeLessThanOrEqual(width);
      expect(line).not.toMatch(/[│┌+|] | $/);
    }
  });

  test('shows everything when it fits: short headers, numbers right-aligned, two spaces between columns', async () => {
    const { lines, notes } = await terminal(longNames, { width: 120 });
    expect(lines[0]).toBe('#  NAME                                  COUNTRY                     MENTIONS');
    expect(lines[1]).toBe('1  習近平 国家主席 中華人民共和国        People’s Republic of China     98765');
    expect(lines[2]).toBe('2  Alexandria Ocasio-Cortez of New York  United States of America           5');
    expect(notes).toEqual([]);
  });

  test('every row starts its columns at the same screen columns, whatever the script', async () => {
    const { lines } = await terminal(longNames, { width: 120 });
    // Left-aligned columns share their start, right-aligned ones (rank, numbers) their end.
    const starts = lines.map(cellStarts);
    for (const row of starts) expect(row.slice(1, -1)).toEqual(starts[0]!.slice(1, -1));
    expect(new Set(lines.map(displayWidth)).size).toBe(1);
  });

  test('a less important name is hidden before a more important one is cut; numbers stay', async () => {
    const { lines, notes } = await terminal(longNames, { width: 60 });
    expect(lines[0]).toMatch(/^# {2}NAME +MENTIONS$/);
    expect(lines[2]).toBe('2  Alexandria Ocasio-Cortez of New York         5');
    expect(notes).toEqual(['1 column hidden at 60 columns: countryName; see --fields']);
  });

  test('names are cut with … before a number is hidden; the note says what is hidden even under --quiet', async () => {
    const notes: Array<[string, unknown]> = [];
    const text = await render(longNames, { format: 'table', isTTY: true, width: 30, notice: (note, options) => notes.push([note, options]) });
    expect(text.split('\n')[0]).toMatch(/^# {2}NAME$/);
    expect(text).toContain('…');
    expect(notes).toEqual([['2 columns hidden at 30 columns: countryName, mentions; see --fields', { evenQuiet: true }]]);
  });

  test('columns named in --fields are never hidden: names shrink to make room, and the line runs over only when ids alone do not fit', async () => {
    const { lines, notes } = await terminal(longNames, { width: 30, fields: ['fullName', 'countryName', 'mentions', 'rank'] });
    expect(lines[0]).toMatch(/^NAME +COUNTRY +MENTIONS +#$/);
    expect(lines[1]).toContain('98765');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(notes).toEqual([]);
  });

  test('decimals in a column line up under each other', async () => {
    const view = { data: [{ n: new LosslessNumber('5.172') }, { n: new LosslessNumber('5.7821') }, { n: new LosslessNumber('12') }], fields: ['n'] };
    const { lines } = await terminal(view);
    // Trailing spaces are trimmed from each line: 5.172's pad is there only before the next column.
    expect(lines).toEqual(['      N', ' 5.172', ' 5.7821', '12']);
  });

  test('a field name from the server reaches the terminal escaped, in the header and the note', async () => {
    const view = { data: [{ 'evil\x1b[31m': 'x', n: 1 }], fields: ['evil\x1b[31m', 'n'] };
    const text = await render(view, { format: 'table', isTTY: true, width: 80 });
    expect(text).not.toContain('\x1b');
  });

  test('an identifier, a number or a date is never cut, at 40 columns and up', async () => {
    const view = {
      data: [{ personHash: 'a-rather-long-person-hash-1f2e', articleHash: new LosslessNumber(BIG), mentionDate: '2002-03-20T00:00:00', snippet: 'x'.repeat(80) }],
      fields: ['personHash', 'articleHash', 'mentionDate', 'snippet'],
    };
    for (const width of [40, 50, 80]) {
      const { lines, notes } = await terminal(view, { width });
      expect(lines[1]?.startsWith('a-rather-long-person-hash-1f2e')).toBe(true);
      // What does not fit whole is hidden and named, not cut.
      if (!lines[1]?.includes(BIG)) expect(notes[0]).toContain('articleHash');
    }
    const { lines } = await terminal(view, { width: 120 });
    expect(lines[1]).toContain('  2002-03-20  ');
    expect(lines[0]).toMatch(/^PERSON HASH +ARTICLE HASH +DATE +SNIPPET$/);
  });

  test('default columns are tableFields; exact digits', async () => {
    const { lines } = await terminal(peopleView, { width: 100 });
    expect(lines[0]?.split(/ {2,}/).map((cell) => cell.trim())).toEqual(['#', 'NAME', 'MENTIONS', 'SENTIMENT']);
    expect(lines.join('\n')).toContain(BIG);
    expect(lines.join('\n')).toMatch(/ 1\.50$/m);
  });

  test('~ instead of … when the terminal is not unicode', async () => {
    const { lines } = await terminal(longNames, { width: 30, unicode: false });
    expect(lines.join('\n')).toContain('~');
    expect(lines.join('\n')).not.toContain('…');
  });

  test('colour: bold header, sentiment in its sentimentColor; none without color', async () => {
    const colored = await render(peopleView, { format: 'table', isTTY: true, width: 100, color: true });
    expect(colored).toContain('\x1b[1mNAME\x1b[22m');
    expect(colored).toContain('\x1b[38;2;255;0;0m-0.25\x1b[39m');
    const plain = await render(peopleView, { format: 'table', isTTY: true, width: 100 });
    expect(colored.replace(ANSI, '').split('\n').map((line) => line.trimEnd())).toEqual(plain.split('\n'));
    expect(plain).not.toMatch(ANSI);
  });

  test('a caption above the table; a note instead of an empty table', async () => {
    const { lines } = await terminal({ ...longNames, caption: 'Top 3 people by mentions · weeks 202644–202647' });
    expect(lines[0]).toBe('Top 3 people by mentions · weeks 202644–202647');
    expect(lines[1]).toMatch(/^# {2}NAME/);
    const empty = await terminal({ data: [], fields: ['a'], caption: 'Top 0', empty: 'no people match "zzzqqq"' });
    expect(empty).toEqual({ lines: [], notes: ['no people match "zzzqqq"'] });
  });

  test('a single view prints field and value pairs', async () => {
    const view = { data: { currentWeek: new LosslessNumber('202547'), last4StartWeek: new LosslessNumber('202544') }, fields: ['currentWeek', 'last4StartWeek'], single: true };
    expect((await terminal(view)).lines).toEqual(['currentWeek     202547', 'last4StartWeek  202544']);
  });

  test.each([40, 50, 80, 120])('a record view wraps a long value between words under itself at %i columns, nothing cut', async (width) => {
    const content = 'Hira Abbasi spoke at length about the new coastal rail line, its budget and the towns it will serve first, '.repeat(3).trim();
    const url = 'https://news.example.org/2026/11/27/a-very-long-article-address-that-no-terminal-of-forty-columns-can-hold';
    const view = { data: { postId: new LosslessNumber('1234567890123456789'), content, url }, fields: ['postId', 'content', 'url'], single: true };
    const { lines } = await terminal(view, { width });
    const text = lines.join('\n');
    expect(text).not.toContain('…');
    // The value lines of `content`, joined again, are the content; continuation lines start under the value.
    const start = lines.findIndex((line) => line.startsWith('content'));
    const end = lines.findIndex((line) => line.startsWith('url'));
    const indent = 'content'.length + 2;
    expect(lines.slice(start, end).map((line, k) => (k === 0 ? line.slice(indent) : line.slice(indent))).join(' ')).toBe(content);
    for (const line of lines.slice(start + 1, end)) expect(line.startsWith(' '.repeat(indent))).toBe(true);
    for (const line of lines.slice(start, end)) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    expect(lines[end]).toBe(`url      ${url}`);
    expect(lines[0]).toBe('postId   1234567890123456789');
  });

  test('sparklines follow the table', async () => {
    const view = { ...longNames, sparklines: ['mentions'] };
    const { lines } = await terminal(view, { width: 100 });
    expect(lines.at(-1)).toBe('mentions  █▁▁  low 5  high 98765');
  });

  test('where the view\'s count is 0, the other sparklines leave a gap and their low and high skip it', async () => {
    const rows = [['3', '0.5'], ['0', '0'], ['2', '-0.25']].map(([mentions, sentiment]) => ({
      mentions: new LosslessNumber(mentions!), sentiment: new LosslessNumber(sentiment!),
    }));
    const view = { data: rows, fields: ['mentions', 'sentiment'], sparklines: ['mentions', 'sentiment'], countField: 'mentions' };
    const { lines } = await terminal(view);
    expect(lines.slice(-2)).toEqual(['mentions   █▁▆  low 0  high 3', 'sentiment  █ ▁  low -0.25  high 0.5']);
  });

  describe('a name or title narrower than the id beside it wraps between words, every word shown (#31)', () => {
    const search = {
      data: [
        { personHash: 'agnieszka-kowalczyk-21fa', fullName: 'Agnieszka Maria Kowalczyk-Wiśniewska', countryName: 'Poland' },
        { personHash: 'sakib-chowdhury-ef05', fullName: 'সাকিব চৌধুরী আহমেদ রহমান', countryName: 'Bangladesh' },
        { personHash: 'tan-wei-01', fullName: 'Tan Wei', countryName: 'Singapore' },
      ],
      fields: ['personHash', 'fullName', 'countryName'],
      keep: ['personHash'],
    };
    const indent = 'agnieszka-kowalczyk-21fa'.length + 2;

    /** Each row's name, from its first line and the continuation lines under it. */
    function namesOf(lines: readonly string[]): string[] {
      const names: string[] = [];
      for (const line of lines.slice(1)) {
        const piece = line.slice(indent);
        if (line.startsWith(' ')) names[names.length - 1] += ` ${piece}`;
        else names.push(piece);
      }
      return names;
    }

    test('at 40 columns: the hash whole, the name on lines under itself, no … and every line within 40', async () => {
      const { lines } = await terminal(search, { width: 40 });
      expect(lines[0]).toBe(`PERSON HASH${' '.repeat(indent - 11)}NAME`);
      expect(lines[1]).toBe('agnieszka-kowalczyk-21fa  Agnieszka');
      expect(lines[2]).toBe(`${' '.repeat(indent)}Maria`);
      expect(lines.join('\n')).not.toContain('…');
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40);
      // A word wider than the column is broken between its characters: still every character, in order.
      expect(namesOf(lines).map((name) => name.replace(/ /g, ''))).toEqual(search.data.map((row) => row.fullName.replace(/ /g, '')));
      expect(namesOf(lines)[1]).toBe(search.data[1]!.fullName);
      // Continuation lines are blank in the other columns and start under the name, whatever the script.
      for (const line of lines.filter((text) => text.startsWith(' '))) expect(line.slice(0, indent).trim()).toBe('');
      expect(lines.at(-1)).toBe(`tan-wei-01${' '.repeat(indent - 10)}Tan Wei`);
    });

    test('where the name fits beside the id it is one line, as before', async () => {
      const { lines } = await terminal(search, { width: 80 });
      expect(lines).toHaveLength(4);
      expect(lines[1]).toMatch(/^agnieszka-kowalczyk-21fa {2}Agnieszka Maria Kowalczyk-Wiśniewska {2}Poland$/);
    });

    test('the other cells stay on the row\'s first line; a number column beside the wrapped one is blank below', async () => {
      const view = {
        data: [{ personHash: 'agnieszka-kowalczyk-21fa', fullName: 'Agnieszka Kowalczyk', mentions: new LosslessNumber('98765') }],
        fields: ['personHash', 'fullName', 'mentions'],
        keep: ['personHash', 'mentions'],
      };
      const { lines } = await terminal(view, { width: 45 });
      expect(lines).toEqual([
        'PERSON HASH               NAME       MENTIONS',
        'agnieszka-kowalczyk-21fa  Agnieszka     98765',
        '                          Kowalczyk',
      ]);
    });

    test('piped, the row is one tab-separated line, nothing wrapped', async () => {
      const text = await render(search, { format: 'table', isTTY: false, width: 40 });
      expect(text.split('\n')[1]).toBe('agnieszka-kowalczyk-21fa\tAgnieszka Maria Kowalczyk-Wiśniewska\tPoland');
    });
  });

  test('control characters in data never reach the terminal', async () => {
    const view = { data: [{ a: 'red\x1b[31m\nnext' }], fields: ['a'] };
    const text = await render(view, { format: 'table', isTTY: true, width: 80 });
    expect(text).not.toContain('\x1b');
    expect(text).toContain('red\uFFFD[31m next');
  });
});

describe('fitColumns', () => {
  const column = (kind: ColumnLayout['kind'], natural: number, kept = false): ColumnLayout => ({ kind, natural, kept });

  test('a name is shortened (to 12 cells at least) before a number is hidden', () => {
    const columns = [column('rank', 2, true), column('name', 30), column('identifier', 6, true), column('number', 8, true), column('number', 9), column('number', 9)];
    expect(fitColumns(columns, 60)).toEqual({ shown: [0, 1, 2, 3, 4, 5], widths: [2, 16, 6, 8, 9, 9] });
    expect(fitColumns(columns, 50)).toEqual({ shown: [0, 1, 2, 3, 4], widths: [2, 17, 6, 8, 9] });
  });

  test('a name keeps as many cells as the widest id beside it: a lesser number is hidden first (people top at 80)', () => {
    const columns = [column('rank', 2, true), column('name', 30), column('identifier', 25, true), column('number', 8, true), column('number', 9), column('number', 9)];
    expect(fitColumns(columns, 80)).toEqual({ shown: [0, 1, 2, 3, 4], widths: [2, 28, 25, 8, 9] });
    expect(fitColumns(columns, 70)).toEqual({ shown: [0, 1, 2, 3], widths: [2, 29, 25, 8] });
  });

  describe('an id kept for its kind alone gives way to a more important name', () => {
    const yielding = (natural: number): ColumnLayout => ({ kind: 'identifier', natural, kept: true, givesWayToWords: true });
    // people top: rank, fullName, personHash, the sorted-by metric, then lesser numbers.
    const top = [column('rank', 2, true), column('name', 20), yielding(25), column('number', 8, true), column('number', 9), column('number', 9)];

    test('at 40 columns the name is shown whole and the hash is hidden, not the name', () => {
      expect(fitColumns(top, 40)).toEqual({ shown: [0, 1, 3], widths: [2, 20, 8] });
    });

    test('at 50 columns a lesser column hidden before comes back beside the name, which stays whole', () => {
      expect(fitColumns(top, 50)).toEqual({ shown: [0, 1, 3, 4], widths: [2, 20, 8, 9] });
    });

    test('where the name fits at the id\'s width, the id stays (80 columns)', () => {
      expect(fitColumns(top, 80)).toEqual({ shown: [0, 1, 2, 3, 4], widths: [2, 20, 25, 8, 9] });
    });

    test('an id more important than the name does not give way (people search): the last name, narrower than the id, wraps', () => {
      const search = [yielding(25), column('name', 20), column('name', 20), column('date', 10)];
      expect(fitColumns(search, 40)).toEqual({ shown: [0, 1], widths: [25, 13], wrapped: [1] });
    });

    test('a name narrower than an id that gave way to it wraps too (people movers at 40)', () => {
      const movers = [column('rank', 2, true), column('rank', 11, true), column('name', 20), yielding(25), column('number', 8, true)];
      expect(fitColumns(movers, 40)).toEqual({ shown: [0, 1, 2, 4], widths: [2, 11, 13, 8], wrapped: [2] });
    });
  });

  test('a name cut to no less than the widest id, or beside no id, is cut with …, not wrapped', () => {
    expect(fitColumns([column('rank', 2, true), column('name', 30), column('identifier', 6, true), column('number', 8, true)], 30).wrapped).toBeUndefined();
    expect(fitColumns([column('rank', 2, true), column('name', 30), column('number', 8, true)], 20).wrapped).toBeUndefined();
  });

  test('a URL narrower than the id beside it is cut as a hyperlink, never wrapped', () => {
    expect(fitColumns([column('identifier', 25, true), column('url', 60)], 40)).toEqual({ shown: [0, 1], widths: [25, 13] });
  });

  test('a title beside a 19-digit hash is not cut to 10 cells while a less important column is shown (people links at 80)', () => {
    const columns = [column('date', 10), column('identifier', 19, true), column('text', 60), column('name', 20), column('identifier', 3, true), column('number', 9)];
    const { shown, widths } = fitColumns(columns, 80);
    const title = widths[shown.indexOf(2)]!;
    expect(title).toBeGreaterThanOrEqual(19);
    expect(shown).not.toContain(5);
  });

  test('kept columns are never hidden: the name shrinks (wrapping, below the id\'s width) to 4 cells, then it goes', () => {
    const columns = [column('rank', 2, true), column('name', 30), column('identifier', 23, true), column('number', 8, true), column('number', 9)];
    expect(fitColumns(columns, 50)).toEqual({ shown: [0, 1, 2, 3], widths: [2, 11, 23, 8], wrapped: [1] });
    expect(fitColumns(columns, 40)).toEqual({ shown: [0, 2, 3], widths: [2, 23, 8] });
  });

  test('room left over goes to names first, then text', () => {
    expect(fitColumns([column('text', 60), column('name', 30), column('number', 5)], 70)).toEqual({ shown: [0, 1, 2], widths: [31, 30, 5] });
  });

  test('a column that may not be cut keeps its width even when nothing else fits', () => {
    expect(fitColumns([column('identifier', 50, true), column('number', 5)], 40)).toEqual({ shown: [0], widths: [50] });
  });
});

describe('table off a terminal', () => {
  test('tab-separated with a header, nothing cut, no colour, no borders', async () => {
    const text = await render(longNames, { format: 'table', isTTY: false, width: 20, color: true });
    expect(text).toBe([
      'rank\tfullName\tcountryName\tmentions',
      '1\t習近平 国家主席 中華人民共和国\tPeople’s Republic of China\t98765',
      '2\tAlexandria Ocasio-Cortez of New York\tUnited States of America\t5',
      '3\t문재인\t대한민국\t123',
      '',
    ].join('\n'));
  });

  test('--no-header and --fields', async () => {
    expect(await render(longNames, { format: 'table', header: false, fields: ['mentions', 'rank'] })).toBe('98765\t1\n5\t2\n123\t3\n');
  });

  test('a single view prints field<TAB>value lines', async () => {
    const view = { data: { a: 'x', b: null }, fields: ['a', 'b'], single: true };
    expect(await render(view, { format: 'table' })).toBe('a\tx\nb\t\n');
  });
});

describe('capColumnWidths', () => {
  test('returns the natural widths when they fit', () => {
    expect(capColumnWidths([3, 10, 5], [3, 3, 3], 18)).toEqual([3, 10, 5]);
  });

  test('shrinks the widest first and uses all the room', () => {
    expect(capColumnWidths([3, 30, 20], [3, 3, 3], 30)).toEqual([3, 14, 13]);
  });

  test('never goes below a floor', () => {
    expect(capColumnWidths([19, 30], [19, 3], 25)).toEqual([19, 6]);
    expect(capColumnWidths([19, 30], [19, 3], 21)).toBeUndefined();
  });
});

describe('sparkline', () => {
  test('unicode ramp from the lowest to the highest value', () => {
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7], true)).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([10, 20, 10], true)).toBe('▁█▁');
  });

  test('ASCII ramp', () => {
    expect(sparkline([0, 7, 3.5], false)).toBe('_#=');
  });

  test('equal values sit mid-height; gaps are spaces; empty is empty', () => {
    expect(sparkline([5, 5], true)).toBe('▄▄');
    expect(sparkline([1, Number.NaN, 2], true)).toBe('▁ █');
    expect(sparkline([], true)).toBe('');
  });
});
