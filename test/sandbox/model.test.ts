import { describe, it, expect } from 'vitest';
import { personLinkBaseSchema, personLinkSchema, personStatsSchema, articleBaseSchema, articleSchema, fieldsOf } from '../../src/api/types.js';
import type { PersonStats } from '../../src/sandbox/model.js';
import type { PeopleTopQuery, SandboxModel } from '../../src/sandbox/model.js';
import { createSandboxModel, sentimentColor, sentimentFace, sharedSandboxModel } from '../../src/sandbox/data/index.js';
import { addWeeks, isoWeekOf, listWeeks, mondayOf } from '../../src/shared/weeks.js';

const NOW = new Date('2026-03-18T10:30:00Z');
const model = createSandboxModel({ seed: 42, now: NOW });
const { currentWeek, last4StartWeek } = model.weekInfo();
const LAST4 = { startWeek: last4StartWeek, endWeek: currentWeek };
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function top(overrides: Partial<PeopleTopQuery> = {}, m: SandboxModel = model): PersonStats[] {
  return m.topPeople({ ...LAST4, limit: 1000, fresh: false, sortBy: 'mentions', ...overrides });
}

/** JSON with bigints as digits: what the server would send. */
function serialise(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

function everything(m: SandboxModel): string {
  return serialise(answers(m));
}

function answers(m: SandboxModel) {
  const people = m.people();
  return {
    week: m.weekInfo(),
    people,
    countries: m.countries(),
    sources: m.sources(),
    links: m.sourceLinks(3, true),
    posts: m.recentPosts(50),
    articles: m.recentArticles({ limit: 500, includeSourceContext: true }),
    top: top({}, m),
    personLinks: m.personLinks(people[7]!.personHash, { limit: 250, includeContext: true }),
    countryStats: m.personCountryStats(people[7]!.personHash, LAST4),
    stats: m.articleStats(30),
    attention: m.internationalAttention(5),
    focus: m.domesticFocus(5, LAST4),
    post: m.post(m.recentPosts(1)[0]!.slug),
    person: m.person(people[3]!.personHash),
    search: m.searchPeople({ q: 'a', exactName: false, limit: 100 }),
  };
}

/** Changes every field, element and array in place, as a careless caller of the model might. */
function scribble(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    scribble(record[key]);
    record[key] = typeof record[key] === 'object' ? record[key] : 'scribbled';
  }
  if (Array.isArray(value)) value.push('scribbled');
}

function ageAt(birthDate: string, now: Date): number {
  const [year, month, day] = birthDate.slice(0, 10).split('-').map(Number) as [number, number, number];
  const passed = now.getUTCMonth() + 1 > month || (now.getUTCMonth() + 1 === month && now.getUTCDate() >= day);
  return now.getUTCFullYear() - year - (passed ? 0 : 1);
}

describe('determinism', () => {
  it('gives byte-identical data for the same seed and now', () => {
    const again = createSandboxModel({ seed: 42, now: new Date(NOW.getTime()) });
    expect(everything(again)).toBe(everything(model));
  });

  it('gives different data for another seed', () => {
    const other = createSandboxModel({ seed: 43, now: NOW });
    expect(other.people().map((p) => p.personHash)).not.toEqual(model.people().map((p) => p.personHash));
    expect(everything(other)).not.toBe(everything(model));
  });
});

describe('one model per seed and clock (sharedSandboxModel)', () => {
  it('is shared by sandboxes of the same seed and clock, not by others', () => {
    const shared = sharedSandboxModel({ seed: 42, now: NOW });
    expect(sharedSandboxModel({ seed: 42, now: new Date(NOW.getTime()) })).toBe(shared);
    expect(sharedSandboxModel({ seed: 43, now: NOW })).not.toBe(shared);
    expect(sharedSandboxModel({ seed: 42, now: new Date(NOW.getTime() + 1000) })).not.toBe(shared);
    expect(everything(shared)).toBe(everything(model));
  });

  it('answers the same after a caller changed everything it was given, so sharing is safe', () => {
    const shared = sharedSandboxModel({ seed: 42, now: NOW });
    const given = answers(shared);
    const before = serialise(given);
    scribble(given);
    expect(serialise(given)).not.toBe(before);
    expect(everything(shared)).toBe(before);
  });
});

