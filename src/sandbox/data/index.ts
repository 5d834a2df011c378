/**
 * The sandbox model: a deterministic synthetic dataset (generate.ts) and the metrics over it
 * (metrics.ts), behind the SandboxModel seam the HTTP server calls.
 *
 * Every method returns new objects, so callers may mutate or cache what they get.
 */
import type { Article, ArticleStats, ArticleStatsAllTime, Country, Person, PersonLink, Post, Source } from '../model.js';
import type { PeopleSearchQuery, SandboxModel, SandboxModelOptions } from '../model.js';
import { roundMetric, sentimentColor, sentimentFace } from './display.js';
import { formatTimestamp, generateDataset, type Dataset } from './generate.js';
import { Metrics } from './metrics.js';
import { buildPosts } from './posts.js';
import { searchFold } from './slug.js';
import { ArticleText, homepageLinks } from './text.js';

export { CATEGORIES, DATA_WEEKS, GENDERS } from './generate.js';
export { METRIC_DECIMALS, sentimentColor, sentimentFace } from './display.js';

const ARTICLE_HASH_BASE = 1n << 60n;

function articleHashOf(data: Dataset, article: number): bigint {
  return ARTICLE_HASH_BASE + (BigInt(data.details.hashHigh(article)) << 32n) + BigInt(data.details.hashLow(article));
}

/** How many models sharedSandboxModel keeps: each holds about 7 MiB. */
const SHARED_MODELS_KEPT = 3;
const sharedModels = new Map<string, SandboxModel>();

/**
 * The model of (seed, now), made once per process: sandboxes started with the same seed and clock
 * share it (the test suite starts hundreds, mostly alike). Safe because a model never changes after
 * it is made: every method returns new objects, and its caches only remember answers. The few most
 * recently used are kept, also after their sandboxes close, so the next start finds them.
 */
export function sharedSandboxModel(options: SandboxModelOptions): SandboxModel {
  const key = `${options.seed} ${options.now.getTime()}`;
  let model = sharedModels.get(key);
  if (model) {
    sharedModels.delete(key);
  } else {
    model = createSandboxModel(options);
    if (sharedModels.size >= SHARED_MODELS_KEPT) sharedModels.delete(sharedModels.keys().next().value!);
  }
  sharedModels.set(key, model);
  return model;
}

