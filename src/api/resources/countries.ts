/** Countries: the list, one country by id or slug, international attention and domestic focus. */
import type { APIPromise } from '../api-promise.js';
import type { NumberMode, Parsed } from '../json.js';
import type { Country, DomesticFocus, IdentifierInput, InternationalAttention, WeekRange } from '../types.js';
import { APIResource, checkId, checkText, quote, weekQuery, type CallOptions } from './base.js';

export class CountriesResource<M extends NumberMode> extends APIResource<M> {
  /** Every country the service knows: id, name and ISO code. Stable: cache it (the CLI does, for 24 hours). */
  list(options?: CallOptions): APIPromise<Parsed<M, Country[]>> {
    return this.request<Country[]>(() => ({ endpoint: '/api/data/countries' }), options);
  }

  /** One country by its id; `NotFoundError` when there is none. */
  get(countryId: IdentifierInput, options?: CallOptions): APIPromise<Parsed<M, Country>> {
    return this.request<Country>(() => ({
      endpoint: '/api/data/countries/{countryId}', params: { countryId: checkId('countryId', countryId) },
      notFound: `country ${countryId}`,
    }), options);
  }

  /** One country by its slug (the service's text key; its format is not published); `NotFoundError` when there is none. */
  getBySlug(slug: string, options?: CallOptions): APIPromise<Parsed<M, Country>> {
    return this.request<Country>(() => ({
      endpoint: '/api/data/countries/slug/{slug}', params: { slug: checkText('slug', slug) },
      notFound: `country slug ${quote(slug)}`,
    }), options);
  }

  /** How much the world's news mentions this country. */
  attention(countryId: IdentifierInput, options?: CallOptions): APIPromise<Parsed<M, InternationalAttention>> {
    return this.request<InternationalAttention>(() => ({
      endpoint: '/api/data/countries/{countryId}/international-attention', params: { countryId: checkId('countryId', countryId) },
      notFound: `country ${countryId}`,
    }), options);
  }

  /** How much this country's news is about itself, over a week range. */
  focus(countryId: IdentifierInput, range?: WeekRange, options?: CallOptions): APIPromise<Parsed<M, DomesticFocus>> {
    return this.request<DomesticFocus>(() => ({
      endpoint: '/api/data/countries/{countryId}/domestic-focus', params: { countryId: checkId('countryId', countryId) },
      query: weekQuery(range),
      notFound: `country ${countryId}`,
    }), options);
  }
}
