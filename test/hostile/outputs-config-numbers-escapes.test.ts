/**
 * What a hostile machine or service cannot do: make the runtime open its inspector or change the exit
 * code through stderr, lose data through what an --output path is, block on or swell with a config
 * file, carry the key into the cache, explode a number, send an escape to the terminal, break a
 * spreadsheet (empty values: local.test.ts). Each test ran against the build before its fix
 * and failed there (NEWSSTATS_HOSTILE_BIN, see servers.ts); the fixes came from issue #21.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cacheScope } from '../../src/cli/run/cache.js';
import { parse as parseCsv } from 'csv-parse/sync';
import { expectSuccess, isolatedEnv, tempDir } from '../e2e/harness.js';
import { COUNTRIES, HOSTILE_BIN, KEY, WEEK_INFO, hang, hostileServer, json, ranked, run, runProcess, type HostileServer, type Route } from './servers.js';

const routes: Record<string, Route> = {
  '/api/data/weeks/current': json(WEEK_INFO),
  '/api/data/countries': json(COUNTRIES),
  '/api/data/people/top': json(ranked(3)),
  '/api/data/people/p1/links': json([]),
  '/api/data/people/p2/links': hang,
};
let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer(routes);
});
afterAll(() => server.close());

const env = (extra: Record<string, string> = {}) => ({ NEWSSTATS_BASE_URL: server.url, NEWSSTATS_API_KEY: KEY, ...extra });

/**
 * A function resolving once the server sees a request for `path` after this call (so the CLI is past
 * its start-up, or waiting on that request).
 */
function requestSeen(path: string): () => Promise<void> {
  const from = server.requests.length;
  return async () => {
    while (!server.requests.slice(from).some((request) => request.split('?')[0] === path)) await new Promise((resolve) => setTimeout(resolve, 20));
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI with stdio as given (fds or 'pipe'); stdout and stderr collected where they are pipes. */
function runWithStdio(args: string[], stdio: Array<number | 'pipe' | 'ignore'>, extraEnv: Record<string, string> = {}): Promise<RawResult> {
  const child = spawn(process.execPath, [HOSTILE_BIN, ...args], { env: isolatedEnv(tempDir('newsstats-hostile-'), env(extraEnv)), stdio: stdio as never });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(killer);
    resolve({ code, signal, stdout, stderr });
  }));
}