/** A model of its own (sharedSandboxModel shares one). */
export function createSandboxModel(options: SandboxModelOptions): SandboxModel {
  const data = generateDataset(options.seed, options.now);
  const text = new ArticleText(data);
  const metrics = new Metrics(data, text);

  const countries: Country[] = data.countries.map(({ countryId, countryName, countryIso }) => ({ countryId, countryName, countryIso }));
  const countryIdBySlug = new Map(data.countries.map((c) => [c.slug, c.countryId]));
  // People as the API sends them, and folded for the search: made when first asked for (a ranking
  // needs neither).
  let peopleList: Person[] | undefined;
  const people = (): Person[] =>
    (peopleList ??= data.people.map((person) => ({
      personHash: person.personHash,
      fullName: person.fullName,
      description: person.description,
      gender: person.gender,
      category: person.category,
      countryId: person.countryIndex + 1,
      countryName: person.countryNameKnown ? data.countries[person.countryIndex]!.countryName : null,
      birthDate: person.birthDate,
      createdAt: formatTimestamp(person.createdSeconds),
      updatedAt: formatTimestamp(person.updatedSeconds),
    })));
  /** Per person: the folded "full name + hash" and full name, for the case- and accent-insensitive search. */
  let foldedList: Array<{ searchText: string; foldedName: string }> | undefined;
  const folded = () =>
    (foldedList ??= data.people.map((person) => ({
      searchText: searchFold(`${person.fullName} ${person.personHash}`),
      foldedName: searchFold(person.fullName),
    })));
  const sources: Source[] = data.sources.map((source) => ({
    sourceId: source.sourceId,
    name: source.name,
    url: source.url,
    countryId: source.countryIndex + 1,
    description: source.description,
    lastCheckedDate: source.lastCheckedDate,
    status: source.status,
    linkFilter: source.linkFilter,
    createdAt: source.createdAt,
    updatedAt: source.updatedAt,
    country: null,
  }));
  // Posts are written from 24 weekly rankings: built on the first request for a post, not at start.
  let postLists: { posts: Post[]; newestFirst: Post[] } | undefined;
  const publishedPosts = () => {
    if (!postLists) {
      const posts = buildPosts(data, (week) =>
        metrics.topPeople({ startWeek: week, endWeek: week, limit: 5, fresh: false, sortBy: 'mentions' }),
      );
      const newestFirst = [...posts].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.postId - a.postId));
      postLists = { posts, newestFirst };
    }
    return postLists;
  };
  const homepageCache = new Map<number, { all: string[]; matched: string[]; unmatched: string[] }>();
  let allTimeStats: ArticleStatsAllTime | undefined;

  const personIndex = (personHash: string): number | undefined => data.personIndexByHash.get(personHash);
  const countryIndex = (countryId: number): number | undefined =>
    Number.isInteger(countryId) && countryId >= 1 && countryId <= data.countries.length ? countryId - 1 : undefined;

  function countArticles(fromArticle: number): { totalArticles: number; totalSources: number; totalCountries: number } {
    const sourceSeen = new Uint8Array(data.sources.length);
    const countrySeen = new Uint8Array(data.countries.length);
    let totalSources = 0;
    let totalCountries = 0;
    for (let a = fromArticle; a < data.articleCount; a++) {
      const s = data.articleSource[a]!;
      if (sourceSeen[s]) continue;
      sourceSeen[s] = 1;
      totalSources++;
      const c = data.sources[s]!.countryIndex;
      if (!countrySeen[c]) {
        countrySeen[c] = 1;
        totalCountries++;
      }
    }
    return { totalArticles: data.articleCount - fromArticle, totalSources, totalCountries };
  }

  return {
    weekInfo: () => ({ currentWeek: data.currentWeek, last4StartWeek: data.last4StartWeek }),

    people: () => people().map((person) => ({ ...person })),

    person(personHash) {
      const p = personIndex(personHash);
      return p === undefined ? undefined : { ...people()[p]! };
    },

    searchPeople(query: PeopleSearchQuery) {
      const q = query.q === undefined ? undefined : searchFold(query.q.trim());
      const fullName = query.fullName === undefined ? undefined : searchFold(query.fullName.trim());
      const results: Person[] = [];
      const names = folded();
      for (const person of data.people) {
        const { searchText, foldedName } = names[person.index]!;
        if (results.length >= query.limit) break;
        if (query.personHash !== undefined && person.personHash !== query.personHash) continue;
        if (q !== undefined) {
          const hit = query.exactName ? foldedName === q || person.personHash === q : searchText.includes(q);
          if (!hit) continue;
        }
        if (fullName !== undefined) {
          const hit = query.exactName ? foldedName === fullName : foldedName.includes(fullName);
          if (!hit) continue;
        }
        if (query.countryId !== undefined && person.countryIndex !== query.countryId - 1) continue;
        if (query.gender !== undefined && person.gender !== query.gender) continue;
        results.push({ ...people()[person.index]! });
      }
      return results;
    },

    topPeople: (query) => metrics.topPeople(query),

    personLinks(personHash, query) {
      const p = personIndex(personHash);
      if (p === undefined) return undefined;
      const links: PersonLink[] = [];
      for (let i = data.personAppStart[p + 1]! - 1; i >= data.personAppStart[p]! && links.length < query.limit; i--) {
        const appearance = data.personApps[i]!;
        const article = data.appArticle[appearance]!;
        const sentimentMilli = data.details.appearanceSentimentMilli(appearance);
        const mentions = data.appMentionStart[appearance + 1]! - data.appMentionStart[appearance]!;
        const sentiment = roundMetric(sentimentMilli / mentions / 1000);
        const link: PersonLink = {
          personHash,
          articleHash: articleHashOf(data, article),
          mentionDate: formatTimestamp(data.details.published(article)),
          snippet: text.snippet(appearance),
          sentiment,
        };
        if (query.includeContext) {
          const source = data.sources[data.articleSource[article]!]!;
          const country = data.countries[source.countryIndex]!;
          const { title, url } = text.titleAndUrl(article);
          const articlePeople = text.peopleHashes(article);
          Object.assign(link, {
            sentimentColor: sentimentColor(sentiment),
            sentimentFace: sentimentFace(sentiment),
            articleTitle: title,
            articleUrl: url,
            articlePeople: articlePeople.join(','),
            otherPeople: articlePeople.filter((hash) => hash !== personHash),
            sourceId: source.sourceId,
            sourceName: source.name,
            sourceUrl: source.url,
            countryId: country.countryId,
            countryName: country.countryName,
            countryIso: country.countryIso,
          });
        }
        links.push(link);
      }
      return links;
    },

    personCountryStats(personHash, window) {
      const p = personIndex(personHash);
      return p === undefined ? undefined : metrics.personCountryStats(p, window);
    },

    countries: () => countries.map((country) => ({ ...country })),

    country(countryId) {
      const c = countryIndex(countryId);
      return c === undefined ? undefined : { ...countries[c]! };
    },

    countryBySlug(slug) {
      const countryId = countryIdBySlug.get(slug.toLowerCase());
      return countryId === undefined ? undefined : { ...countries[countryId - 1]! };
    },

    internationalAttention(countryId) {
      const c = countryIndex(countryId);
      return c === undefined ? undefined : metrics.internationalAttention(c);
    },

    domesticFocus(countryId, window) {
      const c = countryIndex(countryId);
      return c === undefined ? undefined : metrics.domesticFocus(c, window);
    },

    sources: (countryId) =>
      sources.filter((source) => countryId === undefined || source.countryId === countryId).map((source) => ({ ...source })),

    source(sourceId) {
      const source = Number.isInteger(sourceId) ? sources[sourceId - 1] : undefined;
      return source === undefined ? undefined : { ...source };
    },

    sourceLinks(sourceId, applyFilter) {
      const source = Number.isInteger(sourceId) ? data.sources[sourceId - 1] : undefined;
      if (source === undefined) return undefined;
      let links = homepageCache.get(source.index);
      if (!links) {
        const all = homepageLinks(data, text, source.index);
        const filter = new RegExp(source.linkFilter);
        links = { all, matched: all.filter((url) => filter.test(url)), unmatched: all.filter((url) => !filter.test(url)) };
        homepageCache.set(source.index, links);
      }
      return {
        source: { sourceId: source.sourceId, name: source.name },
        allLinks: [...links.all],
        // Without the filter, nothing is filtered out: every link counts as matched.
        matchedLinks: applyFilter ? [...links.matched] : [...links.all],
        unmatchedLinks: applyFilter ? [...links.unmatched] : [],
      };
    },

    recentPosts: (count) => publishedPosts().newestFirst.slice(0, count).map((post) => ({ ...post })),

    post(slug) {
      const post = publishedPosts().posts.find((candidate) => candidate.slug === slug);
      return post === undefined ? undefined : { ...post };
    },

    recentArticles(query) {
      const articles: Article[] = [];
      for (let a = data.articleCount - 1; a >= 0 && articles.length < query.limit; a--) {
        const source = data.sources[data.articleSource[a]!]!;
        const { title, url } = text.titleAndUrl(a);
        const article: Article = {
          articleHash: articleHashOf(data, a),
          url,
          title,
          sourceId: source.sourceId,
          people: text.peopleHashes(a).join(','),
        };
        if (query.includeSourceContext) {
          const country = data.countries[source.countryIndex]!;
          article.sourceName = source.name;
          article.sourceStatus = source.status;
          article.countryId = country.countryId;
          article.countryName = country.countryName;
          article.countryIso = country.countryIso;
        }
        articles.push(article);
      }
      return articles;
    },

    articleStats(days): ArticleStats {
      // Published within the last `days` days: after now - days*24h, up to now.
      const from = data.nowSeconds - days * 86_400;
      const published = data.details.allPublished();
      let low = 0;
      let high = data.articleCount;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if (published[mid]! > from) high = mid;
        else low = mid + 1;
      }
      return { days, ...countArticles(low) };
    },

    articleStatsAllTime() {
      allTimeStats ??= countArticles(0);
      return { ...allTimeStats };
    },
  };
}
