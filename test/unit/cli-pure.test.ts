import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forEachInOrder } from '../../src/api/in-order.js';
import { mapInOrder } from '../../src/cli/flags/concurrency.js';
import { matchCountry, parseCountryQuery } from '../../src/cli/flags/country-match.js';
import { slugify } from '../../src/shared/slug.js';
import { findNoun } from '../../src/cli/flags/global.js';
import { checkFields, checkOutputPath, chooseFormat } from '../../src/cli/run/output-plan.js';
import { resolveApiPath } from '../../src/api/client.js';
import { formatDuration, progressLine } from '../../src/cli/run/progress.js';
import { parseDate, parseDecimal, parseInteger } from '../../src/cli/flags/options.js';
import { resolveSettings } from '../../src/config/resolve.js';
import { maskKey, xdgDirectory } from '../../src/config/store.js';
import { cacheDirectory } from '../../src/cli/run/cache.js';
import { homedir } from 'node:os';
import { validateSetting } from '../../src/cli/commands/config.js';
import { countryStatsRows, rankedCountryStatsRows, sourceLinkRows, trendRow } from '../../src/output/rows.js';

const countries = [
  { countryId: '1', countryName: 'Germany', countryIso: 'DE' },
  { countryId: '2', countryName: "Côte d'Ivoire", countryIso: 'CI' },
  { countryId: '3', countryName: 'United Kingdom', countryIso: 'GB' },
];

describe('country arguments', () => {
  it('reads digits as an id without a lookup', () => {
    expect(parseCountryQuery(' 42 ')).toEqual({ kind: 'id', countryId: 42 });
    expect(parseCountryQuery('de')).toEqual({ kind: 'text', text: 'de' });
  });

  it('matches ISO codes, names and slugs, case-insensitively', () => {
    expect(matchCountry('de', countries)?.countryId).toBe('1');
    expect(matchCountry('germany', countries)?.countryId).toBe('1');
    expect(matchCountry('cote-d-ivoire', countries)?.countryId).toBe('2');
    expect(matchCountry('united-kingdom', countries)?.countryId).toBe('3');
    expect(matchCountry('atlantis', countries)).toBeUndefined();
  });

  it('slugifies names to ASCII words', () => {
    expect(slugify("Côte d'Ivoire")).toBe('cote-d-ivoire');
    expect(slugify('  São Tomé & Príncipe ')).toBe('sao-tome-principe');
    // Letters Unicode does not decompose (ø, æ, ł, ß) fold too; before, they split the slug ("f-royar").
    expect(slugify('Føroyar Æ Łódź Straße')).toBe('foroyar-ae-lodz-strasse');
  });
});

