/**
 * The sandbox against the contract (shared/api-contract.md), over real HTTP on loopback:
 * every endpoint, every field's JSON type, the contract's rules 1-6, and each error status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLosslessNumber } from 'lossless-json';
import {
  articleBaseSchema,
  articleSchema,
  articleSourceContextSchema,
  articleStatsAllTimeSchema,
  articleStatsSchema,
  countrySchema,
  domesticFocusSchema,
  internationalAttentionSchema,
  personCountryRowSchema,
  personCountryStatsSchema,
  personLinkBaseSchema,
  personLinkContextSchema,
  personLinkSchema,
  personSchema,
  personStatsSchema,
  postSchema,
  problemDetailsSchema,
  sourceLinksSchema,
  sourceSchema,
  weekInfoSchema,
  BOUNDS,
} from '../../src/api/types.js';
import { addWeeks, isoWeekOf } from '../../src/shared/weeks.js';
import { createSandboxModel } from '../../src/sandbox/data/index.js';
import type { SandboxModel } from '../../src/sandbox/model.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { client, expectEachMatchesSchema, expectMatchesSchema, num, type Response } from './helpers.js';

const NOW = new Date('2026-03-04T12:00:00Z');
const SEED = 7;
const KEY = 'contract-test-key';
const CURRENT_WEEK = isoWeekOf(NOW); // 202610
const LAST4_START = addWeeks(CURRENT_WEEK, -3);

let sandbox: RunningSandbox;
let http: ReturnType<typeof client>;
const get = (path: string, options?: Parameters<typeof http.get>[1]) => http.get(path, options);

/** Real identifiers discovered from the list endpoints. */
const known = {
  personHash: '',
  otherPersonHash: '',
  countryId: 0,
  countrySlug: '',
  sourceId: 0,
  postSlug: '',
};

beforeAll(async () => {
  sandbox = await startSandbox({ seed: SEED, now: NOW, key: KEY });
  http = client(sandbox.url, KEY);
  const people = (await get('/api/data/people')).body as Array<Record<string, unknown>>;
  known.personHash = people[0]!.personHash as string;
  known.otherPersonHash = people[1]!.personHash as string;
  const countries = (await get('/api/data/countries')).body as Array<Record<string, unknown>>;
  // A plain-ASCII name, so the design record's slug rule (lower-case words joined by '-') is easy to apply.
  const plain = countries.find((country) => /^[A-Za-z]+( [A-Za-z]+)+$/.test(country.countryName as string))
    ?? countries.find((country) => /^[A-Za-z ]+$/.test(country.countryName as string))!;
  known.countryId = num(plain.countryId);
  known.countrySlug = (plain.countryName as string).toLowerCase().replace(/ +/g, '-');
  const sources = (await get('/api/data/sources')).body as Array<Record<string, unknown>>;
  known.sourceId = num(sources[0]!.sourceId);
  const posts = (await get('/api/data/posts/recent')).body as Array<Record<string, unknown>>;
  known.postSlug = posts[0]!.slug as string;
});

afterAll(async () => {
  await http?.close();
  await sandbox?.close();
});

