/** People: the list, one person, search, the ranking, article links and per-country statistics. */
import { InvalidParameterError } from '../errors.js';
import type { NumberMode, Parsed } from '../json.js';
import { BOUNDS, type PeopleSearchParams, type PeopleTopParams, type Person, type PersonCountryStats, type PersonLink, type PersonLinksParams, type PersonStats, type WeekRange } from '../types.js';
import { APIResource, checkBound, checkInteger, checkText, path, quote, weekQuery, type CallOptions } from './base.js';

export class PeopleResource<M extends NumberMode> extends APIResource<M> {
  async list(options?: CallOptions): Promise<Parsed<M, Person[]>> {
    return this.request<Person[]>(path`/api/data/people`, {}, options);
  }

  async get(personHash: string, options?: CallOptions): Promise<Parsed<M, Person>> {
    checkText('personHash', personHash);
    return this.request<Person>(path`/api/data/people/${personHash}`, { notFound: `person ${quote(personHash)}` }, options);
  }

  /** Needs at least one of q, personHash, fullName (the server answers 400 otherwise). */
  async search(params: PeopleSearchParams, options?: CallOptions): Promise<Parsed<M, Person[]>> {
    const { q, personHash, fullName } = params;
    if (!q && !personHash && !fullName) {
      throw new InvalidParameterError('q', 'people search needs at least one of q, personHash, fullName');
    }
    return this.request<Person[]>(path`/api/data/people/search`, {
      query: {
        q, personHash, fullName,
        exactName: params.exactName,
        countryId: checkInteger('countryId', params.countryId),
        gender: checkInteger('gender', params.gender),
        limit: checkBound('limit', params.limit, BOUNDS.searchLimit),
      },
    }, options);
  }

  /** The ranked list; rank starts at 1. */
  async top(params: PeopleTopParams = {}, options?: CallOptions): Promise<Parsed<M, PersonStats[]>> {
    if (params.sortBy !== undefined && params.sortBy !== 'mentions' && params.sortBy !== 'dominance') {
      throw new InvalidParameterError('sortBy', `sortBy must be mentions or dominance (got ${quote(String(params.sortBy))})`);
    }
    return this.request<PersonStats[]>(path`/api/data/people/top`, {
      query: {
        ...weekQuery(params),
        limit: checkInteger('limit', params.limit),
        fresh: params.fresh,
        countryId: checkInteger('countryId', params.countryId),
        fromCountryId: checkInteger('fromCountryId', params.fromCountryId),
        gender: checkInteger('gender', params.gender),
        minAge: checkInteger('minAge', params.minAge),
        maxAge: checkInteger('maxAge', params.maxAge),
        newsCategory: params.newsCategory,
        sortBy: params.sortBy,
      },
    }, options);
  }

  async links(personHash: string, params: PersonLinksParams = {}, options?: CallOptions): Promise<Parsed<M, PersonLink[]>> {
    checkText('personHash', personHash);
    return this.request<PersonLink[]>(path`/api/data/people/${personHash}/links`, {
      query: { limit: checkBound('limit', params.limit, BOUNDS.linksLimit), includeContext: params.includeContext },
      notFound: `person ${quote(personHash)}`,
    }, options);
  }

  async countryStats(personHash: string, range?: WeekRange, options?: CallOptions): Promise<Parsed<M, PersonCountryStats>> {
    checkText('personHash', personHash);
    return this.request<PersonCountryStats>(path`/api/data/people/${personHash}/country-stats`, {
      query: weekQuery(range),
      notFound: `person ${quote(personHash)}`,
    }, options);
  }
}
