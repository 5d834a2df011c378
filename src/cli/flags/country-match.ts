/**
 * Resolving what a user types for a country (id, ISO code, name or slug) against the countries list.
 * Pure: the caller hands over the list (from the cache or the API) and the client for slugs.
 */
import type { NewsStatsClient } from '../../api/client.js';
import type { Country } from '../../api/types.js';
import { slugify } from '../../shared/slug.js';
import { closest, didYouMean } from '../../shared/suggest.js';
import { UsageError } from '../run/errors.js';

export type CountryQuery = { kind: 'id'; countryId: number | string } | { kind: 'text'; text: string };

/** Digits are an id and need no lookup; anything else is matched against the list. */
export function parseCountryQuery(text: string): CountryQuery {
  const trimmed = text.trim();
  // Beyond 2^53 the digits stay a string: a number would round them to another country.
  if (/^\d+$/.test(trimmed)) return { kind: 'id', countryId: Number.isSafeInteger(Number(trimmed)) ? Number(trimmed) : trimmed };
  return { kind: 'text', text: trimmed };
}

/** ISO code first (DE, de), then the name, then the slug made from the name. */
export function matchCountry(text: string, countries: readonly Country[]): Country | undefined {
  const lower = text.toLowerCase();
  const slug = slugify(text);
  return (
    countries.find((country) => country.countryIso?.toLowerCase() === lower) ??
    countries.find((country) => country.countryName?.toLowerCase() === lower) ??
    countries.find((country) => typeof country.countryName === 'string' && slugify(country.countryName) === slug)
  );
}

/** Codes people type that are not the ISO code the list uses. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { uk: 'GB', usa: 'US', uae: 'AE', el: 'GR' };

/**
 * What to say when nothing matches: `no country matches "UK" (id, ISO code, name or slug); did you
 * mean GB (United Kingdom)?`. Suggestions come from the common aliases, then names close to the text.
 */
export function noCountryMessage(text: string, countries: readonly Country[]): string {
  // A country may come without its code or name (the contract lets both be null): its id stands in.
  const label = (country: Country) =>
    `${country.countryIso ?? `id ${country.countryId}`}${typeof country.countryName === 'string' ? ` (${country.countryName})` : ''}`;
  const alias = COUNTRY_ALIASES[text.toLowerCase()];
  const aliased = countries.filter((country) => country.countryIso === alias);
  const byName = closest(text, countries.flatMap((country) => (typeof country.countryName === 'string' ? [country.countryName] : [])))
    .map((name) => countries.find((country) => country.countryName === name)!);
  const suggestions = (aliased.length > 0 ? aliased : byName).map(label);
  return `no country matches "${text}" (id, ISO code, name or slug)${didYouMean(suggestions)}`;
}

/** Where resolution looks: the run's countries list (cached) and, for slugs it cannot match, the client. */
export interface CountrySource {
  countries(): Promise<Country[]>;
  client(): Promise<NewsStatsClient<'lossless'>>;
}

/** An id, ISO code, name or slug, as a countryId. Ids are taken as given and cost no request. */
export async function resolveCountryId(text: string, source: CountrySource): Promise<number | string> {
  // An empty name would match nothing and end as a request for the slug "" (or the list of all).
  if (text.trim() === '') throw new UsageError('the country is empty', 'give an id, ISO code, name or slug, e.g. DE');
  const query = parseCountryQuery(text);
  if (query.kind === 'id') return query.countryId;
  const match = matchCountry(query.text, await source.countries());
  if (match) return match.countryId;
  // Not a code or a name we know: the service's slug endpoint is the authority on slugs. Text
  // it does not know either is the user's typo (exit 2 with suggestions), not a missing resource.
  const { NotFoundError } = await import('../../api/errors.js');
  try {
    const country = await (await source.client()).countries.getBySlug(query.text);
    const { answerId } = await import('../../api/answer-integers.js');
    return answerId(country.countryId, 'countryId', '/api/data/countries/slug/{slug}');
  } catch (error) {
    if (error instanceof NotFoundError) throw new UsageError(noCountryMessage(query.text, await source.countries()));
    throw error;
  }
}