function expectOk(response: Response): unknown {
  expect(response.status, response.text.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.body;
}

/** A problem-details body with the status, and a title that mentions `titleIncludes`. */
function expectProblem(response: Response, status: number, titleIncludes?: string | RegExp): void {
  expect(response.status, response.text).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expectMatchesSchema(response.body, problemDetailsSchema, 'problem');
  const problem = response.body as Record<string, unknown>;
  expect(num(problem.status)).toBe(status);
  expect(problem.type).toMatch(/^https:\/\/tools\.ietf\.org\/html\/rfc\d+#section-[\d.]+$/);
  expect(problem.traceId).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-00$/);
  if (titleIncludes !== undefined) {
    if (typeof titleIncludes === 'string') expect(problem.title).toContain(titleIncludes);
    else expect(problem.title).toMatch(titleIncludes);
  }
}

/** Asserts that a bounded parameter accepts min and max and rejects min-1, max+1 and non-integers. */
async function expectBounded(path: string, name: string, bound: { min: number; max: number }): Promise<void> {
  const join = path.includes('?') ? '&' : '?';
  for (const accepted of [bound.min, bound.max]) {
    expect((await get(`${path}${join}${name}=${accepted}`)).status, `${name}=${accepted}`).toBe(200);
  }
  for (const rejected of [bound.min - 1, bound.max + 1, '1.5', 'abc', '']) {
    expectProblem(await get(`${path}${join}${name}=${rejected}`), 400, `${name} must be an integer from ${bound.min} to ${bound.max}`);
  }
}

describe('weeks', () => {
  it('GET /weeks/current gives the week info of `now` and its last-4 start', async () => {
    const info = expectOk(await get('/api/data/weeks/current'));
    expectMatchesSchema(info, weekInfoSchema, 'week info');
    const { currentWeek, last4StartWeek } = info as Record<string, unknown>;
    expect(num(currentWeek)).toBe(CURRENT_WEEK);
    expect(num(last4StartWeek)).toBe(LAST4_START);
  });
});

describe('people', () => {
  it('GET /people lists persons with every field typed', async () => {
    const people = expectOk(await get('/api/data/people')) as unknown[];
    expect(people.length).toBeGreaterThan(10);
    expectEachMatchesSchema(people, personSchema, 'people');
    const hashes = people.map((person) => (person as Record<string, unknown>).personHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it('GET /people/{personHash} returns that person, and 404 for an unknown one (rule 2)', async () => {
    const person = expectOk(await get(`/api/data/people/${encodeURIComponent(known.personHash)}`));
    expectMatchesSchema(person, personSchema, 'person');
    expect((person as Record<string, unknown>).personHash).toBe(known.personHash);
    const list = (await get('/api/data/people')).body as unknown[];
    expect(person).toEqual(list[0]);
    expectProblem(await get('/api/data/people/no-such-person-xyz'), 404, 'no-such-person-xyz');
  });

  it('GET /people/search finds by q, personHash and fullName, typed, within limit', async () => {
    const person = (await get(`/api/data/people/${known.personHash}`)).body as Record<string, string>;
    const byHash = expectOk(await get(`/api/data/people/search?personHash=${encodeURIComponent(known.personHash)}`));
    expectEachMatchesSchema(byHash, personSchema, 'search by personHash');
    expect((byHash as Array<Record<string, unknown>>).map((p) => p.personHash)).toContain(known.personHash);

    const byName = expectOk(
      await get(`/api/data/people/search?fullName=${encodeURIComponent(person.fullName!)}&exactName=true`),
    ) as Array<Record<string, unknown>>;
    expect(byName.length).toBeGreaterThanOrEqual(1);
    expect(byName.every((p) => p.fullName === person.fullName)).toBe(true);

    const word = person.fullName!.split(' ')[0]!;
    const byQ = expectOk(await get(`/api/data/people/search?q=${encodeURIComponent(word)}&limit=3`)) as unknown[];
    expectEachMatchesSchema(byQ, personSchema, 'search by q');
    expect(byQ.length).toBeGreaterThanOrEqual(1);
    expect(byQ.length).toBeLessThanOrEqual(3);
  });

  it('GET /people/search with none of q, personHash, fullName is 400 (rule 1)', async () => {
    expectProblem(await get('/api/data/people/search'), 400, 'at least one of q, personHash, fullName');
    expectProblem(await get('/api/data/people/search?limit=5&countryId=1'), 400, 'at least one of q, personHash, fullName');
    // Blank counts as absent.
    expectProblem(await get('/api/data/people/search?q=&fullName=%20'), 400, 'at least one of q, personHash, fullName');
  });

  it('GET /people/search validates limit (1-100), countryId, gender and exactName', async () => {
    await expectBounded('/api/data/people/search?q=a', 'limit', BOUNDS.searchLimit);
    expectProblem(await get('/api/data/people/search?q=a&countryId=abc'), 400, 'countryId must be an integer');
    expectProblem(await get('/api/data/people/search?q=a&gender=1.5'), 400, 'gender must be an integer');
    expectProblem(await get('/api/data/people/search?q=a&exactName=yes'), 400, 'exactName must be true or false');
    for (const value of ['true', 'FALSE', '1', '0', 'True']) {
      expect((await get(`/api/data/people/search?q=a&exactName=${value}`)).status).toBe(200);
    }
  });

  it('a repeated query parameter is 400', async () => {
    expectProblem(await get('/api/data/people/search?q=a&limit=2&limit=3'), 400, 'limit is given more than once');
  });
});

describe('people/top', () => {
  it('ranks by mentions by default: every field typed, rank 1.. consecutive, mentionCount descending (rule 5)', async () => {
    const top = expectOk(await get('/api/data/people/top?limit=25')) as Array<Record<string, unknown>>;
    expect(top.length).toBeGreaterThan(1);
    expect(top.length).toBeLessThanOrEqual(25);
    expectEachMatchesSchema(top, personStatsSchema, 'top');
    expect(top.map((item) => num(item.rank))).toEqual(top.map((_, index) => index + 1));
    const mentions = top.map((item) => num(item.mentionCount));
    expect(mentions).toEqual([...mentions].sort((a, b) => b - a));
    for (const item of top) expect(item.sentimentColor).toMatch(/^#[0-9A-Fa-f]{6}$/);
    const explicit = await get('/api/data/people/top?limit=25&sortBy=mentions');
    expect(explicit.text).toBe((await get('/api/data/people/top?limit=25')).text);
  });

  it('sortBy=dominance orders by dominance, rank from 1 (rule 5)', async () => {
    const top = expectOk(await get('/api/data/people/top?limit=25&sortBy=dominance')) as Array<Record<string, unknown>>;
    expectEachMatchesSchema(top, personStatsSchema, 'top by dominance');
    expect(top.map((item) => num(item.rank))).toEqual(top.map((_, index) => index + 1));
    const dominance = top.map((item) => num(item.dominance));
    expect(dominance).toEqual([...dominance].sort((a, b) => b - a));
    expectProblem(await get('/api/data/people/top?sortBy=reach'), 400, 'sortBy must be mentions or dominance');
  });

  it('limit defaults to 50 and is bounded 1-1000', async () => {
    const top = expectOk(await get('/api/data/people/top')) as unknown[];
    expect(top.length).toBeLessThanOrEqual(50);
    const one = expectOk(await get('/api/data/people/top?limit=1')) as unknown[];
    expect(one).toHaveLength(1);
    await expectBounded('/api/data/people/top', 'limit', { min: 1, max: 1000 });
  });

  it('omitted weeks mean the last-4 window; a single-week window works (rule 6)', async () => {
    const implicit = await get('/api/data/people/top?limit=10');
    const explicit = await get(`/api/data/people/top?limit=10&startWeek=${LAST4_START}&endWeek=${CURRENT_WEEK}`);
    expect(explicit.text).toBe(implicit.text);
    const onlyEnd = await get(`/api/data/people/top?limit=10&endWeek=${CURRENT_WEEK}`);
    expect(onlyEnd.text).toBe(implicit.text);
    const onlyStart = await get(`/api/data/people/top?limit=10&startWeek=${LAST4_START}`);
    expect(onlyStart.text).toBe(implicit.text);
    const single = expectOk(
      await get(`/api/data/people/top?limit=10&startWeek=${CURRENT_WEEK}&endWeek=${CURRENT_WEEK}`),
    ) as unknown[];
    expectEachMatchesSchema(single, personStatsSchema, 'single-week top');
    const previousYear = addWeeks(CURRENT_WEEK, -52);
    expect((await get(`/api/data/people/top?startWeek=${previousYear}&endWeek=${previousYear}`)).status).toBe(200);
  });

  it('rejects malformed, impossible, reversed and future weeks', async () => {
    for (const week of ['202553', '202600', '20261', 'abc', '2026.1', '']) {
      expectProblem(await get(`/api/data/people/top?startWeek=${week}&endWeek=${CURRENT_WEEK}`), 400, 'startWeek');
      expectProblem(await get(`/api/data/people/top?endWeek=${week}`), 400, 'endWeek');
    }
    // 2026 has 53 ISO weeks, so 202653 is real (and in the future here).
    expectProblem(await get(`/api/data/people/top?startWeek=${CURRENT_WEEK}&endWeek=${LAST4_START}`), 400, 'comes after');
    expectProblem(await get(`/api/data/people/top?endWeek=${addWeeks(CURRENT_WEEK, 1)}`), 400, 'after the current week');
  });

  it('validates the other filters', async () => {
    for (const [name, bad] of [['countryId', 'abc'], ['fromCountryId', '1.5'], ['gender', 'x']] as const) {
      expectProblem(await get(`/api/data/people/top?${name}=${bad}`), 400, `${name} must be an integer`);
    }
    expectProblem(await get('/api/data/people/top?fresh=maybe'), 400, 'fresh must be true or false');
    expectProblem(await get('/api/data/people/top?minAge=-1'), 400, 'minAge must be an integer from 0 to 150');
    expectProblem(await get('/api/data/people/top?maxAge=151'), 400, 'maxAge must be an integer from 0 to 150');
    expectProblem(await get('/api/data/people/top?minAge=60&maxAge=30'), 400, 'minAge 60 is greater than maxAge 30');
    const filtered = await get(
      `/api/data/people/top?fresh=true&countryId=${known.countryId}&fromCountryId=${known.countryId}&gender=1&minAge=20&maxAge=90&newsCategory=politics&sortBy=DOMINANCE`,
    );
    expectEachMatchesSchema(expectOk(filtered), personStatsSchema, 'filtered top');
  });
});

describe('people/{personHash}/links', () => {
  it('includeContext defaults to true: every link carries the context fields (rule 3)', async () => {
    const links = expectOk(await get(`/api/data/people/${known.personHash}/links?limit=20`)) as Array<Record<string, unknown>>;
    expect(links.length).toBeGreaterThan(0);
    expect(links.length).toBeLessThanOrEqual(20);
    expectEachMatchesSchema(links, personLinkSchema, 'links');
    for (const link of links) {
      expect(link.personHash).toBe(known.personHash);
      expect((link.articlePeople as string).split(',')).toContain(known.personHash);
      expect(link.otherPeople).not.toContain(known.personHash);
      expect(link.sentimentColor).toMatch(/^#[0-9A-Fa-f]{6}$/);
    }
    const explicit = await get(`/api/data/people/${known.personHash}/links?limit=20&includeContext=true`);
    expect(explicit.text).toBe((await get(`/api/data/people/${known.personHash}/links?limit=20`)).text);
  });

  it('includeContext=false gives the base fields only', async () => {
    const links = expectOk(
      await get(`/api/data/people/${known.personHash}/links?limit=20&includeContext=false`),
    ) as Array<Record<string, unknown>>;
    expectEachMatchesSchema(links, personLinkBaseSchema, 'bare links');
    for (const link of links) {
      for (const field of Object.keys(personLinkContextSchema)) expect(link, field).not.toHaveProperty(field);
    }
  });

  it('articleHash is a bare JSON integer above 2^53, exact to the digit', async () => {
    const response = await get(`/api/data/people/${known.personHash}/links?limit=5`);
    const links = response.body as Array<Record<string, unknown>>;
    for (const link of links) {
      expect(isLosslessNumber(link.articleHash)).toBe(true);
      const digits = (link.articleHash as { value: string }).value;
      expect(BigInt(digits)).toBeGreaterThan(2n ** 53n);
      expect(response.text).toContain(`"articleHash":${digits}`);
    }
  });

  it('validates limit (1-250), includeContext, and 404s an unknown person', async () => {
    await expectBounded(`/api/data/people/${known.personHash}/links`, 'limit', BOUNDS.linksLimit);
    expectProblem(await get(`/api/data/people/${known.personHash}/links?includeContext=no`), 400, 'includeContext');
    expectProblem(await get('/api/data/people/no-such-person-xyz/links'), 404, 'no-such-person-xyz');
  });
});

describe('people/{personHash}/country-stats', () => {
  it('returns the window used and typed country rows; defaults to the last-4 window', async () => {
    const stats = expectOk(await get(`/api/data/people/${known.personHash}/country-stats`)) as Record<string, unknown>;
    expectMatchesSchema(stats, personCountryStatsSchema, 'country stats');
    expect(num(stats.startWeek)).toBe(LAST4_START);
    expect(num(stats.endWeek)).toBe(CURRENT_WEEK);
    expectEachMatchesSchema(stats.countries, personCountryRowSchema, 'country rows');
  });

  it('uses an explicit window, also a single week; rejects bad weeks; 404s an unknown person', async () => {
    const start = addWeeks(CURRENT_WEEK, -10);
    const stats = expectOk(
      await get(`/api/data/people/${known.personHash}/country-stats?startWeek=${start}&endWeek=${CURRENT_WEEK}`),
    ) as Record<string, unknown>;
    expect([num(stats.startWeek), num(stats.endWeek)]).toEqual([start, CURRENT_WEEK]);
    const single = expectOk(
      await get(`/api/data/people/${known.personHash}/country-stats?startWeek=${CURRENT_WEEK}&endWeek=${CURRENT_WEEK}`),
    ) as Record<string, unknown>;
    expect([num(single.startWeek), num(single.endWeek)]).toEqual([CURRENT_WEEK, CURRENT_WEEK]);
    expectProblem(await get(`/api/data/people/${known.personHash}/country-stats?startWeek=202553`), 400, '202553');
    expectProblem(await get(`/api/data/people/${known.personHash}/country-stats?endWeek=202600`), 400, '202600');
    expectProblem(
      await get(`/api/data/people/${known.personHash}/country-stats?startWeek=${CURRENT_WEEK}&endWeek=${start}`),
      400,
      'comes after',
    );
    expectProblem(await get('/api/data/people/no-such-person-xyz/country-stats'), 404);
  });
});

describe('countries', () => {
  it('GET /countries lists typed countries; by id and by slug return the same one', async () => {
    const countries = expectOk(await get('/api/data/countries')) as Array<Record<string, unknown>>;
    expect(countries.length).toBeGreaterThan(5);
    expectEachMatchesSchema(countries, countrySchema, 'countries');
    const listed = countries.find((country) => num(country.countryId) === known.countryId);
    const byId = expectOk(await get(`/api/data/countries/${known.countryId}`));
    expectMatchesSchema(byId, countrySchema, 'country');
    expect(byId).toEqual(listed);
    const bySlug = expectOk(await get(`/api/data/countries/slug/${known.countrySlug}`));
    expect(bySlug).toEqual(listed);
  });

  it('404s unknown ids and slugs (rule 2); a non-integer id is 400', async () => {
    expectProblem(await get('/api/data/countries/999999'), 404, '999999');
    expectProblem(await get('/api/data/countries/slug/no-such-country'), 404, 'no-such-country');
    expectProblem(await get('/api/data/countries/abc'), 400, 'countryId must be an integer');
    expectProblem(await get('/api/data/countries/1.5/domestic-focus'), 400, 'countryId must be an integer');
  });

  it('international attention: typed, for that country; 404 for an unknown one', async () => {
    const attention = expectOk(await get(`/api/data/countries/${known.countryId}/international-attention`)) as Record<string, unknown>;
    expectMatchesSchema(attention, internationalAttentionSchema, 'international attention');
    expect(num(attention.countryId)).toBe(known.countryId);
    expect(num(attention.rank)).toBeGreaterThanOrEqual(1);
    expect(num(attention.rank)).toBeLessThanOrEqual(num(attention.outOf));
    expectProblem(await get('/api/data/countries/999999/international-attention'), 404);
  });

  it('domestic focus: typed, echoes the window (default last 4, or a single week); 404 unknown; 400 bad weeks', async () => {
    const focus = expectOk(await get(`/api/data/countries/${known.countryId}/domestic-focus`)) as Record<string, unknown>;
    expectMatchesSchema(focus, domesticFocusSchema, 'domestic focus');
    expect([num(focus.countryId), num(focus.startWeek), num(focus.endWeek)]).toEqual([known.countryId, LAST4_START, CURRENT_WEEK]);
    const single = expectOk(
      await get(`/api/data/countries/${known.countryId}/domestic-focus?startWeek=${CURRENT_WEEK}&endWeek=${CURRENT_WEEK}`),
    ) as Record<string, unknown>;
    expect([num(single.startWeek), num(single.endWeek)]).toEqual([CURRENT_WEEK, CURRENT_WEEK]);
    expectProblem(await get('/api/data/countries/999999/domestic-focus'), 404);
    expectProblem(await get(`/api/data/countries/${known.countryId}/domestic-focus?startWeek=20261`), 400, 'startWeek');
  });
});

describe('sources', () => {
  it('GET /sources lists typed sources; countryId filters; by id returns the same one', async () => {
    const sources = expectOk(await get('/api/data/sources')) as Array<Record<string, unknown>>;
    expect(sources.length).toBeGreaterThan(1);
    expectEachMatchesSchema(sources, sourceSchema, 'sources');
    const first = sources[0]!;
    const countryId = num(first.countryId);
    const filtered = expectOk(await get(`/api/data/sources?countryId=${countryId}`)) as Array<Record<string, unknown>>;
    expect(filtered.length).toBeGreaterThanOrEqual(1);
    expect(filtered.every((source) => num(source.countryId) === countryId)).toBe(true);
    expect(filtered.length).toBeLessThanOrEqual(sources.length);
    expectProblem(await get('/api/data/sources?countryId=abc'), 400, 'countryId must be an integer');
    const byId = expectOk(await get(`/api/data/sources/${known.sourceId}`));
    expectMatchesSchema(byId, sourceSchema, 'source');
    expect(byId).toEqual(sources.find((source) => num(source.sourceId) === known.sourceId));
  });

  it('404s an unknown source (rule 2); a non-integer id is 400', async () => {
    expectProblem(await get('/api/data/sources/999999'), 404, '999999');
    expectProblem(await get('/api/data/sources/999999/links'), 404, '999999');
    expectProblem(await get('/api/data/sources/abc'), 400, 'sourceId must be an integer');
  });

  it('GET /sources/{id}/links splits links into matched and unmatched; applyFilter is a boolean', async () => {
    const links = expectOk(await get(`/api/data/sources/${known.sourceId}/links`)) as Record<string, unknown>;
    expectMatchesSchema(links, sourceLinksSchema, 'source links');
    const source = links.source as Record<string, unknown>;
    expect(num(source.sourceId)).toBe(known.sourceId);
    expect(typeof source.name).toBe('string');
    const all = links.allLinks as string[];
    const split = [...(links.matchedLinks as string[]), ...(links.unmatchedLinks as string[])];
    expect([...split].sort()).toEqual([...all].sort());
    const explicit = await get(`/api/data/sources/${known.sourceId}/links?applyFilter=true`);
    expect(explicit.text).toBe((await get(`/api/data/sources/${known.sourceId}/links`)).text);
    const unfiltered = expectOk(await get(`/api/data/sources/${known.sourceId}/links?applyFilter=false`));
    expectMatchesSchema(unfiltered, sourceLinksSchema, 'unfiltered source links');
    expectProblem(await get(`/api/data/sources/${known.sourceId}/links?applyFilter=2`), 400, 'applyFilter');
  });
});

describe('posts', () => {
  it('GET /posts/recent: typed published posts, count defaults to 10, bounded 1-50', async () => {
    const posts = expectOk(await get('/api/data/posts/recent')) as Array<Record<string, unknown>>;
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.length).toBeLessThanOrEqual(10);
    expectEachMatchesSchema(posts, postSchema, 'posts');
    for (const post of posts) expect(post.status).toBe('published');
    const three = expectOk(await get('/api/data/posts/recent?count=3')) as unknown[];
    expect(three.length).toBeLessThanOrEqual(3);
    await expectBounded('/api/data/posts/recent', 'count', BOUNDS.postsCount);
  });

  it('GET /posts/{slug} returns that post; 404 for an unknown slug (rule 2)', async () => {
    const post = expectOk(await get(`/api/data/posts/${encodeURIComponent(known.postSlug)}`));
    expectMatchesSchema(post, postSchema, 'post');
    expect((post as Record<string, unknown>).slug).toBe(known.postSlug);
    expectProblem(await get('/api/data/posts/no-such-post'), 404, 'no-such-post');
  });
});

describe('articles', () => {
  it('GET /articles/recent carries source context by default (rule 4), exact articleHash', async () => {
    const response = await get('/api/data/articles/recent?limit=30');
    const articles = expectOk(response) as Array<Record<string, unknown>>;
    expect(articles.length).toBeGreaterThan(0);
    expect(articles.length).toBeLessThanOrEqual(30);
    expectEachMatchesSchema(articles, articleSchema, 'articles');
    for (const article of articles) {
      expect(response.text).toContain(`"articleHash":${(article.articleHash as { value: string }).value}`);
    }
    const explicit = await get('/api/data/articles/recent?limit=30&includeSourceContext=true');
    expect(explicit.text).toBe(response.text);
    const byDefault = expectOk(await get('/api/data/articles/recent')) as unknown[];
    expect(byDefault.length).toBeLessThanOrEqual(50);
  });

  it('includeSourceContext=false gives the base fields only', async () => {
    const articles = expectOk(
      await get('/api/data/articles/recent?limit=30&includeSourceContext=false'),
    ) as Array<Record<string, unknown>>;
    expectEachMatchesSchema(articles, articleBaseSchema, 'bare articles');
    for (const article of articles) {
      for (const field of Object.keys(articleSourceContextSchema)) expect(article, field).not.toHaveProperty(field);
    }
  });

  it('validates limit (1-500) and includeSourceContext', async () => {
    await expectBounded('/api/data/articles/recent', 'limit', BOUNDS.articlesLimit);
    expectProblem(await get('/api/data/articles/recent?includeSourceContext=nope'), 400, 'includeSourceContext');
  });

  it('GET /articles/stats: typed, days defaults to 7 and is echoed, bounded 1-365', async () => {
    const stats = expectOk(await get('/api/data/articles/stats')) as Record<string, unknown>;
    expectMatchesSchema(stats, articleStatsSchema, 'article stats');
    expect(num(stats.days)).toBe(7);
    const year = expectOk(await get('/api/data/articles/stats?days=365')) as Record<string, unknown>;
    expect(num(year.days)).toBe(365);
    expect(num(year.totalArticles)).toBeGreaterThanOrEqual(num(stats.totalArticles));
    await expectBounded('/api/data/articles/stats', 'days', BOUNDS.statsDays);
  });

  it('GET /articles/stats/all-time: typed, at least the one-year counts', async () => {
    const allTime = expectOk(await get('/api/data/articles/stats/all-time')) as Record<string, unknown>;
    expectMatchesSchema(allTime, articleStatsAllTimeSchema, 'all-time stats');
    const year = (await get('/api/data/articles/stats?days=365')).body as Record<string, unknown>;
    expect(num(allTime.totalArticles)).toBeGreaterThanOrEqual(num(year.totalArticles));
  });
});

/** One path per endpoint (the contract's 20), filled in with known identifiers. */
function everyEndpoint(): string[] {
  const p = encodeURIComponent(known.personHash);
  return [
    '/api/data/weeks/current',
    '/api/data/people',
    `/api/data/people/${p}`,
    '/api/data/people/search?q=a',
    '/api/data/people/top',
    `/api/data/people/${p}/links`,
    `/api/data/people/${p}/country-stats`,
    '/api/data/countries',
    `/api/data/countries/${known.countryId}`,
    `/api/data/countries/slug/${known.countrySlug}`,
    `/api/data/countries/${known.countryId}/international-attention`,
    `/api/data/countries/${known.countryId}/domestic-focus`,
    '/api/data/sources',
    `/api/data/sources/${known.sourceId}`,
    `/api/data/sources/${known.sourceId}/links`,
    '/api/data/posts/recent',
    `/api/data/posts/${encodeURIComponent(known.postSlug)}`,
    '/api/data/articles/recent',
    '/api/data/articles/stats',
    '/api/data/articles/stats/all-time',
  ];
}

describe('authentication', () => {
  it('a missing or wrong X-Api-Key is 401 on every path, unknown paths included, without echoing the key', async () => {
    const paths = [...everyEndpoint(), '/api/data/no-such-endpoint', '/', '/api/data/people/search'];
    for (const path of paths) {
      const missing = await get(path, { key: null });
      expectProblem(missing, 401, 'Missing API key');
      const wrong = await get(path, { key: 'wrong-key' });
      expectProblem(wrong, 401, 'Invalid API key');
      expect(wrong.text).not.toContain('wrong-key');
      expect(missing.text).not.toContain(KEY);
      expect(wrong.text).not.toContain(KEY);
    }
    // A key that only differs in case is still wrong.
    expectProblem(await get('/api/data/people', { key: KEY.toUpperCase() }), 401);
    // Even a disallowed method is 401 first.
    expectProblem(await get('/api/data/people', { key: null, method: 'DELETE' }), 401);
  });

  it('every endpoint answers 200 with the key', async () => {
    const paths = everyEndpoint();
    expect(paths).toHaveLength(20);
    for (const path of paths) expectOk(await get(path));
  });
});

describe('methods and unknown paths', () => {
  it('other methods are 405 with Allow: GET, HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      const response = await get('/api/data/people', { method });
      expectProblem(response, 405, method);
      expect(response.headers.allow).toBe('GET, HEAD');
    }
  });

  it('HEAD is GET without the body', async () => {
    const full = await get('/api/data/countries');
    const head = await get('/api/data/countries', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(full.text)));
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('unknown paths are 404 with a problem body, also for an unknown method there', async () => {
    for (const path of [
      '/api/data/no-such-endpoint',
      '/api/data',
      '/api/data/',
      '/',
      '/api/data/people/x/y/z',
      '/api/data/countries/slug/a/b',
      '/api/data/articles/stats/weekly',
      '/API/DATA/PEOPLE',
    ]) {
      expectProblem(await get(path), 404, 'No endpoint');
    }
    expectProblem(await get('/api/data/no-such-endpoint', { method: 'POST' }), 404);
  });

  it('a trailing slash and unknown query parameters are tolerated', async () => {
    expect((await get('/api/data/countries/')).text).toBe((await get('/api/data/countries')).text);
    expect((await get('/api/data/countries?unused=1')).text).toBe((await get('/api/data/countries')).text);
  });
});

describe('determinism', () => {
  it('sandboxes of one model share its answers: the second serves them without asking the model', async () => {
    const model = createSandboxModel({ seed: SEED, now: NOW });
    const asked: string[] = [];
    const counting = new Proxy(model, {
      get: (target, name: keyof SandboxModel) => (...args: never[]) => {
        asked.push(String(name));
        return (target[name] as (...parameters: never[]) => unknown)(...args);
      },
    });
    const path = '/api/data/people/top?sortBy=dominance&limit=5';
    const bodies: string[] = [];
    for (const options of [{}, {}, { wild: true }]) {
      const server = await startSandbox({ seed: SEED, now: NOW, key: KEY, model: counting, ...options });
      const http = client(server.url, KEY);
      try {
        bodies.push((await http.get(path)).text);
      } finally {
        await http.close();
        await server.close();
      }
      asked.push('|');
    }
    // weekInfo is read once per server; topPeople by the first plain one and by the wild one only.
    expect(asked.join(' ')).toBe('weekInfo topPeople | weekInfo | weekInfo topPeople |');
    expect(bodies[1]).toBe(bodies[0]);
    expect(bodies[2]).not.toBe(bodies[0]);
  });

  it('two sandboxes with the same seed and now serve byte-identical bodies; another seed differs', async () => {
    // A model of its own, so the twin produces every answer again rather than finding this one's.
    const twin = await startSandbox({ seed: SEED, now: NOW, key: KEY, model: createSandboxModel({ seed: SEED, now: NOW }) });
    const other = await startSandbox({ seed: SEED + 1, now: NOW, key: KEY });
    const twinHttp = client(twin.url, KEY);
    const otherHttp = client(other.url, KEY);
    try {
      const paths = [
        ...everyEndpoint(),
        '/api/data/people/top?sortBy=dominance&limit=100',
        `/api/data/people/${known.personHash}/links?limit=250&includeContext=false`,
        '/api/data/articles/recent?limit=500',
      ];
      for (const path of paths) {
        const mine = await get(path);
        const twins = await twinHttp.get(path);
        expect(twins.status, path).toBe(200);
        expect(twins.text, path).toBe(mine.text);
      }
      expect((await otherHttp.get('/api/data/people')).text).not.toBe((await get('/api/data/people')).text);
    } finally {
      await twinHttp.close();
      await otherHttp.close();
      await twin.close();
      await other.close();
    }
  });
});
