/**
 * A digest of what the sandbox serves: every route with several parameter combinations (filters,
 * windows inside, across and outside the data, every post, the first and last people, sources and
 * countries, unknown ones), answered through the routes as the server answers them (route, query
 * parsing, model, JSON), plain and made wild. Generation is free to get faster; what it serves must
 * stay byte-identical, and fingerprint.test.ts pins the digests.
 */
import { createHash } from 'node:crypto';
import { ENDPOINT_SHAPES } from '../../src/api/types.js';
import { endpointFor } from '../../src/api/validate.js';
import { createSandboxModel } from '../../src/sandbox/data/index.js';
import { stringifyJson } from '../../src/sandbox/http/json.js';
import { readQuery } from '../../src/sandbox/http/params.js';
import { HttpProblem } from '../../src/sandbox/http/problem.js';
import { findRoute, type RouteContext } from '../../src/sandbox/http/routes.js';
import type { SandboxModel } from '../../src/sandbox/model.js';
import { wildAnswer, wildSeed } from '../../src/sandbox/wild.js';
import { addWeeks } from '../../src/shared/weeks.js';

const ROOT = '/api/data';

/** The suite's quick fingerprint asks every this-many-th request of each endpoint's in the full one. */
const QUICK_EVERY = 6;

/**
 * The request paths to fingerprint, chosen from what the model holds: 'full' (about 600 requests)
 * or 'quick' for the suite, a sixth of each endpoint's (its first among them).
 */
export function fingerprintPaths(model: SandboxModel, extent: 'full' | 'quick'): string[] {
  const paths = allPaths(model);
  if (extent === 'full') return paths;
  const seen = new Map<string, number>();
  return paths.filter((path) => {
    const endpoint = endpointFor(path.split('?')[0]!) ?? path;
    const count = seen.get(endpoint) ?? 0;
    seen.set(endpoint, count + 1);
    return count % QUICK_EVERY === 0;
  });
}

function allPaths(model: SandboxModel): string[] {
  const { currentWeek, last4StartWeek } = model.weekInfo();
  const people = model.people();
  const hashes = [0, 1, 2, 100, 239, 240, 333, people.length - 1].map((index) => people[index]!.personHash);
  const posts = model.recentPosts(50);
  const countries = model.countries();
  const sources = model.sources();
  const windows = [
    '',
    `startWeek=${currentWeek}`,
    `startWeek=${last4StartWeek}&endWeek=${addWeeks(currentWeek, -1)}`,
    `endWeek=${addWeeks(currentWeek, -10)}`,
    `startWeek=${addWeeks(currentWeek, -103)}&endWeek=${currentWeek}`,
    `startWeek=${addWeeks(currentWeek, -150)}&endWeek=${addWeeks(currentWeek, -90)}`,
    `startWeek=${addWeeks(currentWeek, -300)}&endWeek=${addWeeks(currentWeek, -200)}`,
    `startWeek=${addWeeks(currentWeek, -52)}&endWeek=${addWeeks(currentWeek, -52)}`,
  ];
  const paths = [
    '/weeks/current',
    '/people',
    '/countries',
    '/sources',
    '/sources?countryId=1',
    '/sources?countryId=17',
    '/sources?countryId=999',
    '/articles/stats/all-time',
    ...[1, 7, 30, 365].map((days) => `/articles/stats?days=${days}`),
    ...[1, 50, 500].flatMap((limit) => [`/articles/recent?limit=${limit}`, `/articles/recent?limit=${limit}&includeSourceContext=false`]),
    '/posts/recent?count=50',
    '/posts/recent',
    ...posts.map((post) => `/posts/${post.slug}`),
    '/posts/no-such-post',
    ...['a', 'ma', 'Zoë', 'ANG', 'li', 'é'].map((q) => `/people/search?q=${encodeURIComponent(q)}&limit=100`),
    `/people/search?q=${encodeURIComponent(people[5]!.fullName)}&exactName=true`,
    `/people/search?fullName=${encodeURIComponent(people[9]!.fullName.slice(0, 3))}&countryId=${people[9]!.countryId}`,
    `/people/search?personHash=${hashes[3]}`,
    '/people/search?q=a&gender=1&limit=100',
    ...windows.map((window) => `/people/top?limit=1000${window === '' ? '' : '&' + window}`),
    ...windows.map((window) => `/people/top?sortBy=dominance&limit=30${window === '' ? '' : '&' + window}`),
    '/people/top?fresh=true',
    `/people/top?fresh=true&startWeek=${addWeeks(currentWeek, -30)}`,
    '/people/top?countryId=1&limit=100',
    `/people/top?countryId=3&sortBy=dominance&startWeek=${addWeeks(currentWeek, -20)}`,
    '/people/top?fromCountryId=2&limit=100',
    '/people/top?gender=1&minAge=30&maxAge=60',
    '/people/top?gender=3',
    '/people/top?newsCategory=Sport&limit=100',
    '/people/top?newsCategory=science&countryId=5&fromCountryId=5',
    '/people/top?countryId=999',
    ...hashes.flatMap((hash) => [
      `/people/${hash}`,
      `/people/${hash}/links?limit=250`,
      `/people/${hash}/links?limit=7&includeContext=false`,
      ...windows.slice(0, 6).map((window) => `/people/${hash}/country-stats${window === '' ? '' : '?' + window}`),
    ]),
    '/people/nobody-0000',
    '/people/nobody-0000/links',
    '/people/nobody-0000/country-stats',
    ...countries.flatMap((country) => [
      `/countries/${country.countryId}`,
      `/countries/${country.countryId}/international-attention`,
      `/countries/${country.countryId}/domestic-focus`,
    ]),
    ...[1, 2, countries.length].flatMap((id) => windows.slice(1).map((window) => `/countries/${id}/domestic-focus?${window}`)),
    '/countries/0',
    `/countries/${countries.length + 1}/international-attention`,
    '/countries/slug/germany',
    '/countries/slug/no-such-country',
    ...sources.flatMap((source) => [`/sources/${source.sourceId}`, `/sources/${source.sourceId}/links`]),
    ...[1, 37, sources.length].map((id) => `/sources/${id}/links?applyFilter=false`),
    '/sources/0',
    `/sources/${sources.length + 1}/links`,
  ];
  return paths.map((path) => ROOT + path);
}

