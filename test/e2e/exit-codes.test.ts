/**
 * Every exit code the CLI promises (docs/design.md), each with its one stderr line, an empty stdout
 * and no stack trace; and every bound of the contract, refused before any request.
 *
 * "Before any request" is proved with sandboxes that log every request: the one the usage errors
 * run against must end with an empty log.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import {
  type CliResult, expectFailure, expectSuccess, rawJson, readLog, runCli, sandbox, sandboxEnv, spawnCli, stderrLines, tcpPassThrough, tempDir,
} from './harness.js';

const logDir = tempDir('newsstats-e2e-exit-');
/** Answers only the runs that should reach it. */
let server: RunningSandbox;
/** Must never be asked anything: usage errors run against it. */
let quiet: RunningSandbox;
const quietLog = join(logDir, 'quiet.log');

beforeAll(async () => {
  [server, quiet] = await Promise.all([sandbox(), sandbox({ logFile: quietLog })]);
});
afterAll(async () => {
  await Promise.all([server?.close(), quiet?.close()]);
});

const run = (args: string[], extra: Record<string, string | undefined> = {}) => runCli(args, { env: sandboxEnv(server, extra) });
const runQuiet = (args: string[]) => runCli(args, { env: sandboxEnv(quiet) });

describe.concurrent('exit 0', () => {
  test('a successful run exits 0 with the data on stdout and nothing on stderr', async () => {
    const result = await run(['weeks', '-f', 'json']);
    expect(result).toEqual({ code: 0, signal: null, stdout: '{\n  "currentWeek": 202647,\n  "last4StartWeek": 202644\n}\n', stderr: '' });
  });
});

