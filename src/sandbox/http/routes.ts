/**
 * The 20 contract endpoints: how each path maps to the model, which parameters it reads, their
 * defaults and bounds. A handler validates everything first (throwing 400s) and returns a cache
 * key built from the validated values plus a `produce` step that asks the model; the server only
 * calls `produce` on a cache miss. Because the key holds the values after defaults, `?limit=20`
 * and no limit share one cache entry.
 */
import { AGE_BOUNDS, API_ROOT, BOUNDS, type WeekInfo } from '../../api/types.js';
import type { SandboxModel } from '../model.js';
import { HttpProblem, badRequest, notFound } from './problem.js';
import {
  boundedInteger,
  optionalBoolean,
  optionalInteger,
  optionalText,
  optionalIdentifier,
  pathInteger,
  sortByParam,
  weekWindow,
  type Query,
} from './params.js';

/** Defaults and bounds the contract leaves open (documented in docs/sandbox-server.md). */
export const SANDBOX_DEFAULTS = {
  searchLimit: 20,
  topLimit: 50,
  linksLimit: 50,
  postsCount: 10,
  articlesLimit: 50,
  statsDays: 7,
} as const;

export const SANDBOX_BOUNDS = {
  ...BOUNDS,
  topLimit: { min: 1, max: 1000 },
  age: AGE_BOUNDS,
} as const;

export interface Resolved {
  /** Identifies the answer: same key, same body (the model is deterministic). */
  key: string;
  /** Computes the answer; throws a 404 HttpProblem when the addressed thing does not exist. */
  produce(): unknown;
}

export interface RouteContext {
  model: SandboxModel;
  weekInfo: WeekInfo;
}

type Handler = (context: RouteContext, pathParams: string[], query: Query) => Resolved;

interface Route {
  /** Segments after /api/data; ':' marks a parameter. Literal routes come first, so they win. */
  segments: string[];
  handle: Handler;
}

function resolved(name: string, args: unknown[], produce: () => unknown): Resolved {
  return { key: name + JSON.stringify(args), produce };
}

function found<T>(value: T | undefined, title: string): T {
  if (value === undefined) throw notFound(title);
  return value;
}

const noPerson = (personHash: string) => `No person with personHash '${personHash}'`;
const noCountry = (countryId: number) => `No country with countryId ${countryId}`;
const noSource = (sourceId: number) => `No source with sourceId ${sourceId}`;

