/**
 * Resolving what a user types for a country (id, ISO code, name or slug) against the countries list.
 * Pure: the caller fetches the list (or takes it from the cache).
 */
import { slugify } from '../slug.js';

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