describe('week info', () => {
  it('is the ISO week of now and the 4-week window ending there', () => {
    expect(currentWeek).toBe(202612);
    expect(last4StartWeek).toBe(202609);
  });

  it('crosses into a 53-week year', () => {
    expect(createSandboxModel({ seed: 1, now: new Date('2027-01-06T12:00:00Z') }).weekInfo()).toEqual({
      currentWeek: 202701,
      last4StartWeek: 202651,
    });
    expect(createSandboxModel({ seed: 1, now: new Date('2021-01-05T00:00:00Z') }).weekInfo()).toEqual({
      currentWeek: 202101,
      last4StartWeek: 202051,
    });
  });
});

describe('volumes', () => {
  it('has at least the promised counts', () => {
    expect(model.countries().length).toBeGreaterThanOrEqual(40);
    expect(model.sources().length).toBeGreaterThanOrEqual(100);
    expect(model.people().length).toBeGreaterThanOrEqual(400);
    expect(model.articleStatsAllTime().totalArticles).toBeGreaterThanOrEqual(30_000);
    expect(model.recentPosts(50).length).toBeGreaterThanOrEqual(20);
  });

  it('has articles in each of the last 104 weeks, and none after now', () => {
    const weeks = listWeeks(addWeeks(currentWeek, -103), currentWeek);
    // One person is enough to show a week has articles: ranking all of them, 105 times, took most of a second.
    for (const week of weeks) {
      expect(top({ startWeek: week, endWeek: week, limit: 1 }).length, `week ${week}`).toBeGreaterThan(0);
    }
    expect(top({ startWeek: addWeeks(currentWeek, -104), endWeek: addWeeks(currentWeek, -104), limit: 1 })).toEqual([]);
    const newest = model.personLinks(top()[0]!.personHash, { limit: 1, includeContext: false })![0]!;
    expect(newest.mentionDate <= NOW.toISOString().slice(0, 19)).toBe(true);
  });
});

describe('countries', () => {
  const countries = model.countries();

  it('are real, with unique upper-case ISO codes and small ids', () => {
    expect(new Set(countries.map((c) => c.countryIso)).size).toBe(countries.length);
    for (const [index, country] of countries.entries()) {
      expect(country.countryIso).toMatch(/^[A-Z]{2}$/);
      expect(country.countryId).toBe(index + 1);
      expect(Object.keys(country)).toEqual(['countryId', 'countryName', 'countryIso']);
    }
    expect(countries.find((c) => c.countryIso === 'GB')?.countryName).toBe('United Kingdom');
  });

  it('are found by slug', () => {
    expect(model.countryBySlug('united-kingdom')?.countryIso).toBe('GB');
    expect(model.countryBySlug('cote-d-ivoire')?.countryIso).toBe('CI');
    expect(model.countryBySlug('turkiye')?.countryName).toBe('Türkiye');
    expect(model.countryBySlug('atlantis')).toBeUndefined();
    expect(model.country(1)).toEqual(countries[0]);
    expect(model.country(countries.length + 1)).toBeUndefined();
  });

  it('carry integer population and GDP in the country statistics', () => {
    const person = top()[0]!;
    const stats = model.personCountryStats(person.personHash, LAST4)!;
    const us = stats.countries.find((row) => row.countryIso === 'US');
    for (const row of stats.countries) {
      expect(Number.isInteger(row.population) && Number.isInteger(row.gdp)).toBe(true);
    }
    if (us) expect(us.population).toBeGreaterThan(300_000_000);
  });
});

