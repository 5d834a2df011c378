/**
 * The people-top filters, shared by `people top`, its per-week panels and the bulk exports, so the
 * same flags mean the same query everywhere.
 */
import { AGE_BOUNDS, type PeopleTopParams } from '../../api/types.js';
import type { WeekWindow } from '../../shared/weeks.js';
import type { Context } from '../run/spec.js';
import { countryFlagId } from './country-flag.js';
import type { CountrySource } from './country-match.js';
import { UsageError } from '../run/errors.js';
import { choiceFlag, countryFlag, genderFlag, integerFlag, nonEmpty, parsedFlag, switchFlag } from './options.js';
import type { FlagValues } from '../run/spec.js';

export function rankingFlags(limitDescription = 'how many people') {
  return {
    limit: integerFlag('--limit <n>', limitDescription, { min: 1 }),
    fresh: switchFlag('--fresh', 'only people new in the window (the service decides what fresh means)'),
    country: countryFlag('--country <country>', 'count mentions in this country\'s news only (id, ISO code, name or slug)'),
    fromCountry: countryFlag('--from-country <country>', 'only people from this country (id, ISO code, name or slug)'),
    gender: genderFlag(),
    minAge: integerFlag('--min-age <years>', 'only people at least this old', AGE_BOUNDS),
    maxAge: integerFlag('--max-age <years>', 'only people at most this old', AGE_BOUNDS),
    category: parsedFlag('--category <name>', 'only people of this news category', nonEmpty('--category')),
    sort: choiceFlag('--sort <metric>', 'rank by', ['mentions', 'dominance']),
  };
}

export type RankingFlags = FlagValues<ReturnType<typeof rankingFlags>>;

export function validateRanking(flags: RankingFlags): void {
  if (flags.minAge !== undefined && flags.maxAge !== undefined && flags.minAge > flags.maxAge) {
    throw new UsageError(`--min-age ${flags.minAge} is above --max-age ${flags.maxAge}`);
  }
}

/** The query for one ranking; countries are resolved once by the caller's context (and its cache). */
export async function rankingParams(ctx: Context, flags: RankingFlags, window: WeekWindow | undefined, countries: CountrySource = ctx.deps): Promise<PeopleTopParams> {
  const [countryId, fromCountryId] = await Promise.all([flags.country, flags.fromCountry].map((country) => countryFlagId(country, countries)));
  return {
    ...window,
    limit: flags.limit,
    fresh: flags.fresh || undefined,
    countryId,
    fromCountryId,
    gender: flags.gender,
    minAge: flags.minAge,
    maxAge: flags.maxAge,
    newsCategory: flags.category,
    sortBy: flags.sort,
  };
}

/** The metric a ranking is sorted by, as its field name in the ranked list. */
export function sortField(sort: RankingFlags['sort']): 'mentionCount' | 'dominance' {
  return sort === 'dominance' ? 'dominance' : 'mentionCount';
}
