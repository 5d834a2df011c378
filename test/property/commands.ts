/**
 * Every command that reads the API, with arguments that address something, and the formats each is
 * run in. Shared by the wild-sandbox test and the property tests, so a new command is added once.
 */
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { isolatedEnv, MemoryOutput, tempDir, BIN, REPO } from '../e2e/harness.js';

/** Identifiers the commands address (the same in every generated answer). */
export interface Addresses {
  personHash: string;
  otherPersonHash: string;
  countryId: number;
  sourceId: number;
  slug: string;
}

/** One command line per endpoint path the CLI reads, and the window flags it takes. */
export function commandLines(ids: Addresses): Record<string, string[]> {
  return {
    'weeks': ['weeks'],
    'people list': ['people', 'list'],
    'people get': ['people', 'get', ids.personHash],
    'people search': ['people', 'search', 'a'],
    'people top': ['people', 'top', '--weeks', 'last4'],
    'people top --per-week': ['people', 'top', '--weeks', '202646..202647', '--per-week', '--limit', '5'],
    'people movers': ['people', 'movers', '--weeks', 'last4', '--limit', '10', '--depth', '30'],
    'people trend': ['people', 'trend', ids.personHash, ids.otherPersonHash, '--weeks', 'last4'],
    'people links': ['people', 'links', ids.personHash, '--limit', '20'],
    'people countries': ['people', 'countries', ids.personHash, '--weeks', 'last4'],
    'countries list': ['countries', 'list'],
    'countries get': ['countries', 'get', String(ids.countryId)],
    'countries attention': ['countries', 'attention', String(ids.countryId)],
    'countries focus': ['countries', 'focus', String(ids.countryId), '--weeks', 'last4'],
    'sources list': ['sources', 'list'],
    'sources get': ['sources', 'get', String(ids.sourceId)],
    'sources links': ['sources', 'links', String(ids.sourceId)],
    'posts recent': ['posts', 'recent', '--count', '5'],
    'posts get': ['posts', 'get', ids.slug],
    'articles recent': ['articles', 'recent', '--limit', '20'],
    'articles stats': ['articles', 'stats', '--days', '7'],
    'articles stats --all-time': ['articles', 'stats', '--all-time'],
    'export country-stats': ['export', 'country-stats', '--top', '4', '--weeks', 'last4'],
    'export links': ['export', 'links', '--top', '3', '--limit', '5'],
    'api': ['api', 'people/top', '--param', 'limit=5'],
  };
}

export const FORMATS = ['json', 'ndjson', 'csv', 'tsv', 'table', 'terminal', 'xlsx'] as const;
export type Format = (typeof FORMATS)[number];

/** Text no output may hold: what a null or an unknown value turns into when a renderer forgets it. */
export const FORBIDDEN = /undefined|NaN|\[object Object\]|Invalid Date/;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The xlsx file, for format xlsx. */
  file?: string;
}

/**
 * Runs the CLI in this process against `server` in one format. `terminal` is a table on a 100-column
 * terminal (colour off, so the text is what the cells hold); `table` is a table piped.
 */
export async function runIn(server: { url: string; key: string }, args: string[], format: Format): Promise<Run> {
  const { main } = await import('../../src/cli/run/main.js');
  const stdout = new MemoryOutput();
  const stderr = new MemoryOutput();
  const terminal = format === 'terminal';
  const file = format === 'xlsx' ? join(tempDir('newsstats-prop-'), 'out.xlsx') : undefined;
  const formatArgs = terminal ? ['-f', 'table'] : file ? ['-o', file] : ['-f', format];
  const code = await main(['node', BIN, '-q', ...args, ...formatArgs], {
    stdout,
    stderr,
    stdin: Readable.from([]),
    env: isolatedEnv(tempDir(), { NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: server.key, NO_COLOR: '1' }),
    isTTY: { stdin: false, stdout: terminal, stderr: false },
    columns: 100,
    cwd: REPO,
  });
  return { code, stdout: stdout.text, stderr: stderr.text, ...(file ? { file } : {}) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A lone surrogate, as a character or as a JSON escape: text jq and other strict readers refuse. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/;

/**
 * What is wrong with a successful run's output in `format`, or [] when nothing is: it must parse
 * back with a standard reader, hold no forbidden text and no lone surrogate.
 */
export async function outputProblems(run: Run, format: Format): Promise<string[]> {
  const problems: string[] = [];
  const text = run.stdout;
  const forbidden = FORBIDDEN.exec(text);
  if (forbidden) problems.push(`"${forbidden[0]}" in ${JSON.stringify(text.slice(Math.max(0, forbidden.index - 60), forbidden.index + 30))}`);
  if (LONE_SURROGATE.test(text)) problems.push('a lone surrogate in the output');
  try {
    switch (format) {
      case 'json':
        if (LONE_SURROGATE_ESCAPE.test(text)) problems.push('a lone surrogate escaped in JSON (not I-JSON)');
        JSON.parse(text);
        break;
      case 'ndjson':
        if (LONE_SURROGATE_ESCAPE.test(text)) problems.push('a lone surrogate escaped in NDJSON (not I-JSON)');
        for (const line of text.split('\n').filter((line) => line !== '')) JSON.parse(line);
        break;
      case 'csv': {
        const { parse } = await import('csv-parse/sync');
        // Throws on a row with a different number of cells than the header.
        parse(text, { relax_column_count: false });
        break;
      }
      case 'tsv':
      case 'table': {
        const lines = text.split('\n').filter((line) => line !== '');
        const widths = new Set(lines.map((line) => line.split('\t').length));
        if (widths.size > 1) problems.push(`TSV lines with different numbers of cells: ${[...widths].join(', ')}`);
        break;
      }
      case 'xlsx': {
        const { default: ExcelJS } = await import('exceljs');
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.readFile(run.file!);
        const sheet = workbook.worksheets[0];
        if (!sheet) problems.push('no worksheet');
        sheet?.eachRow((row) => {
          for (const value of (row.values as unknown[]).slice(1)) {
            const cell = typeof value === 'object' && value !== null && !(value instanceof Date) ? JSON.stringify(value) : String(value ?? '');
            if (FORBIDDEN.test(cell)) problems.push(`xlsx cell ${JSON.stringify(cell.slice(0, 80))}`);
            if (value instanceof Date && Number.isNaN(value.getTime())) problems.push('xlsx: an invalid date');
          }
        });
        break;
      }
      case 'terminal':
        // A null field is shown empty; a null inside an object or a list shown as JSON is that value's text.
        if (/\bnull\b/.test(text.replace(/[[{][^\n]*/g, ''))) problems.push(`"null" shown in a terminal table: ${JSON.stringify(text.slice(0, 200))}`);
        break;
    }
  } catch (error) {
    problems.push(`does not parse back as ${format}: ${(error as Error).message.slice(0, 200)}`);
  }
  return problems;
}
