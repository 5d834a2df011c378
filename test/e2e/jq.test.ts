/**
 * --jq: jq's language run inside newsstats over the exact JSON, so ids above 2^53 keep every digit,
 * where the machine's jq 1.6 rounds them (the reason the flag exists). Expression errors are usage
 * errors before any request.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { articleHashes, countPath, expectFailure, expectSuccess, logOf, rawGet, runCli, tempDir, useLoggedSandbox } from './harness.js';

const logged = useLoggedSandbox();
const run = (args: string[]) => runCli(args, { env: logged.env });

/** The machine's jq (1.6 on Debian-based systems), as a README reader would pipe into it. */
function externalJq(input: string, expression: string): string {
  return execFileSync('jq', ['-r', expression], { input, encoding: 'utf8' });
}

describe.concurrent('--jq', () => {
  test('--jq \'.[].articleHash\' prints every digit, where jq 1.6 on the pipe rounds them', async () => {
    const [result, raw] = await Promise.all([
      run(['people', 'links', 'hira-abbasi-d893', '--limit', '50', '--jq', '.[].articleHash']),
      rawGet(logged.server, 'people/hira-abbasi-d893/links?limit=50'),
    ]);
    const expected = articleHashes(raw.text);
    expect(expectSuccess(result)).toBe(expected.map((hash) => `${hash}\n`).join(''));
    const piped = await run(['people', 'links', 'hira-abbasi-d893', '--limit', '50']);
    const rounded = externalJq(piped.stdout, '.[].articleHash').trim().split('\n');
    // What the README warns about: the external jq changes some of them.
    expect(rounded.filter((hash, index) => hash !== expected[index]).length).toBeGreaterThan(0);
  });

  test('strings print raw and other values as compact JSON, one result a line, like gh --jq', async () => {
    const stdout = expectSuccess(await run(['people', 'top', '--limit', '2', '--jq', '.[] | .fullName, {rank}']));
    const json = JSON.parse(expectSuccess(await run(['people', 'top', '--limit', '2', '-f', 'json']))) as Array<{ fullName: string; rank: number }>;
    expect(stdout).toBe(json.map((row) => `${row.fullName}\n{"rank":${row.rank}}\n`).join(''));
  });

  test('the same results as jq -r over the JSON, for a README recipe', async () => {
    const expression = '.[] | select(.sentiment < 0) | "\\(.rank)\\t\\(.fullName)"';
    const json = expectSuccess(await run(['people', 'top', '--weeks', 'last4', '--limit', '50']));
    const built = expectSuccess(await run(['people', 'top', '--weeks', 'last4', '--limit', '50', '--jq', expression]));
    expect(built).not.toBe('');
    expect(built).toBe(externalJq(json, expression));
  });

  test('--fields applies first; -o writes the filtered text to the file', async () => {
    const path = join(tempDir(), 'names.txt');
    expectSuccess(await run(['people', 'top', '--limit', '3', '--fields', 'rank', '--jq', '.[] | keys[]', '-o', path]));
    expect(readFileSync(path, 'utf8')).toBe('rank\nrank\nrank\n');
  });

  test('an export streamed page by page is filtered as a whole', async () => {
    const args = ['export', 'links', '--top', '2', '--limit', '3'];
    const rows = JSON.parse(expectSuccess(await run([...args, '-f', 'json']))) as unknown[];
    // Both people's links: one array of every row, not a length per page or per person.
    expect(rows.length).toBeGreaterThan(3);
    expect(expectSuccess(await run([...args, '--jq', 'length']))).toBe(`${rows.length}\n`);
  });

  test('an expression that does not compile: exit 2 naming the column, before any request', async () => {
    const { result, entries } = await logOf(logged.log, () => run(['people', 'search', 'Hira', '--jq', '.[] | .fullName(']));
    expectFailure(result, 2, /^error: --jq at column 16: syntax error: unexpected "\(" \(expected the end of the expression\)$/);
    // The tests beside it run at the same time: only this one asks for a search.
    expect(countPath(entries, /search/)).toBe(0);
  });

  test('an error on the data is exit 2 in jq\'s words, nothing on stdout', async () => {
    expectFailure(await run(['people', 'top', '--limit', '1', '--jq', '.[] | .rank | .[]']), 2, 'error: --jq: Cannot iterate over number (1)');
  });

  test('--jq takes json only, and no verb that prints text', async () => {
    expectFailure(await run(['people', 'top', '-f', 'csv', '--jq', '.']), 2, '--jq filters JSON output, not --format csv');
    expectFailure(await run(['completion', 'bash', '--jq', '.']), 2, '--jq');
  });
});
