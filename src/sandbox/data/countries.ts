/**
 * The sandbox's static country table: real names and ISO 3166-1 alpha-2 codes, with approximate
 * 2023 population and GDP (current US dollars), rounded. countryId is the 1-based row position,
 * so it is stable for every seed.
 */

import { slugify } from './slug.js';

export type Region =
  | 'europe'
  | 'north-america'
  | 'latin-america'
  | 'middle-east-north-africa'
  | 'sub-saharan-africa'
  | 'south-asia'
  | 'east-asia'
  | 'southeast-asia'
  | 'oceania';

export interface CountryRecord {
  countryId: number;
  countryName: string;
  countryIso: string;
  slug: string;
  population: number;
  gdp: number;
  region: Region;
  /** Name cultures (keys of NAME_CULTURES) people from this country draw their names from. */
  cultures: readonly string[];
}

type Row = [name: string, iso: string, population: number, gdpBillions: number, region: Region, cultures: string];

const ROWS: readonly Row[] = [
  ['Argentina', 'AR', 46_000_000, 641, 'latin-america', 'spanish'],
  ['Australia', 'AU', 26_600_000, 1_724, 'oceania', 'english'],
  ['Austria', 'AT', 9_100_000, 516, 'europe', 'german'],
  ['Bangladesh', 'BD', 172_000_000, 437, 'south-asia', 'bengali'],
  ['Belgium', 'BE', 11_800_000, 632, 'europe', 'dutch,french'],
  ['Brazil', 'BR', 216_400_000, 2_174, 'latin-america', 'portuguese'],
  ['Canada', 'CA', 40_000_000, 2_140, 'north-america', 'english,french'],
  ['Chile', 'CL', 19_600_000, 335, 'latin-america', 'spanish'],
  ['China', 'CN', 1_410_000_000, 17_795, 'east-asia', 'chinese'],
  ['Colombia', 'CO', 52_100_000, 364, 'latin-america', 'spanish'],
  ["Côte d'Ivoire", 'CI', 28_900_000, 79, 'sub-saharan-africa', 'french,west-african'],
  ['Czechia', 'CZ', 10_900_000, 330, 'europe', 'czech'],
  ['Denmark', 'DK', 5_900_000, 404, 'europe', 'nordic'],
  ['Egypt', 'EG', 112_700_000, 396, 'middle-east-north-africa', 'arabic'],
  ['Ethiopia', 'ET', 126_500_000, 163, 'sub-saharan-africa', 'east-african'],
  ['Finland', 'FI', 5_600_000, 300, 'europe', 'finnish'],
  ['France', 'FR', 68_200_000, 3_031, 'europe', 'french'],
  ['Germany', 'DE', 84_500_000, 4_456, 'europe', 'german'],
  ['Ghana', 'GH', 34_100_000, 76, 'sub-saharan-africa', 'west-african'],
  ['Greece', 'GR', 10_400_000, 243, 'europe', 'greek'],
  ['India', 'IN', 1_428_600_000, 3_550, 'south-asia', 'hindi'],
  ['Indonesia', 'ID', 277_500_000, 1_371, 'southeast-asia', 'indonesian'],
  ['Ireland', 'IE', 5_300_000, 545, 'europe', 'english'],
  ['Israel', 'IL', 9_800_000, 510, 'middle-east-north-africa', 'hebrew'],
  ['Italy', 'IT', 58_800_000, 2_255, 'europe', 'italian'],
  ['Japan', 'JP', 124_500_000, 4_213, 'east-asia', 'japanese'],
  ['Kenya', 'KE', 55_100_000, 108, 'sub-saharan-africa', 'east-african'],
  ['Mexico', 'MX', 128_500_000, 1_789, 'latin-america', 'spanish'],
  ['Morocco', 'MA', 37_800_000, 141, 'middle-east-north-africa', 'arabic,french'],
  ['Netherlands', 'NL', 17_900_000, 1_118, 'europe', 'dutch'],
  ['New Zealand', 'NZ', 5_200_000, 253, 'oceania', 'english'],
  ['Nigeria', 'NG', 223_800_000, 363, 'sub-saharan-africa', 'west-african'],
  ['Norway', 'NO', 5_500_000, 485, 'europe', 'nordic'],
  ['Pakistan', 'PK', 240_500_000, 338, 'south-asia', 'pakistani'],
  ['Peru', 'PE', 34_400_000, 267, 'latin-america', 'spanish'],
  ['Philippines', 'PH', 117_300_000, 437, 'southeast-asia', 'filipino'],
  ['Poland', 'PL', 36_700_000, 811, 'europe', 'polish'],
  ['Portugal', 'PT', 10_500_000, 287, 'europe', 'portuguese'],
  ['Romania', 'RO', 19_000_000, 351, 'europe', 'romanian'],
  ['Saudi Arabia', 'SA', 36_900_000, 1_068, 'middle-east-north-africa', 'arabic'],
  ['South Africa', 'ZA', 60_400_000, 377, 'sub-saharan-africa', 'south-african,english'],
  ['South Korea', 'KR', 51_700_000, 1_713, 'east-asia', 'korean'],
  ['Spain', 'ES', 48_400_000, 1_581, 'europe', 'spanish'],
  ['Sweden', 'SE', 10_500_000, 593, 'europe', 'nordic'],
  ['Switzerland', 'CH', 8_800_000, 885, 'europe', 'german,french,italian'],
  ['Thailand', 'TH', 71_800_000, 515, 'southeast-asia', 'thai'],
  ['Türkiye', 'TR', 85_300_000, 1_108, 'middle-east-north-africa', 'turkish'],
  ['Ukraine', 'UA', 37_000_000, 179, 'europe', 'ukrainian'],
  ['United Arab Emirates', 'AE', 9_500_000, 504, 'middle-east-north-africa', 'arabic'],
  ['United Kingdom', 'GB', 68_300_000, 3_340, 'europe', 'english'],
  ['United States', 'US', 334_900_000, 27_361, 'north-america', 'english,spanish'],
  ['Viet Nam', 'VN', 98_900_000, 430, 'southeast-asia', 'vietnamese'],
];


export const COUNTRIES: readonly CountryRecord[] = ROWS.map(([name, iso, population, gdpBillions, region, cultures], index) => ({
  countryId: index + 1,
  countryName: name,
  countryIso: iso,
  slug: slugify(name),
  population,
  gdp: gdpBillions * 1_000_000_000,
  region,
  cultures: cultures.split(','),
}));
