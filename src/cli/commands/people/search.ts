import { hasSearchTerm } from '../../../api/resources/people.js';
import { BOUNDS } from '../../../api/types.js';
import { countryFlagId } from '../../flags/country-flag.js';
import { UsageError } from '../../run/errors.js';
import { countryFlag, genderFlag, integerFlag, switchFlag, textFlag } from '../../flags/options.js';
import { verb } from '../../run/spec.js';
import { personFields } from './shared.js';

const search = verb({
  name: 'search',
  summary: 'Find people by free text, personHash or name',
  args: ['[query]'],
  flags: {
    hash: textFlag('--hash <personHash>', 'match the personHash'),
    name: textFlag('--name <fullName>', 'match the full name'),
    exact: switchFlag('--exact', 'the query or --name must match the whole name (or the personHash) exactly'),
    country: countryFlag('--country <country>', 'only people from this country (id, ISO code, name or slug)'),
    gender: genderFlag(),
    limit: integerFlag('--limit <n>', 'at most this many people', BOUNDS.searchLimit),
  },
  examples: ['people search "okafor"', 'people search "Chiamaka Okafor" --exact', 'people search --name "Chiamaka Okafor" --exact', 'people search ana --country BR --limit 5'],
  view: { fields: personFields, tableFields: ['personHash', 'fullName', 'countryName', 'category', 'birthDate'] },
  validate({ args: [query], flags }) {
    const terms = { q: query, personHash: flags.hash, fullName: flags.name };
    if (!hasSearchTerm(terms)) {
      throw new UsageError('people search needs a query, --hash or --name');
    }
    return { query, terms, flags };
  },
  async run(ctx, { query, terms, flags }) {
    const client = await ctx.deps.client();
    const countryId = await countryFlagId(flags.country, ctx.deps);
    const data = await client.people.search({
      ...terms,
      exactName: flags.exact || undefined,
      countryId,
      gender: flags.gender,
      limit: flags.limit,
    });
    const asked = query ?? flags.name ?? flags.hash;
    return { data, view: { empty: `no people match "${asked}"` } };
  },
});

export default search;
