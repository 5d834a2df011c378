/**
 * Resolving what a user types for a country (id, ISO code, name or slug) against the countries list.
 * Pure: the caller fetches the list (or takes it from the cache).
 */
import { slugify } from '../slug.js';
import { closest, didYouMean } from '../suggest.js';

export interface CountryEntry {
  countryId: number;
  countryName: string;
  countryIso: string;
}

export type CountryQuery = { kind: 'id'; countryId: number } | { kind: 'text'; text: string };

/** Digits are an id and need no lookup; anything else is matched against the list. */
export function parseCountryQuery(text: string): CountryQuery {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { kind: 'id', countryId: Number(trimmed) };
  return { kind: 'text', text: trimmed };
}

/** ISO code first (DE, de), then the name, then the slug made from the name. */
export function matchCountry(text: string, countries: readonly CountryEntry[]): CountryEntry | undefined {
  const lower = text.toLowerCase();
  const slug = slugify(text);
  return (
    countries.find((country) => country.countryIso.toLowerCase() === lower) ??
    countries.find((country) => country.countryName.toLowerCase() === lower) ??
    countries.find((country) => slugify(country.countryName) === slug)
  );
}

/** Codes people type that are not the ISO code the list uses. */
const COUNTRY_ALIASES: Readonly<Record<string, string>> = { uk: 'GB', usa: 'US', uae: 'AE', el: 'GR' };

/**
 * What to say when nothing matches: `no country matches "UK" (id, ISO code, name or slug); did you
 * mean GB (United Kingdom)?`. Suggestions come from the common aliases, then names close to the text.
 */
export function noCountryMessage(text: string, countries: readonly CountryEntry[]): string {
  const label = (country: CountryEntry) => `${country.countryIso} (${country.countryName})`;
  const alias = COUNTRY_ALIASES[text.toLowerCase()];
  const aliased = countries.filter((country) => country.countryIso === alias);
  const byName = closest(text, countries.map((country) => country.countryName))
    .map((name) => countries.find((country) => country.countryName === name)!);
  const suggestions = (aliased.length > 0 ? aliased : byName).map(label);
  return `no country matches "${text}" (id, ISO code, name or slug)${didYouMean(suggestions)}`;
}