/** One answer as the server would send it: status and body text. */
export function answerFor(context: RouteContext, seed: number, path: string, wild: boolean): string {
  const [pathname, search = ''] = path.split('?') as [string, string?];
  try {
    const match = findRoute(pathname);
    if (!match) return `404 no route`;
    const resolved = match.resolve(context, readQuery(search));
    const value = resolved.produce();
    const endpoint = endpointFor(pathname);
    const sent = wild && endpoint !== undefined ? wildAnswer(value, ENDPOINT_SHAPES[endpoint], wildSeed(seed, resolved.key)) : value;
    return `200 ${stringifyJson(sent)}`;
  } catch (error) {
    if (error instanceof HttpProblem) return `${error.status} ${error.title}`;
    throw error;
  }
}

export interface Fingerprint {
  /** sha256 over every answer, plain and wild. */
  digest: string;
  /** How many requests went into it (each answered twice: plain and wild). */
  requests: number;
  /**
   * The same answers by endpoint, plain and wild apart (the first 12 hex digits of each sha256), so a
   * changed digest says where the change is: `/people/{personHash}/links wild`.
   */
  byEndpoint: Record<string, string>;
}

export function fingerprint(seed: number, now: Date, extent: 'full' | 'quick'): Fingerprint {
  const model = createSandboxModel({ seed, now });
  const context: RouteContext = { model, weekInfo: model.weekInfo() };
  const paths = fingerprintPaths(model, extent);
  const hash = createHash('sha256');
  const parts = new Map<string, ReturnType<typeof createHash>>();
  const part = (name: string) => parts.get(name) ?? parts.set(name, createHash('sha256')).get(name)!;
  for (const path of paths) {
    const plain = answerFor(context, seed, path, false);
    const wild = answerFor(context, seed, path, true);
    hash.update(`${path}\n${plain}\n${wild}\n`);
    const endpoint = (endpointFor(path.split('?')[0]!) ?? 'no endpoint').replace(ROOT, '');
    part(`${endpoint} plain`).update(`${path}\n${plain}\n`);
    part(`${endpoint} wild`).update(`${path}\n${wild}\n`);
  }
  const byEndpoint = Object.fromEntries([...parts].map(([name, partHash]) => [name, partHash.digest('hex').slice(0, 12)]));
  return { digest: hash.digest('hex'), requests: paths.length, byEndpoint };
}
