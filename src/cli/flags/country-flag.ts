/**
 * A --country or --from-country flag: most runs give none, so country matching (the country list,
 * slugs and suggestions: three chunks of the bundle) is loaded only when one is given.
 */
import type { CountrySource } from './country-match.js';

/** The id of the country the flag names, or undefined when the flag was not given. */
export async function countryFlagId(country: string | undefined, source: CountrySource): Promise<number | string | undefined> {
  if (country === undefined) return undefined;
  const { resolveCountryId } = await import('./country-match.js');
  return resolveCountryId(country, source);
}