describe('forEachInOrder', () => {
  it('emits in input order whatever order tasks finish in, with bounded concurrency', async () => {
    const delays = [30, 5, 20, 1, 10, 2, 15, 3];
    let running = 0;
    let peak = 0;
    const emitted: number[] = [];
    await forEachInOrder(
      delays,
      3,
      async (delay, index) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((resolve) => setTimeout(resolve, delay));
        running -= 1;
        return index;
      },
      (index) => {
        emitted.push(index);
      },
    );
    expect(emitted).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(peak).toBe(3);
  });

  it('never runs further ahead than the window behind the oldest unfinished task', async () => {
    let started = 0;
    let releaseFirst!: () => void;
    const first = new Promise<void>((resolve) => (releaseFirst = resolve));
    const run = mapInOrder(
      Array.from({ length: 50 }, (_, index) => index),
      2,
      async (index) => {
        started += 1;
        if (index === 0) await first;
        return index;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(8); // window = 4 x concurrency
    releaseFirst();
    expect(await run).toHaveLength(50);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    let started = 0;
    await expect(
      mapInOrder([1, 2, 3, 4, 5, 6], 1, async (value) => {
        started += 1;
        if (value === 3) throw new Error('third failed');
        return value;
      }),
    ).rejects.toThrow('third failed');
    expect(started).toBe(3);
  });

  it('handles an empty list', async () => {
    expect(await mapInOrder([], 4, async () => 1)).toEqual([]);
  });
});

describe('findNoun', () => {
  it('skips global options and their values', () => {
    expect(findNoun(['--format', 'csv', '--sandbox', 'people', 'top'])).toBe('people');
    expect(findNoun(['-o', 'x.csv', '--fields=a,b', 'countries'])).toBe('countries');
    expect(findNoun(['--help'])).toBeUndefined();
  });
});

describe('checkFields: --fields checked once, before any request', () => {
  it('against the fields the view declares: trimmed, repeats dropped, the user\'s order kept; an unknown one refused', () => {
    expect(checkFields([' fullName', 'rank', 'rank'], { fields: ['rank', 'fullName'] })).toEqual(['fullName', 'rank']);
    expect(() => checkFields(['rank', 'nmae'], { fields: ['rank', 'fullName'] })).toThrow('unknown field "nmae" (did you mean fullName?). Valid fields: rank, fullName');
  });

  it('left to the output where the view declares none (the raw api command: only its rows can tell)', () => {
    expect(checkFields(['anything'], undefined)).toEqual(['anything']);
    expect(checkFields(['anything'], { fields: [] })).toEqual(['anything']);
    expect(checkFields(undefined, { fields: ['rank'] })).toBeUndefined();
  });
});

describe('chooseFormat', () => {
  it('prefers the flag, then the output extension, then the terminal', () => {
    expect(chooseFormat({ format: 'csv', output: 'x.json' }, { isTTY: { stdout: true } })).toBe('csv');
    expect(chooseFormat({ output: 'x.TSV' }, { isTTY: { stdout: true } })).toBe('tsv');
    expect(chooseFormat({ output: 'x.jsonl' }, { isTTY: { stdout: false } })).toBe('ndjson');
    expect(chooseFormat({ output: 'lake/x.parquet' }, { isTTY: { stdout: true } })).toBe('parquet');
    expect(() => chooseFormat({ output: 'report.txt' }, { isTTY: { stdout: true } })).toThrow(
      '--output report.txt: the extension names no format (known: .csv, .tsv, .json, .ndjson, .jsonl, .xlsx, .parquet)',
    );
    expect(chooseFormat({ output: 'report.txt', format: 'csv' }, { isTTY: { stdout: true } })).toBe('csv');
    expect(chooseFormat({}, { isTTY: { stdout: true } })).toBe('table');
    expect(chooseFormat({}, { isTTY: { stdout: false } })).toBe('json');
    // A device or FIFO has no extension to go by: it takes what a pipe would, unless --format says.
    expect(chooseFormat({ output: '/dev/null' }, { isTTY: { stdout: true } })).toBe('json');
    expect(chooseFormat({ output: '/dev/null', format: 'csv' }, { isTTY: { stdout: true } })).toBe('csv');
    expect(chooseFormat({}, { isTTY: { stdout: true } }, true)).toBe('json');
  });
});

describe('parseInteger', () => {
  it('takes whole numbers within bounds and names the flag otherwise', () => {
    expect(parseInteger('--limit', '100', { min: 1, max: 100 })).toBe(100);
    expect(() => parseInteger('--limit', '101', { min: 1, max: 100 })).toThrow('--limit takes an integer from 1 to 100.');
    expect(() => parseInteger('--limit', '1.5', { min: 1, max: 100 })).toThrow('--limit takes an integer from 1 to 100.');
    expect(() => parseInteger('--limit', '', { min: 1 })).toThrow('--limit takes an integer of at least 1.');
    // The sandbox's grammar (src/shared/numbers.ts): an explicit sign is taken, beyond 2^53 is refused.
    expect(parseInteger('--limit', '+7', { min: 1, max: 100 })).toBe(7);
    expect(() => parseInteger('--seed', '9007199254740993')).toThrow('--seed takes an integer.');
  });
});

describe('progress', () => {
  it('shows done/total, rate and ETA', () => {
    expect(progressLine(50, 200, 10, 8, false)).toBe('##------ 50/200  5.0/s  ETA 30s');
    expect(progressLine(0, 10, 0, 4, true)).toBe('░░░░ 0/10  0.0/s  ETA ?');
    expect(formatDuration(65)).toBe('1m05s');
  });
});

describe('settings resolution', () => {
  const configHome = mkdtempSync(join(tmpdir(), 'newsstats-config-'));
  mkdirSync(join(configHome, 'newsstats'));
  writeFileSync(
    join(configHome, 'newsstats', 'config.json'),
    JSON.stringify({
      profiles: {
        default: { 'base-url': 'https://profile.example', 'api-key': 'profile-key-1234', retries: '5' },
        staging: { 'base-url': 'https://staging.example', 'allow-insecure-http': 'true' },
      },
    }),
  );

  it('takes flag over environment over profile', () => {
    const env = { XDG_CONFIG_HOME: configHome };
    const fromProfile = resolveSettings({ flags: {}, env });
    expect(fromProfile).toMatchObject({ baseUrl: 'https://profile.example', sources: { apiKey: 'profile' }, retries: 5, profile: 'default' });
    const fromEnv = resolveSettings({ flags: {}, env: { ...env, NEWSSTATS_BASE_URL: 'https://env.example', NEWSSTATS_API_KEY: 'env-key' } });
    expect(fromEnv).toMatchObject({ baseUrl: 'https://env.example', apiKey: 'env-key', sources: { baseUrl: 'NEWSSTATS_BASE_URL', apiKey: 'NEWSSTATS_API_KEY' } });
    const fromFlag = resolveSettings({ flags: { baseUrl: 'https://flag.example', retries: 1 }, env: { ...env, NEWSSTATS_BASE_URL: 'https://env.example' } });
    expect(fromFlag).toMatchObject({ baseUrl: 'https://flag.example', sources: { baseUrl: '--base-url', retries: '--retries' }, retries: 1 });
  });

  it('picks the profile from --profile, then NEWSSTATS_PROFILE', () => {
    const env = { XDG_CONFIG_HOME: configHome, NEWSSTATS_PROFILE: 'staging' };
    expect(resolveSettings({ flags: {}, env })).toMatchObject({ profile: 'staging', allowInsecureHttp: true, sources: { apiKey: 'none' } });
    expect(resolveSettings({ flags: { profile: 'default' }, env }).profile).toBe('default');
  });
});

describe('config values', () => {
  it('masks keys to their last four characters', () => {
    expect(maskKey('abcdefgh12345678')).toBe('••••5678');
    expect(maskKey('short')).toBe('••••');
  });

  it('refuses the key on the command line and bad values', () => {
    expect(() => validateSetting('api-key', 'secret')).toThrow('the key is not set with config');
    expect(() => validateSetting('base-url', 'ftp://x')).toThrow('base-url must start with https://');
    expect(validateSetting('base-url', 'https://stats.example.com/')).toBe('https://stats.example.com');
    expect(() => validateSetting('retries', '-1')).toThrow('retries takes an integer from 0 to 20');
  });

  it('reads integer settings with the one integer grammar (numbers.ts), and stores them plainly', () => {
    expect(validateSetting('retries', ' 3 ')).toBe('3');
    expect(validateSetting('retries', '+20')).toBe('20');
    for (const bad of ['21', '1.5', '1e1', '0x3', '', '99999999999999999999']) {
      expect(() => validateSetting('retries', bad)).toThrow('retries takes an integer from 0 to 20');
    }
    expect(validateSetting('max-response-mb', ' 64')).toBe('64');
    for (const bad of ['0', '4097', '8.5', '-1']) {
      expect(() => validateSetting('max-response-mb', bad)).toThrow('max-response-mb takes a whole number of MiB from 1 to 4096');
    }
  });
});

describe('row shaping', () => {
  it('gives one row a link with a matched column', () => {
    const rows = sourceLinkRows({
      source: { sourceId: 7, name: 'Daily' },
      allLinks: ['https://a/1', 'https://a/2'],
      matchedLinks: ['https://a/2'],
      unmatchedLinks: ['https://a/1'],
    });
    expect(rows).toEqual([
      { sourceId: 7, sourceName: 'Daily', url: 'https://a/1', matched: false },
      { sourceId: 7, sourceName: 'Daily', url: 'https://a/2', matched: true },
    ]);
  });

  it('puts person and window first in country rows', () => {
    const rows = countryStatsRows('p-1', { startWeek: 202601, endWeek: 202604, countries: [{ countryId: 1, mentions: 3 }] });
    expect(Object.keys(rows[0]!)).toEqual(['personHash', 'startWeek', 'endWeek', 'countryId', 'mentions']);
  });

  it('leads a ranked person\'s country rows with their rank and name, then what countryStatsRows gives, keys in that order', () => {
    const stats = { startWeek: 202601, endWeek: 202601, countries: [{ countryId: 1, mentions: 3 }, { countryId: 2, mentions: 4, rank: 'the country\'s own' }] };
    const rows = rankedCountryStatsRows({ rank: 5, fullName: 'Ada', personHash: 'p-1' }, stats);
    // What the sync's country_stats Parquet and the links store were written from: the rows of countryStatsRows, led.
    const led = countryStatsRows('p-1', stats).map((row) => ({ rank: 5, fullName: 'Ada', ...row }));
    expect(rows).toEqual(led);
    expect(rows.map((row) => Object.keys(row))).toEqual(led.map((row) => Object.keys(row)));
    expect(Object.keys(rows[1]!)).toEqual(['rank', 'fullName', 'personHash', 'startWeek', 'endWeek', 'countryId', 'mentions']);
    expect(rows[1]!.rank).toBe('the country\'s own');
  });

  it('sums mentions exactly in a trend row', () => {
    const row = trendRow(202601, {
      globalDominance: 1.5,
      globalSentiment: -0.25,
      globalReach: 2,
      globalPower: 3,
      persistence: 1,
      countries: [{ mentions: '9007199254740993' }, { mentions: '1' }],
    });
    expect(row.mentions).toBe(9007199254740994n);
    expect(row.countries).toBe(2);
  });
});

describe('checkOutputPath', () => {
  const directory = mkdtempSync(join(tmpdir(), 'newsstats-out-'));

  it('accepts a new file in an existing directory', () => {
    expect(checkOutputPath(join(directory, 'top.csv'))).toBeUndefined();
  });

  it('refuses a missing directory, a directory as target, and a file as directory', () => {
    // Exit 6 (OutputWriteError) where the system cannot write; a folder as the target is a usage error.
    expect(() => checkOutputPath(join(directory, 'missing', 'top.csv'))).toThrow(expect.objectContaining({ name: 'OutputWriteError', message: expect.stringMatching(/the directory .*missing does not exist \(ENOENT\)$/) }));
    expect(() => checkOutputPath(directory)).toThrow('it is a directory');
    writeFileSync(join(directory, 'plain'), '');
    expect(() => checkOutputPath(join(directory, 'plain', 'top.csv'))).toThrow('is not a directory');
  });
});

describe('resolveApiPath', () => {
  it('maps short forms under /api/data and refuses other roots', () => {
    expect(resolveApiPath('people/top?limit=3')).toEqual({ path: '/api/data/people/top', query: { limit: ['3'] } });
    expect(resolveApiPath('/api/data/weeks/current').path).toBe('/api/data/weeks/current');
    expect(() => resolveApiPath('/api/other')).toThrow('is outside /api/data');
    expect(() => resolveApiPath('https://evil.example/api/data/people')).toThrow('not a full URL');
  });
});

describe('xdgDirectory', () => {
  it('uses the XDG variable, and the home default when it is unset or empty', () => {
    expect(xdgDirectory({ XDG_CACHE_HOME: '/x/cache' }, 'XDG_CACHE_HOME', '.cache')).toBe('/x/cache/newsstats');
    expect(xdgDirectory({ XDG_CONFIG_HOME: '' }, 'XDG_CONFIG_HOME', '.config')).toBe(join(homedir(), '.config', 'newsstats'));
    expect(cacheDirectory({})).toBe(join(homedir(), '.cache', 'newsstats'));
  });
});

describe('parseDecimal and parseDate', () => {
  it('reads plain decimals and refuses anything else, naming the flag', () => {
    expect(parseDecimal('--fail-rate', '0.25')).toBe(0.25);
    expect(parseDecimal('--latency', '100')).toBe(100);
    for (const text of ['half', '', '1e3', '.5']) {
      expect(() => parseDecimal('--fail-rate', text), text).toThrow('--fail-rate takes a number');
    }
    expect(() => parseInteger('--port', 'http')).toThrow('--port takes an integer.');
    expect(() => parseInteger('--seed', '1.5')).toThrow('--seed takes an integer.');
  });

  it('reads YYYY-MM-DD as midnight UTC and refuses other text and impossible dates', () => {
    expect(parseDate('--now', '2026-03-04').toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(parseDate('--now', '2024-02-29').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    for (const text of ['2026-02-30', '2025-02-29', '2026-13-01', '2026-3-4', 'today', '', '2026-03-04T10:00:00']) {
      expect(() => parseDate('--now', text), text).toThrow('--now takes a date written YYYY-MM-DD');
    }
  });
});