describe('sources', () => {
  const sources = model.sources();

  it('have the contract fields, timestamps and a regex filter', () => {
    for (const source of sources) {
      expect(Object.keys(source)).toEqual([
        'sourceId', 'name', 'url', 'countryId', 'description', 'lastCheckedDate', 'status', 'linkFilter',
        'createdAt', 'updatedAt', 'country',
      ]);
      expect(source.country).toBeNull();
      expect(source.url).toMatch(/^https:\/\/www\.[a-z0-9-]+\.example$/);
      for (const field of [source.createdAt, source.updatedAt]) expect(field).toMatch(TIMESTAMP);
      if (source.lastCheckedDate !== null) expect(source.lastCheckedDate).toMatch(TIMESTAMP);
      expect(['active', 'paused']).toContain(source.status);
      expect(() => new RegExp(source.linkFilter)).not.toThrow();
    }
    expect(sources.filter((s) => s.status === 'active').length).toBeGreaterThan(sources.length * 0.8);
    // A few were never checked: the contract lets lastCheckedDate be null, and a first run shows it.
    expect(sources.filter((s) => s.lastCheckedDate === null).length).toBe(3);
    expect(new Set(sources.map((s) => s.countryId)).size).toBe(model.countries().length);
  });

  it('filter by country', () => {
    const inFrance = model.sources(17);
    expect(inFrance.length).toBeGreaterThan(0);
    expect(inFrance.every((s) => s.countryId === 17)).toBe(true);
    expect(model.source(inFrance[0]!.sourceId)).toEqual(inFrance[0]);
    expect(model.source(9999)).toBeUndefined();
  });

  it('split homepage links with the real regex', () => {
    for (const source of sources.slice(0, 30)) {
      const links = model.sourceLinks(source.sourceId, true)!;
      const filter = new RegExp(source.linkFilter);
      expect(links.source).toEqual({ sourceId: source.sourceId, name: source.name });
      expect(links.allLinks.length).toBeGreaterThanOrEqual(20);
      expect(links.allLinks.length).toBeLessThanOrEqual(40);
      expect(links.matchedLinks.length).toBeGreaterThan(0);
      expect(links.unmatchedLinks.length).toBeGreaterThan(0);
      expect(links.matchedLinks.every((url) => filter.test(url))).toBe(true);
      expect(links.unmatchedLinks.some((url) => filter.test(url))).toBe(false);
      expect([...links.matchedLinks, ...links.unmatchedLinks].sort()).toEqual([...links.allLinks].sort());
    }
  });

  it('treat every link as matched without the filter', () => {
    const links = model.sourceLinks(1, false)!;
    expect(links.matchedLinks).toEqual(links.allLinks);
    expect(links.unmatchedLinks).toEqual([]);
    expect(model.sourceLinks(9999, true)).toBeUndefined();
  });
});

describe('people', () => {
  const people = model.people();

  it('have unique ASCII slug hashes and the contract fields', () => {
    expect(new Set(people.map((p) => p.personHash)).size).toBe(people.length);
    for (const person of people) {
      expect(person.personHash).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{4}$/);
      expect(Object.keys(person)).toEqual([
        'personHash', 'fullName', 'description', 'gender', 'category', 'countryId', 'countryName', 'birthDate',
        'createdAt', 'updatedAt',
      ]);
      expect([0, 1, 2, 3]).toContain(person.gender);
      expect(['politics', 'business', 'sport', 'culture', 'science', 'entertainment']).toContain(person.category);
      if (person.birthDate !== null) expect(person.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
      expect(person.createdAt <= person.updatedAt).toBe(true);
    }
  });

  it('include nulls where the contract allows them', () => {
    expect(people.some((p) => p.description === null)).toBe(true);
    expect(people.some((p) => p.countryName === null)).toBe(true);
    expect(people.some((p) => p.birthDate === null)).toBe(true);
  });

  it('have names in many scripts', () => {
    const names = people.map((p) => p.fullName).join(' ');
    for (const script of [/\p{Script=Han}/u, /\p{Script=Greek}/u, /\p{Script=Arabic}/u, /\p{Script=Devanagari}/u, /\p{Script=Cyrillic}/u, /[À-ž]/u]) {
      expect(names).toMatch(script);
    }
  });

  it('are found by accent-insensitive search, exact name and filters', () => {
    const accented = people.find((p) => /[À-ž]/u.test(p.fullName) && p.countryId === 17) ?? people.find((p) => /[À-ž]/u.test(p.fullName))!;
    const plain = accented.fullName.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
    const found = model.searchPeople({ q: plain, exactName: false, limit: 100 });
    expect(found.map((p) => p.personHash)).toContain(accented.personHash);
    const exact = model.searchPeople({ fullName: accented.fullName, exactName: true, limit: 100 });
    expect(exact.every((p) => p.fullName.toLowerCase() === accented.fullName.toLowerCase())).toBe(true);
    expect(model.searchPeople({ personHash: accented.personHash, exactName: false, limit: 5 })).toEqual([accented]);
    const inCountry = model.searchPeople({ q: 'a', countryId: 17, gender: 1, exactName: false, limit: 100 });
    expect(inCountry.length).toBeGreaterThan(0);
    expect(inCountry.every((p) => p.countryId === 17 && p.gender === 1)).toBe(true);
    expect(model.searchPeople({ q: 'a', exactName: false, limit: 3 })).toHaveLength(3);
    expect(model.person('nobody-0000')).toBeUndefined();
  });
});