describe('exit 2: usage errors, before any request', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['search --limit 0', ['people', 'search', 'x', '--limit', '0'], /^error: option '--limit <n>' argument '0' is invalid\. --limit takes an integer from 1 to 100\.$/],
    ['--weeks 202553 (2025 has 52 weeks)', ['people', 'top', '--weeks', '202553'], /^error: .*'202553' is invalid\. 202553 is not an ISO week: 2025 has weeks 202501 to 202552\.$/],
    ['--weeks 202600', ['people', 'top', '--weeks', '202600'], /^error: .*202600 is not an ISO week: 2026 has weeks 202601 to 202653/],
    ['reversed --weeks range', ['people', 'top', '--weeks', '202647..202640'], /^error: .*202647\.\.202640.*reversed/],
    ['--start after --end', ['people', 'top', '--start', '202647', '--end', '202640'], /^error: .*202647.*202640/],
    ['--start without --end', ['people', 'top', '--start', '202640'], /^error: --start and --end go together$/],
    ['--min-age above --max-age', ['people', 'top', '--min-age', '50', '--max-age', '30'], /^error: --min-age 50 is above --max-age 30$/],
    ['search without a query', ['people', 'search'], /^error: people search needs a query, --hash or --name$/],
    ['a non-numeric source id', ['sources', 'get', '17abc'], /^error: <sourceId> takes a positive integer id \(got "17abc"\)$/],
    ['--days with --all-time', ['articles', 'stats', '--days', '7', '--all-time'], /^error: .*(--days|--all-time).*(--days|--all-time)/],
    ['an unknown command', ['people', 'frobnicate'], /^error: .*frobnicate/],
    ['an unknown --sort value', ['people', 'top', '--sort', 'fame'], /^error: .*'fame' is invalid.*mentions, dominance/],
    // Columns that the flags remove are unknown to --fields before the request, not after it.
    ['--fields articleTitle with --no-context', ['people', 'links', 'p1', '--no-context', '--fields', 'articleTitle'], /^error: .*"articleTitle"/],
    ['--fields sourceName with --no-source-context', ['articles', 'recent', '--no-source-context', '--fields', 'sourceName'], /^error: .*"sourceName"/],
    ['--fields days with --all-time', ['articles', 'stats', '--all-time', '--fields', 'days'], /^error: .*"days"/],
    ['--fields articleTitle with export links --no-context', ['export', 'links', '--no-context', '--fields', 'articleTitle'], /^error: .*"articleTitle"/],
    // Verbs that print text or nothing refuse the flags that shape records, instead of ignoring them.
    ['config path -o', ['config', 'path', '-o', 'out.txt'], /^error: `newsstats config path` prints text: --output does not apply$/],
    ['cache path -f csv', ['cache', 'path', '-f', 'csv'], /^error: `newsstats cache path` prints text: --format does not apply$/],
    ['completion bash --fields', ['completion', 'bash', '--fields', 'x'], /^error: `newsstats completion` prints text: --fields does not apply$/],
    ['help weeks --no-header', ['help', 'weeks', '--no-header'], /^error: `newsstats help` prints text: --no-header does not apply$/],
    ['config unset -o', ['config', 'unset', 'timeout', '-o', 'out.txt', '-f', 'json'], /^error: `newsstats config unset` prints nothing on stdout: --output, --format do not apply$/],
  ];

  test.concurrent.each(cases)('%s', async (_name, args, message) => {
    expectFailure(await runQuiet(args), 2, message);
  });

  test.concurrent('a missing person hash says where to find one, with the flags that chose the service', async () => {
    const result = await runQuiet(['--sandbox', 'people', 'get']);
    expectFailure(result, 2, /^error: missing required argument 'personHash'$/);
    expect(stderrLines(result).slice(1)).toEqual(["hint: find a person's hash with `newsstats --sandbox people search NAME` (the personHash column)"]);
  });

  test.concurrent.each([
    ['--start', ['--start', '202645']],
    ['--end', ['--end', '202645']],
  ])('a lone %s is answered with a hint naming no week but the one given (none after the current week)', async (_name, flags) => {
    const result = await runQuiet(['people', 'top', ...flags]);
    expectFailure(result, 2, /^error: --start and --end go together$/);
    const hint = stderrLines(result).slice(1).join('\n');
    expect(hint).toMatch(/^hint: /);
    expect(hint.match(/\d{6}/g)?.every((week) => week === '202645')).toBe(true);
  });

  test.concurrent('an unknown field in --fields lists the valid fields', async () => {
    const line = expectFailure(await runQuiet(['people', 'list', '--fields', 'fullName,nope']), 2, /"nope"/);
    expect(line).toMatch(/personHash, fullName, description, gender, category, countryId, countryName, birthDate, createdAt, updatedAt/);
  });

  test.concurrent('--format chart with stdout not a terminal', async () => {
    const result = await runQuiet(['people', 'top', '--format', 'chart']);
    expectFailure(result, 2, 'error: --format chart draws on a terminal only');
    expect(stderrLines(result).slice(1)).toEqual(['hint: use --format table or --format csv for files and pipes']);
  });

  test.concurrent('the server\'s 400 (api people/search) shows the problem title and traceId', async () => {
    const result = await run(['api', 'people/search']);
    const line = expectFailure(result, 2);
    expect(line).toContain('people search needs at least one of q, personHash, fullName');
    expect(line).toMatch(/traceId 00-[0-9a-f]{32}-[0-9a-f]{16}-00/);
  });

  test('the usage errors above sent nothing to the service', async () => {
    // Runs after the concurrent tests above (vitest runs a describe's tests in order, awaiting
    // the concurrent batch); the positive control shows the log does record requests.
    // The sandbox runs in this process: readLog has every line it logged, with no wait.
    expect(await readLog(quietLog)).toEqual([]);
  });
});

describe.concurrent('exit 3: no key, or a key the service rejects', () => {
  test('no key anywhere', async () => {
    const result = await run(['weeks'], { NEWSSTATS_API_KEY: undefined });
    expectFailure(result, 3, 'error: no API key for profile "default"');
    expect(stderrLines(result).slice(1)).toEqual(['hint: run `newsstats auth login`, or set NEWSSTATS_API_KEY']);
  });

  test('a wrong key (401)', async () => {
    const result = await run(['people', 'list'], { NEWSSTATS_API_KEY: 'not-the-key-1234' });
    expectFailure(result, 3, /401/);
    expect(stderrLines(result).slice(1)).toEqual(['hint: run `newsstats auth login`, or set NEWSSTATS_API_KEY']);
  });
});

