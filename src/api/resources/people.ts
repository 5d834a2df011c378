/** People: the list, one person, search, the ranking, article links and per-country statistics. */
import type { APIPromise } from '../api-promise.js';
import { InvalidParameterError } from '../errors.js';
import type { NumberMode, Parsed } from '../json.js';
import {
  BOUNDS,
  type PeopleSearchParams,
  type PeopleSearchRequest,
  type SearchTerm,
  type PeopleTopParams,
  type Person,
  type PersonCountryStats,
  type PersonLink,
  type PersonLinkBase,
  type PersonLinksParams,
  type PersonLinkWithContext,
  type PersonStats,
  type WeekRange,
} from '../types.js';
import { APIResource, checkBound, checkInteger, checkOptionalId, checkText, quote, weekQuery, type CallOptions } from './base.js';

/** Whether the parameters name something to search by (a non-empty q, personHash or fullName). */
export function hasSearchTerm<P extends PeopleSearchParams>(params: P): params is P & SearchTerm {
  return Boolean(params.q || params.personHash || params.fullName);
}

export class PeopleResource<M extends NumberMode> extends APIResource<M> {
  /** Every person the service tracks (the whole list: prefer `search` or `top` in frequent polling). */
  list(options?: CallOptions): APIPromise<Parsed<M, Person[]>> {
    return this.request<Person[]>(() => ({ endpoint: '/api/data/people' }), options);
  }

  /** One person's record by `personHash`; `NotFoundError` when there is none. */
  get(personHash: string, options?: CallOptions): APIPromise<Parsed<M, Person>> {
    return this.request<Person>(() => ({
      endpoint: '/api/data/people/{personHash}', params: { personHash: checkText('personHash', personHash) },
      notFound: `person ${quote(personHash)}`,
    }), options);
  }

  /** Needs at least one of q, personHash, fullName (the types say so; the server answers 400 otherwise). */
  search(params: PeopleSearchRequest, options?: CallOptions): APIPromise<Parsed<M, Person[]>> {
    return this.request<Person[]>(() => {
      if (!hasSearchTerm(params)) {
        throw new InvalidParameterError('q', 'people search needs at least one of q, personHash, fullName');
      }
      const { q, personHash, fullName } = params;
      return {
        endpoint: '/api/data/people/search',
        query: {
          q, personHash, fullName,
          exactName: params.exactName,
          countryId: checkOptionalId('countryId', params.countryId),
          gender: checkInteger('gender', params.gender),
          limit: checkBound('limit', params.limit, BOUNDS.searchLimit),
        },
      };
    }, options);
  }

  /** The ranked list; rank starts at 1. */
  top(params: PeopleTopParams = {}, options?: CallOptions): APIPromise<Parsed<M, PersonStats[]>> {
    return this.request<PersonStats[]>(() => {
      if (params.sortBy !== undefined && params.sortBy !== 'mentions' && params.sortBy !== 'dominance') {
        throw new InvalidParameterError('sortBy', `sortBy must be mentions or dominance (got ${quote(String(params.sortBy))})`);
      }
      return {
        endpoint: '/api/data/people/top',
        query: {
          ...weekQuery(params),
          limit: checkInteger('limit', params.limit),
          fresh: params.fresh,
          countryId: checkOptionalId('countryId', params.countryId),
          fromCountryId: checkOptionalId('fromCountryId', params.fromCountryId),
          gender: checkInteger('gender', params.gender),
          minAge: checkInteger('minAge', params.minAge),
          maxAge: checkInteger('maxAge', params.maxAge),
          newsCategory: params.newsCategory,
          sortBy: params.sortBy,
        },
      };
    }, options);
  }

  /** With context (the default), every context field is there; with includeContext false, none is. */
  links(personHash: string, params?: PersonLinksParams & { includeContext?: true | undefined }, options?: CallOptions): APIPromise<Parsed<M, PersonLinkWithContext[]>>;
  links(personHash: string, params: PersonLinksParams & { includeContext: false }, options?: CallOptions): APIPromise<Parsed<M, PersonLinkBase[]>>;
  links(personHash: string, params?: PersonLinksParams, options?: CallOptions): APIPromise<Parsed<M, PersonLink[]>>;
  links(personHash: string, params: PersonLinksParams = {}, options?: CallOptions): APIPromise<Parsed<M, PersonLink[]>> {
    return this.request<PersonLink[]>(() => ({
      endpoint: '/api/data/people/{personHash}/links', params: { personHash: checkText('personHash', personHash) },
      query: { limit: checkBound('limit', params.limit, BOUNDS.linksLimit), includeContext: params.includeContext },
      notFound: `person ${quote(personHash)}`,
    }), options);
  }

  /**
   * One person's statistics per country over a week range (both ends optional: the service then uses
   * its own default window and says which in `startWeek`/`endWeek`), with global totals.
   */
  countryStats(personHash: string, range?: WeekRange, options?: CallOptions): APIPromise<Parsed<M, PersonCountryStats>> {
    return this.request<PersonCountryStats>(() => ({
      endpoint: '/api/data/people/{personHash}/country-stats', params: { personHash: checkText('personHash', personHash) },
      query: weekQuery(range),
      notFound: `person ${quote(personHash)}`,
    }), options);
  }
}