describe('articles', () => {
  it('have unique articleHash values above 2^53, covering every article', () => {
    const hashes = new Set<bigint>();
    // Collected, then asserted once: an expect() per link (about 100,000) was most of the test's time.
    const notBigAndBeyond: unknown[] = [];
    for (const person of model.people()) {
      for (const link of model.personLinks(person.personHash, { limit: 1_000_000, includeContext: false })!) {
        if (typeof link.articleHash !== 'bigint' || link.articleHash <= 2n ** 53n) notBigAndBeyond.push(link.articleHash);
        hashes.add(link.articleHash);
      }
    }
    expect(notBigAndBeyond).toEqual([]);
    expect(hashes.size).toBe(model.articleStatsAllTime().totalArticles);
  });

  it('list newest first, with or without source context', () => {
    const withContext = model.recentArticles({ limit: 50, includeSourceContext: true });
    const bare = model.recentArticles({ limit: 50, includeSourceContext: false });
    expect(withContext).toHaveLength(50);
    expect(Object.keys(withContext[0]!)).toEqual(fieldsOf(articleSchema));
    expect(Object.keys(bare[0]!)).toEqual(fieldsOf(articleBaseSchema));
    expect(bare.map((a) => a.articleHash)).toEqual(withContext.map((a) => a.articleHash));
    const source = model.source(withContext[0]!.sourceId)!;
    expect(withContext[0]!.url.startsWith(`${source.url}/`)).toBe(true);
    expect(withContext[0]!.countryId).toBe(source.countryId);
    // Newest first: each article's people have it as their newest link at or before the previous one.
    const dates = withContext.map((article) => {
      const person = article.people.split(',')[0]!;
      return model.personLinks(person, { limit: 1_000_000, includeContext: false })!.find((l) => l.articleHash === article.articleHash)!.mentionDate;
    });
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('count articles, sources and countries by days up to now', () => {
    const week = model.articleStats(7);
    const year = model.articleStats(365);
    const allTime = model.articleStatsAllTime();
    expect(week.days).toBe(7);
    expect(week.totalArticles).toBeGreaterThan(100);
    expect(week.totalArticles).toBeLessThan(year.totalArticles);
    expect(year.totalArticles).toBeLessThan(allTime.totalArticles);
    expect(allTime.totalSources).toBe(model.sources().length);
    expect(allTime.totalCountries).toBe(model.countries().length);
    expect(Object.keys(allTime)).toEqual(['totalArticles', 'totalSources', 'totalCountries']);
  });
});

describe('person links', () => {
  const first = top({ limit: 1 })[0]!;
  const hash = first.personHash;

  it('are newest first, with the context fields only when asked', () => {
    const links = model.personLinks(hash, { limit: 40, includeContext: true })!;
    expect(links).toHaveLength(40);
    const dates = links.map((l) => l.mentionDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    for (const link of links) {
      expect(Object.keys(link)).toEqual(fieldsOf(personLinkSchema));
      expect(link.articlePeople!.split(',')).toContain(hash);
      expect(link.otherPeople).not.toContain(hash);
      expect(link.otherPeople!.length).toBe(link.articlePeople!.split(',').length - 1);
      expect(link.sentiment).toBeGreaterThanOrEqual(-1);
      expect(link.sentiment).toBeLessThanOrEqual(1);
      expect(link.sentimentColor).toBe(sentimentColor(link.sentiment));
      expect(link.snippet).toContain(first.fullName);
      expect(link.articleUrl!.startsWith(link.sourceUrl!)).toBe(true);
    }
    const bare = model.personLinks(hash, { limit: 3, includeContext: false })!;
    expect(Object.keys(bare[0]!)).toEqual(fieldsOf(personLinkBaseSchema));
    expect(model.personLinks('nobody-0000', { limit: 3, includeContext: true })).toBeUndefined();
  });
});

describe('ranked people', () => {
  const ranked = top();

  it('ranks by mentions, ties by personHash, from 1, people with mentions only', () => {
    expect(ranked.length).toBeGreaterThan(100);
    ranked.forEach((person, index) => {
      expect(person.rank).toBe(index + 1);
      expect(person.mentionCount).toBeGreaterThan(0);
      expect(Object.keys(person)).toEqual(fieldsOf(personStatsSchema));
      if (index > 0) {
        const previous = ranked[index - 1]!;
        expect(previous.mentionCount > person.mentionCount || (previous.mentionCount === person.mentionCount && previous.personHash < person.personHash)).toBe(true);
      }
    });
    expect(top({ limit: 10 })).toEqual(ranked.slice(0, 10));
  });

  it('ranks by dominance on request, and dominance shares add up to 100', () => {
    const byDominance = top({ sortBy: 'dominance' });
    for (let i = 1; i < byDominance.length; i++) expect(byDominance[i - 1]!.dominance).toBeGreaterThanOrEqual(byDominance[i]!.dominance);
    expect(byDominance.map((p) => p.personHash)).not.toEqual(ranked.map((p) => p.personHash));
    expect(ranked.reduce((sum, p) => sum + p.dominance, 0)).toBeCloseTo(100, 1);
  });

  it('holds the metric definitions', () => {
    for (const person of ranked.slice(0, 20)) {
      expect(person.countryRows.reduce((sum: number, row) => sum + (row as { mentions: number }).mentions, 0)).toBe(person.mentionCount);
      const stats = model.personCountryStats(person.personHash, LAST4)!;
      expect(stats.globalDominance).toBe(person.dominance);
      expect(stats.globalReach).toBe(person.reach);
      expect(stats.globalPower).toBe(person.power);
      expect(stats.globalSentiment).toBe(person.sentiment);
      expect(stats.persistence).toBe(person.persistence);
      expect(person.persistence).toBeLessThanOrEqual(4);
      expect(stats.countries.reduce((sum, row) => sum + row.reach, 0)).toBeCloseTo(stats.globalReach, 2);
      expect(stats.countries.reduce((sum, row) => sum + row.power, 0)).toBeCloseTo(stats.globalPower, 2);
      for (let i = 1; i < stats.countries.length; i++) expect(stats.countries[i - 1]!.mentions).toBeGreaterThanOrEqual(stats.countries[i]!.mentions);
      for (const row of stats.countries) {
        expect(row.articles).toBeLessThanOrEqual(row.mentions);
        expect(row.persistence).toBeLessThanOrEqual(stats.persistence);
      }
      expect(person.sentimentColor).toBe(sentimentColor(person.sentiment));
      expect(person.sentimentFace).toBe(sentimentFace(person.sentiment));
      expect(person.snippets.length).toBeGreaterThan(0);
      for (const snippet of person.snippets) expect(snippet).toContain(person.fullName);
    }
    // Mentions equal the sum of the person's links' mentions in the window (a link can hold up to 3).
    const person = ranked[0]!;
    const links = model.personLinks(person.personHash, { limit: 1_000_000, includeContext: false })!;
    const start = mondayOf(last4StartWeek).toISOString().slice(0, 19);
    const inWindow = links.filter((l) => l.mentionDate >= start);
    expect(inWindow.length).toBeLessThanOrEqual(person.mentionCount);
    expect(inWindow.length * 3).toBeGreaterThanOrEqual(person.mentionCount);
  });

  it('differs between weeks and between countries', () => {
    const names = (list: PersonStats[]) => list.slice(0, 10).map((p) => p.personHash);
    expect(names(top({ startWeek: addWeeks(currentWeek, -1), endWeek: addWeeks(currentWeek, -1) }))).not.toEqual(
      names(top({ startWeek: addWeeks(currentWeek, -2), endWeek: addWeeks(currentWeek, -2) })),
    );
    const us = model.countryBySlug('united-states')!.countryId;
    const china = model.countryBySlug('china')!.countryId;
    expect(names(top({ countryId: us }))).not.toEqual(names(top({ countryId: china })));
  });

  it('filters by the press country (countryId)', () => {
    const germany = model.countryBySlug('germany')!.countryId;
    const inGermany = top({ countryId: germany });
    expect(inGermany.length).toBeGreaterThan(0);
    expect(inGermany.length).toBeLessThan(ranked.length);
    for (const person of inGermany.slice(0, 10)) {
      expect(person.countryRows).toEqual([expect.objectContaining({ countryId: germany, mentions: person.mentionCount })]);
      const row = model.personCountryStats(person.personHash, LAST4)!.countries.find((r) => r.countryId === germany)!;
      expect(row.mentions).toBe(person.mentionCount);
      expect(person.dominance).toBe(row.localDominance);
    }
    expect(inGermany.reduce((sum, p) => sum + p.dominance, 0)).toBeCloseTo(100, 1);
  });

  it('filters by the person\'s country, gender, category and age', () => {
    const fromIndia = top({ fromCountryId: 21 });
    expect(fromIndia.length).toBeGreaterThan(0);
    expect(fromIndia.every((p) => p.fromCountryId === 21 && p.fromCountryName === 'India')).toBe(true);

    const women = top({ gender: 1 });
    expect(women.length).toBeGreaterThan(0);
    expect(women.length).toBeLessThan(ranked.length);
    expect(women.every((p) => p.gender === 1)).toBe(true);

    const sport = top({ newsCategory: 'sport' });
    expect(sport.length).toBeGreaterThan(0);
    expect(sport.every((p) => model.person(p.personHash)!.category === 'sport')).toBe(true);
    expect(top({ newsCategory: 'gardening' })).toEqual([]);

    const young = top({ minAge: 20, maxAge: 40 });
    expect(young.length).toBeGreaterThan(0);
    for (const person of young) {
      expect(person.birthDate).not.toBeNull();
      const age = ageAt(person.birthDate!, NOW);
      expect(age >= 20 && age <= 40).toBe(true);
    }
    const unknownBirth = ranked.filter((p) => p.birthDate === null).map((p) => p.personHash);
    expect(unknownBirth.length).toBeGreaterThan(0);
    expect(top({ minAge: 0 }).some((p) => unknownBirth.includes(p.personHash))).toBe(false);
  });

  it('keeps only people first mentioned inside the window when fresh', () => {
    const fresh = top({ fresh: true });
    expect(fresh.length).toBeGreaterThan(0);
    expect(fresh.length).toBeLessThan(ranked.length);
    const start = mondayOf(last4StartWeek).toISOString().slice(0, 19);
    for (const person of fresh) {
      const links = model.personLinks(person.personHash, { limit: 1_000_000, includeContext: false })!;
      expect(links.every((l) => l.mentionDate >= start)).toBe(true);
    }
    const notFresh = ranked.find((p) => !fresh.some((f) => f.personHash === p.personHash))!;
    const links = model.personLinks(notFresh.personHash, { limit: 1_000_000, includeContext: false })!;
    expect(links.some((l) => l.mentionDate < start)).toBe(true);
  });

  it('answers an empty list outside the data', () => {
    expect(top({ startWeek: 201001, endWeek: 201004 })).toEqual([]);
  });
});

describe('country statistics', () => {
  it('is undefined for an unknown person and empty outside the data', () => {
    expect(model.personCountryStats('nobody-0000', LAST4)).toBeUndefined();
    const hash = model.people()[0]!.personHash;
    expect(model.personCountryStats(hash, { startWeek: 201001, endWeek: 201002 })).toEqual({
      startWeek: 201001, endWeek: 201002, globalDominance: 0, globalSentiment: 0, globalReach: 0, globalPower: 0, persistence: 0, countries: [],
    });
  });

  it('computes domestic focus as the own-people share of a country\'s press, ranked', () => {
    const countries = model.countries();
    const focus = countries.map((c) => model.domesticFocus(c.countryId, LAST4)!);
    const usId = model.countryBySlug('united-states')!.countryId;
    const us = focus[usId - 1]!;
    const inUs = top({ countryId: usId });
    const own = inUs.filter((p) => p.fromCountryId === usId).reduce((sum, p) => sum + p.mentionCount, 0);
    const all = inUs.reduce((sum, p) => sum + p.mentionCount, 0);
    expect(us.focusPercent).toBeCloseTo((100 * own) / all, 3);
    expect(us).toMatchObject({ countryId: usId, ...LAST4, outOf: countries.length });
    expect(us.rank).toBe(1 + focus.filter((f) => f.focusPercent > us.focusPercent).length);
    const sorted = focus.map((f) => f.focusPercent).sort((a, b) => a - b);
    expect(us.median).toBeCloseTo((sorted[25]! + sorted[26]!) / 2, 3);
    expect(model.domesticFocus(999, LAST4)).toBeUndefined();
  });

  it('computes international attention over the last-4 window from foreign press', () => {
    const countries = model.countries();
    const attention = countries.map((c) => model.internationalAttention(c.countryId)!);
    // The definition, recomputed from the ranked lists of every other country's press.
    const usId = model.countryBySlug('united-states')!.countryId;
    let toUs = 0;
    let foreignTotal = 0;
    for (const country of countries) {
      if (country.countryId === usId) continue;
      for (const person of top({ countryId: country.countryId })) {
        foreignTotal += person.mentionCount;
        if (person.fromCountryId === usId) toUs += person.mentionCount;
      }
    }
    expect(attention[usId - 1]!.percentage).toBeCloseTo((100 * toUs) / foreignTotal, 3);
    expect(attention[usId - 1]!.rank).toBe(1 + attention.filter((a) => a.percentage > attention[usId - 1]!.percentage).length);
    const ranks = attention.map((a) => a.rank);
    expect(Math.min(...ranks)).toBe(1);
    expect(new Set(attention.map((a) => a.median)).size).toBe(1);
    expect(attention.every((a) => a.outOf === countries.length)).toBe(true);
    expect(model.internationalAttention(0)).toBeUndefined();
  });
});

describe('posts', () => {
  it('are published, newest first, with JSON block content', () => {
    const posts = model.recentPosts(50);
    expect(new Set(posts.map((p) => p.slug)).size).toBe(posts.length);
    for (let i = 1; i < posts.length; i++) expect(posts[i - 1]!.createdAt >= posts[i]!.createdAt).toBe(true);
    for (const post of posts) {
      expect(post.status).toBe('published');
      expect(['standard', 'featured']).toContain(post.view);
      expect(Array.isArray((JSON.parse(post.content) as { blocks: unknown[] }).blocks)).toBe(true);
      expect(post.createdAt <= NOW.toISOString().slice(0, 19)).toBe(true);
      expect(post.createdAt).toMatch(TIMESTAMP);
    }
    expect(model.recentPosts(3)).toEqual(posts.slice(0, 3));
    expect(model.post(posts[4]!.slug)).toEqual(posts[4]);
    expect(model.post('no-such-post')).toBeUndefined();
  });
});

describe('sentiment display', () => {
  it('maps sentiment to a colour and a face', () => {
    expect(sentimentColor(-1)).toBe('#D73027');
    expect(sentimentColor(0)).toBe('#9E9E9E');
    expect(sentimentColor(1)).toBe('#1A9850');
    expect(sentimentColor(0.5)).toBe('#5C9B77');
    expect(sentimentFace(0.1)).toBe('fa-face-smile');
    expect(sentimentFace(0.0999)).toBe('fa-face-meh');
    expect(sentimentFace(-0.1)).toBe('fa-face-frown');
  });
});

// Build and query times are measured by bench/timing.mjs (npm run bench:timing), not asserted here.

describe('iso week sanity used by the model', () => {
  it('agrees with isoWeekOf', () => {
    expect(isoWeekOf(NOW)).toBe(currentWeek);
  });
});