describe.concurrent('exit 4: not found, naming what', () => {
  test.each<[string[], string]>([
    [['people', 'get', 'nobody-0000'], 'error: person "nobody-0000" not found'],
    [['people', 'links', 'nobody-0000'], 'nobody-0000'],
    [['people', 'countries', 'nobody-0000'], 'nobody-0000'],
    [['sources', 'get', '99999'], 'error: source 99999 not found'],
    [['sources', 'links', '99999'], '99999'],
    [['posts', 'get', 'no-such-post'], 'error: post "no-such-post" not found'],
    // Encoded as one path segment: sent raw, "../people" would reach /api/data/people and succeed.
    [['posts', 'get', '../people'], 'error: post "../people" not found'],
    [['people', 'get', 'a/b'], 'error: person "a/b" not found'],
    [['countries', 'get', '999'], 'error: country 999 not found'],
    [['countries', 'attention', '999'], '999'],
  ])('%j', async (args, message) => {
    const line = expectFailure(await run(args), 4, message);
    expect(line).toMatch(/not found/);
  });
});

describe('exit 5: the service is unavailable', () => {
  test.concurrent('a closed port, with --retries 0', async () => {
    const started = Date.now();
    const result = await run(['weeks', '--base-url', 'http://127.0.0.1:1', '--retries', '0']);
    expectFailure(result, 5, /^error: cannot reach 127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test.concurrent('every request failing (failRate 1), with --retries 1: two attempts, then 5', async () => {
    const log = join(logDir, 'failing.log');
    const failing = await sandbox({ failRate: 1, logFile: log });
    try {
      const result = await runCli(['people', 'get', 'hira-abbasi-d893', '--retries', '1'], { env: sandboxEnv(failing) });
      expectFailure(result, 5);
    } finally {
      await failing.close();
    }
    const entries = await readLog(log);
    expect(entries.map((entry) => entry.path)).toEqual(['/api/data/people/hira-abbasi-d893', '/api/data/people/hira-abbasi-d893']);
    for (const entry of entries) expect([500, 503, null]).toContain(entry.status);
  });
});

describe('exit 130: Ctrl-C during a slow request', () => {
  let slow: RunningSandbox;
  beforeAll(async () => {
    slow = await sandbox({ latencyMs: 5000 });
  });
  afterAll(async () => {
    await slow?.close();
  });

  /** Runs the CLI through a proxy and sends SIGINT shortly after it connects. */
  async function interrupt(args: string[]): Promise<{ result: CliResult; exitMs: number }> {
    const proxy = await tcpPassThrough(slow.url);
    let signalledAt = 0;
    try {
      // A process of its own: a real SIGINT and the exit status it leads to are the point.
      const result = await spawnCli(args, {
        env: sandboxEnv({ url: proxy.url, key: slow.key }),
        onSpawn: (child) => {
          void proxy.firstConnection.then(() =>
            setTimeout(() => {
              signalledAt = Date.now();
              child.kill('SIGINT');
            }, 300),
          );
        },
      });
      return { result, exitMs: Date.now() - signalledAt };
    } finally {
      await proxy.close();
    }
  }

  test.concurrent('exits 130 promptly, nothing on stdout, no stack trace', async () => {
    const { result, exitMs } = await interrupt(['people', 'top', '-f', 'json']);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 130, signal: null, stdout: '' });
    expect(result.stderr).not.toMatch(/^\s+at /m);
    // The sandbox answers after 2.5 s at the earliest: Ctrl-C must not wait for it.
    expect(exitMs).toBeLessThan(2_000);
  });

  test.concurrent('with --output, neither the target nor a temporary file is left', async () => {
    const dir = tempDir('newsstats-e2e-sigint-');
    const { result } = await interrupt(['people', 'top', '--output', join(dir, 'top.csv')]);
    expect({ code: result.code, signal: result.signal, stdout: result.stdout }).toEqual({ code: 130, signal: null, stdout: '' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('bounds: min-1 and max+1 refused before any request, min and max accepted', () => {
  const bounds: Array<{ args: string[]; flag: string; min: number; max: number; endpoint: string; param: string }> = [
    { args: ['people', 'search', 'a'], flag: '--limit', min: 1, max: 100, endpoint: '/api/data/people/search', param: 'limit' },
    { args: ['people', 'links', 'hira-abbasi-d893'], flag: '--limit', min: 1, max: 250, endpoint: '/api/data/people/hira-abbasi-d893/links', param: 'limit' },
    { args: ['posts', 'recent'], flag: '--count', min: 1, max: 50, endpoint: '/api/data/posts/recent', param: 'count' },
    { args: ['articles', 'recent'], flag: '--limit', min: 1, max: 500, endpoint: '/api/data/articles/recent', param: 'limit' },
    { args: ['articles', 'stats'], flag: '--days', min: 1, max: 365, endpoint: '/api/data/articles/stats', param: 'days' },
  ];
  const log = join(logDir, 'bounds.log');
  // The refusals get a sandbox of their own, whose log must stay empty whichever test runs first.
  const refusedLog = join(logDir, 'bounds-refused.log');
  let bounded: RunningSandbox;
  let refusing: RunningSandbox;
  beforeAll(async () => {
    [bounded, refusing] = await Promise.all([sandbox({ logFile: log }), sandbox({ logFile: refusedLog })]);
  });
  afterAll(async () => {
    await Promise.all([bounded?.close(), refusing?.close()]);
  });

  test('out of range: exit 2 naming the flag and the range, and no request', async () => {
    const runs = bounds.flatMap((bound) =>
      [bound.min - 1, bound.max + 1].map(async (value) => {
        const result = await runCli([...bound.args, bound.flag, String(value)], { env: sandboxEnv(refusing) });
        expectFailure(
          result,
          2,
          `error: option '${bound.flag} <n>' argument '${value}' is invalid. ${bound.flag} takes an integer from ${bound.min} to ${bound.max}.`,
        );
      }),
    );
    // Against a dead address the run would exit 5 if it tried to connect.
    const dead = bounds.slice(0, 1).map(async (bound) => {
      const result = await runCli([...bound.args, bound.flag, String(bound.max + 1), '--base-url', 'http://127.0.0.1:1', '--retries', '0'], {
        env: sandboxEnv(refusing),
      });
      expectFailure(result, 2, `${bound.flag} takes an integer from ${bound.min} to ${bound.max}.`);
    });
    await Promise.all([...runs, ...dead]);
    expect(await readLog(refusedLog)).toEqual([]);
  });

  test('min and max: accepted and sent as given', async () => {
    const runs = bounds.flatMap((bound) =>
      [bound.min, bound.max].map(async (value) => {
        const result = await runCli([...bound.args, bound.flag, String(value), '-f', 'json'], { env: sandboxEnv(bounded) });
        const data = JSON.parse(expectSuccess(result));
        const query = bound.endpoint.replace('/api/data/', '') + `?${bound.param}=${value}` + (bound.args[1] === 'search' ? '&q=a' : '');
        expect(data).toEqual(await rawJson(bounded, query));
        return { bound, value, data };
      }),
    );
    const results = await Promise.all(runs);
    const byKey = new Map(results.map(({ bound, value, data }) => [`${bound.endpoint} ${value}`, data]));
    expect(byKey.get('/api/data/people/search 1')).toHaveLength(1);
    expect(byKey.get('/api/data/people/search 100')).toHaveLength(100);
    expect(byKey.get('/api/data/people/hira-abbasi-d893/links 1')).toHaveLength(1);
    expect(byKey.get('/api/data/posts/recent 1')).toHaveLength(1);
    expect(byKey.get('/api/data/articles/recent 1')).toHaveLength(1);
    expect(byKey.get('/api/data/articles/recent 500')).toHaveLength(500);
    expect(byKey.get('/api/data/articles/stats 365')).toMatchObject({ days: 365 });
    expect(byKey.get('/api/data/articles/stats 1')).toMatchObject({ days: 1 });

    // What the CLI sent (the raw comparisons above also hit the log: keep only the CLI's requests).
    const sent = (await readLog(log)).filter((entry) => entry.query[bounds.find((b) => b.endpoint === entry.path)!.param] !== undefined);
    for (const bound of bounds) {
      const values = sent.filter((entry) => entry.path === bound.endpoint).map((entry) => Number(entry.query[bound.param]));
      expect(values.sort((a, b) => a - b)).toEqual([bound.min, bound.min, bound.max, bound.max]);
    }
  });
});
