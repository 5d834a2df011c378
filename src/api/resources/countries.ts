/** Countries: the list, one country by id or slug, international attention and domestic focus. */
import type { NumberMode, Parsed } from '../json.js';
import type { Country, DomesticFocus, InternationalAttention, WeekRange } from '../types.js';
import { APIResource, checkId, checkText, path, quote, weekQuery, type CallOptions } from './base.js';

export class CountriesResource<M extends NumberMode> extends APIResource<M> {
  async list(options?: CallOptions): Promise<Parsed<M, Country[]>> {
    return this.request<Country[]>(path`/api/data/countries`, {}, options);
  }

  async get(countryId: number, options?: CallOptions): Promise<Parsed<M, Country>> {
    checkId('countryId', countryId);
    return this.request<Country>(path`/api/data/countries/${countryId}`, { notFound: `country ${countryId}` }, options);
  }

  async getBySlug(slug: string, options?: CallOptions): Promise<Parsed<M, Country>> {
    checkText('slug', slug);
    return this.request<Country>(path`/api/data/countries/slug/${slug}`, { notFound: `country slug ${quote(slug)}` }, options);
  }

  /** How much the world's news mentions this country. */
  async attention(countryId: number, options?: CallOptions): Promise<Parsed<M, InternationalAttention>> {
    checkId('countryId', countryId);
    return this.request<InternationalAttention>(path`/api/data/countries/${countryId}/international-attention`, {
      notFound: `country ${countryId}`,
    }, options);
  }

  /** How much this country's news is about itself, over a week range. */
  async focus(countryId: number, range?: WeekRange, options?: CallOptions): Promise<Parsed<M, DomesticFocus>> {
    checkId('countryId', countryId);
    return this.request<DomesticFocus>(path`/api/data/countries/${countryId}/domestic-focus`, {
      query: weekQuery(range),
      notFound: `country ${countryId}`,
    }, options);
  }
}