describe('the runtime: a signal cannot open the inspector, stderr cannot change the exit code', () => {
  // A process: a signal to the real process, and Node's own handling of it.
  test('SIGUSR1 does not open Node\'s inspector (it would listen on 9229 and run anyone\'s code)', async () => {
    const seen = requestSeen('/api/data/people/p2/links');
    const result = await runProcess(['people', 'links', 'p2', '--timeout', '1', '--retries', '0', '-f', 'json'], {
      env: env(),
      onSpawn: (child) => void seen().then(() => child.kill('SIGUSR1')),
    });
    expect(result.stderr).not.toMatch(/Debugger listening/);
    expect(result.signal).toBeNull();
    // The run went on to its own end: the request timed out.
    expect(result.code).toBe(5);
  });

  // A process: the real process's stderr descriptor is the device.
  test.skipIf(!existsSync('/dev/full'))('stderr on /dev/full: the data is written and the exit code is 0', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = await runWithStdio(['countries', 'list', '-f', 'json', '--no-cache', '--verbose'], ['ignore', 'pipe', full]);
      expect(JSON.parse(result.stdout)).toEqual(COUNTRIES);
      expect(result.code).toBe(0);
    } finally {
      closeSync(full);
    }
  });

  // A process: the real process's stderr is a pipe its reader closed.
  test('a closed stderr pipe: the data is written and the exit code is 0', async () => {
    const child = spawn(process.execPath, [HOSTILE_BIN, 'countries', 'list', '-f', 'json', '--no-cache', '--verbose'], {
      env: isolatedEnv(tempDir('newsstats-hostile-'), env()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Nobody reads stderr: its first write meets a closed pipe (EPIPE).
    child.stderr.destroy();
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    expect(JSON.parse(stdout)).toEqual(COUNTRIES);
    expect(code).toBe(0);
  });
});

/** A writable folder under /dev/shm for this test, when the machine has one. */
function shmDir(): string | undefined {
  try {
    accessSync('/dev/shm', constants.W_OK);
  } catch {
    return undefined;
  }
  const dir = join('/dev/shm', `newsstats-hostile-${process.pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(dir);
  return dir;
}

describe('what --output is decided by what the path is', () => {
  test('-o FIFO with no reader ends on SIGTERM (143), the FIFO still a FIFO', async () => {
    const dir = tempDir('newsstats-fifo-');
    const fifo = join(dir, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const seen = requestSeen('/api/data/countries');
    // A process: SIGTERM ends it (an in-process run blocked opening the FIFO could not be stopped).
    const result = await runProcess(['countries', 'list', '--no-cache', '-q', '-o', fifo], {
      env: env(),
      // The answer arrives at once; give the CLI a moment to be waiting for a reader, then stop it.
      onSpawn: (child) => void seen().then(() => sleep(500)).then(() => child.kill('SIGTERM')),
      timeoutMs: 30_000,
    });
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 143, signal: null });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir)).toEqual(['pipe']);
  });

  const shm = shmDir();
  afterAll(() => {
    if (shm) rmSync(shm, { recursive: true, force: true });
  });
  test.skipIf(shm === undefined)('-o /dev/shm/x.csv is a regular file: CSV by its extension, written atomically', async () => {
    // A folder of its own: the next test writes links.csv beside, in whichever order they run.
    const folder = join(shm!, 'regular');
    mkdirSync(folder);
    const target = join(folder, 'x.csv');
    writeFileSync(target, 'precious\n');
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', target], { env: env() });
    expectSuccess(result);
    expect(readFileSync(target, 'utf8')).toBe('countryId,countryName,countryIso\n18,Germany,DE\n26,Japan,JP\n');
    expect(readdirSync(folder)).toEqual(['x.csv']);
  });

  test.skipIf(shm === undefined)('an interrupted export to /dev/shm/x.csv leaves the old file as it was', async () => {
    const target = join(shm!, 'links.csv');
    writeFileSync(target, 'precious\n');
    const seen = requestSeen('/api/data/people/p2/links');
    // A process: interrupted by SIGTERM.
    const result = await runProcess(['export', 'links', '--top', '2', '--concurrency', '1', '--timeout', '10', '-q', '-o', target], {
      env: env(),
      onSpawn: (child) => void seen().then(() => child.kill('SIGTERM')),
    });
    expect(result.code).toBe(143);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    expect(readdirSync(shm!).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  test('-o /proc/self/cwd/x.csv is the working directory\'s x.csv, written atomically as CSV', async () => {
    const dir = tempDir('newsstats-cwd-');
    writeFileSync(join(dir, 'x.csv'), 'precious\n');
    const seen = requestSeen('/api/data/people/p2/links');
    // Processes: interrupted by SIGTERM, and /proc/self/cwd is the real process's working directory.
    const interrupted = await runProcess(['export', 'links', '--top', '2', '--concurrency', '1', '--timeout', '10', '-q', '-o', '/proc/self/cwd/x.csv'], {
      env: env(),
      cwd: dir,
      onSpawn: (child) => void seen().then(() => child.kill('SIGTERM')),
    });
    expect(interrupted.code).toBe(143);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toBe('precious\n');
    const result = await runProcess(['countries', 'list', '--no-cache', '-q', '-o', '/proc/self/cwd/x.csv'], { env: env(), cwd: dir });
    expectSuccess(result);
    expect(readFileSync(join(dir, 'x.csv'), 'utf8')).toMatch(/^countryId,countryName,countryIso\n/);
    expect(readdirSync(dir)).toEqual(['x.csv']);
  });

  test('-o to a dangling symlink writes the file it points at; the link stays a link', async () => {
    const dir = tempDir('newsstats-link-');
    symlinkSync('target.csv', join(dir, 'link.csv'));
    const result = await run(['countries', 'list', '--no-cache', '-q', '-o', join(dir, 'link.csv')], { env: env() });
    expectSuccess(result);
    expect(lstatSync(join(dir, 'link.csv')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'target.csv'), 'utf8')).toMatch(/^countryId,countryName,countryIso\n18,Germany,DE\n/);
  });

  test('-o dir/ (a trailing slash: a folder, existing or not) is refused with exit 2, and nothing is written', async () => {
    const dir = tempDir('newsstats-slash-');
    const result = await run(['countries', 'list', '--no-cache', '-f', 'csv', '-o', 'out/'], { env: env(), cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot write --output out\/: it names a folder/m);
    expect(readdirSync(dir)).toEqual([]);
  });
});

const isRoot = process.getuid?.() === 0;

/** A home whose config folder exists (0700) and holds `plant(path)` at config.json. */
function homeWithConfig(plant: (path: string) => void): string {
  const home = tempDir('newsstats-home-');
  mkdirSync(join(home, 'config', 'newsstats'), { recursive: true, mode: 0o700 });
  plant(join(home, 'config', 'newsstats', 'config.json'));
  return home;
}

describe('the config file is read without blocking and within a bound', () => {
  test('a FIFO planted as config.json: exit 2 naming it, at once (no writer ever comes)', async () => {
    const home = homeWithConfig((path) => expect(spawnSync('mkfifo', [path]).status).toBe(0));
    // A process: a regression blocks in open() for good, which only killing a process ends.
    const result = await runProcess(['countries', 'list', '--no-cache', '-f', 'json'], { home, env: env(), timeoutMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the config file .*config\.json is a FIFO; it must be a regular file/m);
  });

  test('config.json linked to /dev/zero: exit 2 naming it, memory never grows', async () => {
    const home = homeWithConfig((path) => symlinkSync('/dev/zero', path));
    // A process: a regression reads without end, which must not exhaust the test runner's memory.
    const result = await runProcess(['countries', 'list', '--no-cache', '-f', 'json'], { home, env: env(), timeoutMs: 30_000 });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the config file .*config\.json is a device; it must be a regular file/m);
  });

  test('a config.json over 1 MiB is refused, not read', async () => {
    const home = homeWithConfig((path) => writeFileSync(path, `{"profiles":{}}${' '.repeat(1024 * 1024)}`, { mode: 0o600 }));
    const result = await run(['countries', 'list', '--no-cache', '-f', 'json'], { home, env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the config file .*config\.json is larger than 1024 KiB/m);
  });

  for (const [what, plant, message] of [
    ['[]', (path: string) => writeFileSync(path, '[]', { mode: 0o600 }), /must hold a JSON object .*not an array/],
    ['"str"', (path: string) => writeFileSync(path, '"str"', { mode: 0o600 }), /must hold a JSON object .*not a string/],
    ['a folder', (path: string) => mkdirSync(path), /is a folder; it must be a regular file/],
    ['{"profiles": {"default": 5}}', (path: string) => writeFileSync(path, '{"profiles":{"default":5}}', { mode: 0o600 }), /profile "default" must be an object/],
  ] as const) {
    test(`a config.json holding ${what} is an error (exit 2), not silently empty; config set refuses it too`, async () => {
      const home = homeWithConfig(plant);
      const result = await run(['countries', 'list', '--no-cache', '-f', 'json'], { home, env: env() });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      const set = await run(['config', 'set', 'timeout', '5'], { home });
      expect(set.code).toBe(2);
      expect(set.stderr).toMatch(message);
    });
  }

  test('a config folder writable by others gets a warning (they could replace the settings)', async () => {
    const home = homeWithConfig((path) => writeFileSync(path, '{"profiles":{}}', { mode: 0o600 }));
    chmodSync(join(home, 'config', 'newsstats'), 0o777);
    const result = await run(['countries', 'list', '--no-cache', '-f', 'json'], { home, env: env() });
    expect(JSON.parse(expectSuccess(result))).toEqual(COUNTRIES);
    expect(result.stderr).toMatch(/^warning: the config folder .*newsstats is writable by group or others \(mode 777\)/m);
  });

  test('ENOTDIR: a config or cache folder under a file is one clear line (config: exit 2; cache: a note, then uncached)', async () => {
    const home = tempDir('newsstats-home-');
    writeFileSync(join(home, 'file'), '');
    const set = await run(['config', 'set', 'timeout', '5'], { home, env: { XDG_CONFIG_HOME: join(home, 'file') } });
    expect(set.code).toBe(2);
    expect(set.stderr).toBe(`error: cannot create the config folder ${join(home, 'file', 'newsstats')}: a part of the path is not a directory (ENOTDIR)\n`);
    const cached = await run(['countries', 'list', '-f', 'json'], { home, env: env({ XDG_CACHE_HOME: join(home, 'file') }) });
    expect(JSON.parse(expectSuccess(cached))).toEqual(COUNTRIES);
    // Node's recursive mkdir reports a file in the way as EEXIST or ENOTDIR, depending on the call.
    expect(cached.stderr).toMatch(/^newsstats: not using the cache: .*file\/newsstats cannot be created: (a part of the path is not a directory \(ENOTDIR\)|a file is in the way \(EEXIST\)); running uncached\n$/);
  });

  test.skipIf(!isRoot)('EROFS: config set on a read-only file system is one clear line, exit 2', async () => {
    const home = tempDir('newsstats-home-');
    mkdirSync(join(home, 'config', 'newsstats'), { recursive: true, mode: 0o700 });
    const mount = join(home, 'config');
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount]).status !== 0) return;
    try {
      mkdirSync(join(mount, 'newsstats'), { mode: 0o700 });
      expect(spawnSync('mount', ['-o', 'remount,ro', mount]).status).toBe(0);
      const set = await run(['config', 'set', 'timeout', '5'], { home });
      expect(set.code).toBe(2);
      expect(set.stderr).toMatch(/^error: cannot (create the config folder|write the config file) .*: read-only file system \(EROFS\)\n$/);
    } finally {
      spawnSync('umount', [mount]);
    }
  });
});

test('a key holding " or \\ is still kept out of the cache', async () => {
  const key = 'key-with-"quote"-and-\\backslash';
  const echoing = await hostileServer({ '/api/data/countries': json([{ countryId: 1, countryName: `Echo ${key}`, countryIso: 'EC' }]) });
  const home = tempDir('newsstats-home-');
  try {
    const result = await run(['countries', 'list', '-f', 'csv', '-q'], { home, env: { NEWSSTATS_BASE_URL: echoing.url, NEWSSTATS_API_KEY: key } });
    expect(result.code).toBe(0);
    expect(existsSync(join(home, 'cache', 'newsstats', cacheScope(echoing.url, 'default'), 'countries.json'))).toBe(false);
  } finally {
    await echoing.close();
  }
});

/** A service answering each path with the given JSON text (numbers written exactly as given). */
async function serviceWith(texts: Record<string, string>): Promise<HostileServer> {
  const routesByPath: Record<string, Route> = { '/api/data/weeks/current': json(WEEK_INFO), '/api/data/countries': json(COUNTRIES) };
  for (const [path, text] of Object.entries(texts)) routesByPath[path] = json(text);
  return hostileServer(routesByPath);
}

const rankingText = (mentionCount: string, rank = '1') =>
  `[{"rank":${rank},"personHash":"p1","fullName":"Person 1","mentionCount":${mentionCount},"dominance":0.5}]`;

describe('numbers are bounded before any arithmetic, integers are integers', () => {
  for (const mentionCount of ['1e-100000000', '1e-999999999', `1${'0'.repeat(5000)}`, '1E+400000']) {
    const shown = mentionCount.length > 30 ? `${mentionCount.slice(0, 12)}… (${mentionCount.length} characters)` : mentionCount;
    test(`mentionCount ${shown} in a ranking: movers ends at once with exit 5 naming the field`, async () => {
      const service = await serviceWith({ '/api/data/people/top': rankingText(mentionCount) });
      try {
        const result = await run(['people', 'movers', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
        expect(result.code).toBe(5);
        expect(result.stderr).toMatch(/^error: the service answered GET \/api\/data\/people\/top\?.* with an unexpected shape: field "mentionCount": the number .* is beyond the bounds newsstats accepts/m);
        expect(result.stdout).toBe('');
      } finally {
        await service.close();
      }
    }, 10_000);
  }

  test('the bound holds for a plain pass-through too (-f json), large body or small', async () => {
    const big = `[${Array.from({ length: 8000 }, (_, index) => `{"rank":${index + 1},"personHash":"p${index}","fullName":"${'x'.repeat(60)}","mentionCount":${index === 7999 ? '1e-100000000' : '5'}}`).join(',')}]`;
    expect(big.length).toBeGreaterThan(512 * 1024);
    for (const text of [rankingText('1e-100000000'), big]) {
      const service = await serviceWith({ '/api/data/people/top': text });
      try {
        const result = await run(['people', 'top', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
        expect(result.code).toBe(5);
        expect(result.stderr).toMatch(/field "mentionCount": the number 1e-100000000 is beyond the bounds/);
      } finally {
        await service.close();
      }
    }
  });

  test('numbers within the bounds still pass through exactly', async () => {
    const exact = '123456789012345678901234567890.000000000000000000000000000001e-300';
    const service = await serviceWith({ '/api/data/people/top': `[{"rank":1,"personHash":"p1","fullName":"A","mentionCount":5,"dominance":${exact}}]` });
    try {
      const result = await run(['people', 'top', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
      expect(expectSuccess(result)).toContain(`"dominance": ${exact}`);
    } finally {
      await service.close();
    }
  });

  for (const [field, value] of [['rank', '1.5'], ['rank', '1e3'], ['mentionCount', '1.5'], ['mentionCount', '1e-9999']] as const) {
    test(`${field} ${value} in a ranking: movers is exit 5 naming the field, not exit 1`, async () => {
      const text = field === 'rank' ? rankingText('5', value) : rankingText(value);
      const service = await serviceWith({ '/api/data/people/top': text });
      try {
        const result = await run(['people', 'movers', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
        expect(result.code).toBe(5);
        // 1e-9999 is beyond the exponent bound before it is no integer: either way the field is named.
        expect(result.stderr).toMatch(new RegExp(`field "${field}": (expected an integer, got ${value.replace('.', '\\.')}|the number ${value} is beyond the bounds)`));
      } finally {
        await service.close();
      }
    });
  }

  for (const mentions of ['1.5', '1e3']) {
    test(`mentions ${mentions} in a person's country statistics: trend is exit 5 naming the field`, async () => {
      const service = await serviceWith({
        '/api/data/people/p1': '{"personHash":"p1","fullName":"Person 1","countryId":18}',
        '/api/data/people/p1/country-stats': `{"startWeek":202647,"endWeek":202647,"globalDominance":0.1,"globalSentiment":0.1,"globalReach":0.1,"globalPower":0.1,"persistence":1,"countries":[{"countryId":18,"countryName":"Germany","countryIso":"DE","mentions":${mentions}}]}`,
      });
      try {
        const result = await run(['people', 'trend', 'p1', '--weeks', 'current', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
        expect(result.code).toBe(5);
        expect(result.stderr).toMatch(new RegExp(`field "mentions": expected an integer, got ${mentions.replace('.', '\\.')}`));
      } finally {
        await service.close();
      }
    });
  }

  test('a countryId of 1.5 in the countries list is the service\'s fault (exit 5), not the user\'s (exit 2)', async () => {
    const service = await hostileServer({
      '/api/data/weeks/current': json(WEEK_INFO),
      '/api/data/countries': json('[{"countryId":1.5,"countryName":"Germany","countryIso":"DE"}]'),
      '/api/data/people/top': json(ranked(1)),
    });
    try {
      const result = await run(['people', 'top', '--country', 'DE', '-f', 'json', '--no-cache'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(/GET \/api\/data\/countries with an unexpected shape: item 1: field "countryId": expected an integer, got 1\.5/);
    } finally {
      await service.close();
    }
  });
});

/** The CLI under test on a terminal (stdout and stderr merged, as on a screen), NO_COLOR so that any ESC seen is the service's. */
function onTerminal(args: string[], serviceUrl: string, columns = 100): Promise<RawResult> {
  return run(args, { env: { NEWSSTATS_BASE_URL: serviceUrl, NEWSSTATS_API_KEY: KEY, NO_COLOR: '1' }, terminal: columns });
}

const OSC_TITLE = '\u001b]0;PWNED\u0007';
const CSI_RED = '\u001b[41m';
const C1_CSI = '\u009b31m';
const RLO = '\u202e';
const HOSTILE_TEXT = `${OSC_TITLE}${CSI_RED}${C1_CSI}${RLO}x`;

/** Nothing the service wrote reaches the terminal as a control: no ESC, BEL, C1 CSI or bidi override. */
function expectNoControls(text: string): void {
  expect(text).not.toMatch(/[\u0007\u001b\u009b\u202e]/);
}

describe('nothing the service writes reaches the terminal as an escape', () => {
  let service: HostileServer;
  beforeAll(async () => {
    const rows = [1, 2].map((rank) => ({
      rank, personHash: `p${rank}`, fullName: `Person ${rank}`, mentionCount: 10,
      [`evil${HOSTILE_TEXT}`]: 'value',
      [`wide${HOSTILE_TEXT}${'w'.repeat(30)}`]: 'w'.repeat(40),
    }));
    service = await hostileServer({
      '/api/data/people/top': json(rows),
      '/api/data/countries': json([{ countryId: 1, countryName: `Evil ${HOSTILE_TEXT}`, countryIso: 'EV' }]),
    });
  });
  afterAll(() => service.close());

  test('field names in a table\'s header and in the "columns hidden" note', async () => {
    const result = await onTerminal(['api', '/api/data/people/top', '-f', 'table'], service.url, 60);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/columns? hidden at 60 columns:/);
    expectNoControls(result.stdout);
  });

  test('field names of a single record (field/value rows) and of a piped table', async () => {
    const single = await onTerminal(['api', '/api/data/people/top', '-f', 'table', '--fields', `evil${HOSTILE_TEXT}`], service.url);
    expect(single.code).toBe(0);
    expectNoControls(single.stdout);
    const piped = await run(['api', '/api/data/people/top', '-f', 'table'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
    expect(piped.code).toBe(0);
    expectNoControls(piped.stdout);
  });

  for (const format of ['csv', 'tsv']) {
    test(`-f ${format} on a terminal: cells and headers without controls`, async () => {
      for (const args of [['countries', 'list', '--no-cache', '-f', format], ['api', '/api/data/people/top', '-f', format]]) {
        const result = await onTerminal(args, service.url);
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(args[0] === 'countries' ? 'Evil ' : 'evil');
        expectNoControls(result.stdout);
      }
    });
  }

  test(`-f csv into a file or pipe keeps the service's text exactly (it is data there)`, async () => {
    const result = await run(['countries', 'list', '--no-cache', '-f', 'csv'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
    expect(expectSuccess(result)).toContain(`Evil ${HOSTILE_TEXT}`);
  });

  for (const format of ['json', 'ndjson']) {
    test(`-f ${format} escapes C1 and bidi controls as well as ESC, on a terminal and off one, and stays the same JSON`, async () => {
      const terminal = await onTerminal(['countries', 'list', '--no-cache', '-f', format], service.url);
      expect(terminal.code).toBe(0);
      expectNoControls(terminal.stdout);
      const piped = await run(['countries', 'list', '--no-cache', '-f', format], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } });
      const text = expectSuccess(piped);
      expectNoControls(text);
      expect(text).toContain('\\u009b31m\\u202ex');
      const value = format === 'json' ? JSON.parse(text) : JSON.parse(text.trim().split('\n')[0]!);
      expect(JSON.stringify(value)).toContain(JSON.stringify(`Evil ${HOSTILE_TEXT}`).slice(1, -1));
    });
  }
});

describe('spreadsheets', () => {
  test.skipIf(spawnSync('unzip', ['-v']).status !== 0)('U+FFFE, U+FFFF and C0 controls in a string still make a well-formed xlsx', async () => {
    const service = await hostileServer({ '/api/data/countries': json([{ countryId: 1, countryName: 'a\uFFFEb\uFFFFc\u0001d\u0008e', countryIso: 'X\uFFFF' }]) });
    try {
      const dir = tempDir('newsstats-xlsx-');
      const target = join(dir, 'c.xlsx');
      expectSuccess(await run(['countries', 'list', '--no-cache', '-q', '-o', target], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } }));
      const sheet = spawnSync('unzip', ['-p', target, 'xl/worksheets/sheet1.xml'], { encoding: 'utf8' }).stdout;
      expect(sheet).toContain('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
      // Characters XML 1.0 forbids, raw or as character references.
      expect(sheet).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]|&#x0*(?:[0-8bcef]|1[0-9a-f]|fffe|ffff);|&#0*(?:[0-8]|1[1-9]|2[0-9]|3[01]|65534|65535);/i);
    } finally {
      await service.close();
    }
  });

  test('the formula guard catches formulas after a ";" and after leading blanks or a line break', async () => {
    const names = ["Anna;=cmd|' /C calc'!A0", ' =1+1', '\n=1+1', 'Bob; +1', 'plain; text'];
    const service = await hostileServer({ '/api/data/countries': json(names.map((countryName, index) => ({ countryId: index + 1, countryName, countryIso: 'XX' }))) });
    try {
      for (const format of ['csv', 'tsv']) {
        const text = expectSuccess(await run(['countries', 'list', '--no-cache', '-f', format, '--fields', 'countryName', '--no-header'], { env: { NEWSSTATS_BASE_URL: service.url, NEWSSTATS_API_KEY: KEY } }));
        const cells = format === 'csv' ? parseCsv(text) as string[][] : text.trimEnd().split('\n').map((line) => [line.replaceAll('\\n', '\n')]);
        expect(cells.map((row) => row[0])).toEqual(["Anna;'=cmd|' /C calc'!A0", "' =1+1", "'\n=1+1", "Bob;' +1", 'plain; text']);
      }
    } finally {
      await service.close();
    }
  });
});
