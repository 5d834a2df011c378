/**
 * The messages around the data, end to end against a sandbox on 127.0.0.1: where output goes
 * (-o -, extensions, the "wrote N rows" line), and the messages that point the user the right way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectFailure, expectSuccess } from './cli-helpers.js';
import { runCli, tempDir, useLoggedSandbox } from './harness.js';
import { runCliInTerminal } from './workflow-helpers.js';

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
    for (const name of ['report.txt', 'report.xlsx']) {
      const result = await runCli(['people', 'top', '--weeks', 'last4', '--output', join(dir, name)], { env: logged.env });
      expectFailure(result, 2, `--output ${join(dir, name)}: the extension names no format (known: .csv, .tsv, .json, .ndjson, .jsonl)`);
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
    const shown = await runCliInTerminal(['export', 'country-stats', '--top', '3', '--weeks', 'last4', '-o', file], { env: logged.env });
    expect(shown.code).toBe(0);
    const rows = readFileSync(file, 'utf8').trimEnd().split('\n').length - 1;
    expect(rows).toBeGreaterThan(3);
    expect(shown.stdout).toContain(`wrote ${rows} rows to ${file}`);

    const quiet = await runCliInTerminal(['-q', 'people', 'top', '--weeks', 'last4', '-o', join(dir, 'top.csv')], { env: logged.env });
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain('wrote');
    const piped = await runCli(['people', 'top', '--weeks', 'last4', '-o', join(dir, 'top2.csv')], { env: logged.env });
    expect(expectSuccess(piped)).toBe('');
    expect(piped.stderr).toBe('');
  });
});
