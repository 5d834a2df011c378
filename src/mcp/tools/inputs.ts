/**
 * Arguments several tools share, described for a model: the week window, paging, and the ranking
 * filters of the contract's ranked list (the CLI's `people top` flags, under the same names).
 */
import * as z from 'zod';
import { GENDER_CODES } from '../../api/gender.js';
import { AGE_BOUNDS, type PeopleTopParams } from '../../api/types.js';
import type { McpDependencies } from '../context.js';
import { ToolInputError } from '../errors.js';
import { WEEKS_DESCRIPTION } from '../window.js';

export const weeksInput = (fallback: string) =>
  z.union([z.string(), z.number().int()]).optional().describe(`${WEEKS_DESCRIPTION} Default ${fallback}.`);

export const cursorInput = z.string().optional().describe('nextCursor of the previous page; leave out for the first page');

export const limitInput = (what: string, max: number, fallback: number) =>
  z.number().int().min(1).max(max).optional().describe(`how many ${what} to return (1-${max}, default ${fallback})`);

export const countryInput = (what: string) => z.string().optional().describe(`${what}: a country id, ISO code (DE), English name (Germany) or slug`);

const GENDERS = Object.keys(GENDER_CODES) as [keyof typeof GENDER_CODES, ...Array<keyof typeof GENDER_CODES>];

/** The ranked list's filters (contract: /api/data/people/top). */
export const rankingInput = {
  sortBy: z.enum(['mentions', 'dominance']).optional().describe('rank by mention count (default) or by dominance'),
  country: countryInput('count only mentions in this country\'s news'),
  fromCountry: countryInput('only people from this country'),
  gender: z.enum(GENDERS).optional().describe('only people of this gender'),
  minAge: z.number().int().min(AGE_BOUNDS.min).max(AGE_BOUNDS.max).optional().describe('only people at least this old (years)'),
  maxAge: z.number().int().min(AGE_BOUNDS.min).max(AGE_BOUNDS.max).optional().describe('only people at most this old (years)'),
  category: z.string().min(1).optional().describe('only people of this news category, as the service names it (e.g. politics)'),
  fresh: z.boolean().optional().describe('only people new in the window (the service decides what fresh means)'),
};

export type RankingInput = { [K in keyof typeof rankingInput]?: z.infer<(typeof rankingInput)[K]> };

/** The ranked list's query for these filters, countries resolved to ids; the filters as given, for the result. */
export async function rankingQuery(args: RankingInput, deps: McpDependencies): Promise<{ params: PeopleTopParams; filters: Record<string, string | number | boolean> }> {
  if (args.minAge !== undefined && args.maxAge !== undefined && args.minAge > args.maxAge) {
    throw new ToolInputError(`minAge ${args.minAge} is above maxAge ${args.maxAge}`);
  }
  const idOf = async (text: string | undefined) => (text === undefined ? undefined : deps.countryId(text));
  const [countryId, fromCountryId] = await Promise.all([idOf(args.country), idOf(args.fromCountry)]);
  const params: PeopleTopParams = {
    sortBy: args.sortBy,
    countryId,
    fromCountryId,
    gender: args.gender === undefined ? undefined : GENDER_CODES[args.gender],
    minAge: args.minAge,
    maxAge: args.maxAge,
    newsCategory: args.category,
    fresh: args.fresh || undefined,
  };
  const filters = Object.fromEntries(Object.entries(args).filter(([name, value]) => name in rankingInput && value !== undefined && name !== 'sortBy')) as Record<string, string | number | boolean>;
  return { params, filters };
}

/** `country DE · from FR · female · aged 30–60`: the filters as given, for a result's text. */
export function filtersText(filters: Record<string, string | number | boolean>): string {
  const parts = Object.entries(filters).map(([name, value]) => (value === true ? name : `${name} ${String(value)}`));
  return parts.length === 0 ? '' : ` Filters: ${parts.join(', ')}.`;
}