const ROUTES: Route[] = [
  {
    segments: ['weeks', 'current'],
    handle: ({ model }) => resolved('weeks/current', [], () => model.weekInfo()),
  },
  {
    segments: ['people'],
    handle: ({ model }) => resolved('people', [], () => model.people()),
  },
  {
    segments: ['people', 'search'],
    handle: ({ model }, _path, query) => {
      const search = {
        q: optionalText(query, 'q'),
        personHash: optionalText(query, 'personHash'),
        fullName: optionalText(query, 'fullName'),
        exactName: optionalBoolean(query, 'exactName', false),
        countryId: optionalIdentifier(query, 'countryId'),
        gender: optionalInteger(query, 'gender'),
        limit: boundedInteger(query, 'limit', SANDBOX_BOUNDS.searchLimit, SANDBOX_DEFAULTS.searchLimit),
      };
      if (search.q === undefined && search.personHash === undefined && search.fullName === undefined) {
        throw badRequest('people search needs at least one of q, personHash, fullName');
      }
      return resolved('people/search', [search], () => model.searchPeople(search));
    },
  },
  {
    segments: ['people', 'top'],
    handle: ({ model, weekInfo }, _path, query) => {
      const window = weekWindow(query, weekInfo);
      const top = {
        ...window,
        limit: boundedInteger(query, 'limit', SANDBOX_BOUNDS.topLimit, SANDBOX_DEFAULTS.topLimit),
        fresh: optionalBoolean(query, 'fresh', false),
        countryId: optionalIdentifier(query, 'countryId'),
        fromCountryId: optionalIdentifier(query, 'fromCountryId'),
        gender: optionalInteger(query, 'gender'),
        minAge: boundedInteger(query, 'minAge', SANDBOX_BOUNDS.age),
        maxAge: boundedInteger(query, 'maxAge', SANDBOX_BOUNDS.age),
        newsCategory: optionalText(query, 'newsCategory'),
        sortBy: sortByParam(query),
      };
      if (top.minAge !== undefined && top.maxAge !== undefined && top.minAge > top.maxAge) {
        throw badRequest(`minAge ${top.minAge} is greater than maxAge ${top.maxAge}`);
      }
      return resolved('people/top', [top], () => model.topPeople(top));
    },
  },
  {
    segments: ['people', ':personHash'],
    handle: ({ model }, [personHash]) =>
      resolved('person', [personHash], () => found(model.person(personHash!), noPerson(personHash!))),
  },
  {
    segments: ['people', ':personHash', 'links'],
    handle: ({ model }, [personHash], query) => {
      const links = {
        limit: boundedInteger(query, 'limit', SANDBOX_BOUNDS.linksLimit, SANDBOX_DEFAULTS.linksLimit),
        includeContext: optionalBoolean(query, 'includeContext', true),
      };
      return resolved('person/links', [personHash, links], () =>
        found(model.personLinks(personHash!, links), noPerson(personHash!)),
      );
    },
  },
  {
    segments: ['people', ':personHash', 'country-stats'],
    handle: ({ model, weekInfo }, [personHash], query) => {
      const window = weekWindow(query, weekInfo);
      return resolved('person/country-stats', [personHash, window], () =>
        found(model.personCountryStats(personHash!, window), noPerson(personHash!)),
      );
    },
  },
  {
    segments: ['countries'],
    handle: ({ model }) => resolved('countries', [], () => model.countries()),
  },
  {
    segments: ['countries', 'slug', ':slug'],
    handle: ({ model }, [slug]) =>
      resolved('country/slug', [slug], () => found(model.countryBySlug(slug!), `No country with slug '${slug}'`)),
  },
  {
    segments: ['countries', ':countryId'],
    handle: ({ model }, [segment]) => {
      const countryId = pathInteger(segment!, 'countryId');
      return resolved('country', [countryId], () => found(model.country(countryId), noCountry(countryId)));
    },
  },
  {
    segments: ['countries', ':countryId', 'international-attention'],
    handle: ({ model }, [segment]) => {
      const countryId = pathInteger(segment!, 'countryId');
      return resolved('country/international-attention', [countryId], () =>
        found(model.internationalAttention(countryId), noCountry(countryId)),
      );
    },
  },
  {
    segments: ['countries', ':countryId', 'domestic-focus'],
    handle: ({ model, weekInfo }, [segment], query) => {
      const countryId = pathInteger(segment!, 'countryId');
      const window = weekWindow(query, weekInfo);
      return resolved('country/domestic-focus', [countryId, window], () =>
        found(model.domesticFocus(countryId, window), noCountry(countryId)),
      );
    },
  },
  {
    segments: ['sources'],
    handle: ({ model }, _path, query) => {
      const countryId = optionalIdentifier(query, 'countryId');
      return resolved('sources', [countryId ?? null], () => model.sources(countryId));
    },
  },
  {
    segments: ['sources', ':sourceId'],
    handle: ({ model }, [segment]) => {
      const sourceId = pathInteger(segment!, 'sourceId');
      return resolved('source', [sourceId], () => found(model.source(sourceId), noSource(sourceId)));
    },
  },
  {
    segments: ['sources', ':sourceId', 'links'],
    handle: ({ model }, [segment], query) => {
      const sourceId = pathInteger(segment!, 'sourceId');
      const applyFilter = optionalBoolean(query, 'applyFilter', true);
      return resolved('source/links', [sourceId, applyFilter], () =>
        found(model.sourceLinks(sourceId, applyFilter), noSource(sourceId)),
      );
    },
  },
  {
    segments: ['posts', 'recent'],
    handle: ({ model }, _path, query) => {
      const count = boundedInteger(query, 'count', SANDBOX_BOUNDS.postsCount, SANDBOX_DEFAULTS.postsCount);
      return resolved('posts/recent', [count], () => model.recentPosts(count));
    },
  },
  {
    segments: ['posts', ':slug'],
    handle: ({ model }, [slug]) =>
      resolved('post', [slug], () => found(model.post(slug!), `No post with slug '${slug}'`)),
  },
  {
    segments: ['articles', 'recent'],
    handle: ({ model }, _path, query) => {
      const recent = {
        limit: boundedInteger(query, 'limit', SANDBOX_BOUNDS.articlesLimit, SANDBOX_DEFAULTS.articlesLimit),
        includeSourceContext: optionalBoolean(query, 'includeSourceContext', true),
      };
      return resolved('articles/recent', [recent], () => model.recentArticles(recent));
    },
  },
  {
    segments: ['articles', 'stats'],
    handle: ({ model }, _path, query) => {
      const days = boundedInteger(query, 'days', SANDBOX_BOUNDS.statsDays, SANDBOX_DEFAULTS.statsDays);
      return resolved('articles/stats', [days], () => model.articleStats(days));
    },
  },
  {
    segments: ['articles', 'stats', 'all-time'],
    handle: ({ model }) => resolved('articles/stats/all-time', [], () => model.articleStatsAllTime()),
  },
];


/** Every routed path, written as the contract writes it ({personHash}): tests compare it with ENDPOINTS. */
export function routeTemplates(): string[] {
  return ROUTES.map((route) => `${API_ROOT}/${route.segments.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`);
}

export interface RouteMatch {
  /** Validates the query (400s) and returns the cache key and the producer. */
  resolve(context: RouteContext, query: Query): Resolved;
}

/**
 * Finds the route for a path (without its query). Undefined when no endpoint lives there; throws a
 * 400 HttpProblem for a path with malformed percent-encoding.
 */
export function findRoute(pathname: string): RouteMatch | undefined {
  const segments = splitApiPath(pathname);
  if (!segments) return undefined;
  for (const route of ROUTES) {
    const pathParams = matchSegments(route.segments, segments);
    if (pathParams) return { resolve: (context, query) => route.handle(context, pathParams, query) };
  }
  return undefined;
}

/** Segments after /api/data, decoded; undefined when the path is outside the API root. */
function splitApiPath(pathname: string): string[] | undefined {
  if (!pathname.startsWith(API_ROOT + '/')) return undefined;
  // One trailing slash is tolerated (/api/data/people/ is /api/data/people), as ASP.NET routing does.
  const rest = pathname.slice(API_ROOT.length + 1).replace(/\/$/, '');
  if (rest === '') return undefined;
  try {
    return rest.split('/').map((segment) => decodeURIComponent(segment));
  } catch {
    throw new HttpProblem(400, 'The path has malformed percent-encoding');
  }
}

function matchSegments(pattern: string[], segments: string[]): string[] | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: string[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const expected = pattern[index]!;
    const actual = segments[index]!;
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      params.push(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
