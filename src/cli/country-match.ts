/**
 * Resolving what a user types for a country (id, ISO code, name or slug) against the countries list.
 * Pure: the caller hands over the list (from the cache or the API) and the client for slugs.
 */
import type { NewsStatsClient } from '../api/client.js';
import type { Country } from '../api/types.js';
import { slugify } from '../slug.js';

export type CountryQuery = { kind: 'id'; countryId: number } | { kind: 'text'; text: string };

/** Digits are an id and need no lookup; anything else is matched against the list. */
export function parseCountryQuery(text: string): CountryQuery {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { kind: 'id', countryId: Number(trimmed) };
  return { kind: 'text', text: trimmed };
}

/** ISO code first (DE, de), then the name, then the slug made from the name. */
export function matchCountry(text: string, countries: readonly Country[]): Country | undefined {
  const lower = text.toLowerCase();
  const slug = slugify(text);
  return (
    countries.find((country) => country.countryIso.toLowerCase() === lower) ??
    countries.find((country) => country.countryName.toLowerCase() === lower) ??
    countries.find((country) => slugify(country.countryName) === slug)
  );
}

/** Where resolution looks: the run's countries list (cached) and, for slugs it cannot match, the client. */
export interface CountrySource {
  countries(): Promise<Country[]>;
  client(): Promise<NewsStatsClient<'lossless'>>;
}

/** An id, ISO code, name or slug, as a countryId. Ids are taken as given and cost no request. */
export async function resolveCountryId(text: string, source: CountrySource): Promise<number> {
  const query = parseCountryQuery(text);
  if (query.kind === 'id') return query.countryId;
  const match = matchCountry(query.text, await source.countries());
  if (match) return match.countryId;
  // Not a code or a name we know: the service's slug endpoint is the authority on slugs.
  const country = await (await source.client()).countries.getBySlug(query.text);
  return Number(String(country.countryId));
}
