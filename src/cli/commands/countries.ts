import { countrySchema, domesticFocusSchema, fieldsOf, internationalAttentionSchema } from '../../api/types.js';
import { parseCountryQuery, resolveCountryId } from '../flags/country-match.js';
import type { Context } from '../run/spec.js';
import { weekWindowFlags } from '../flags/options.js';
import { verb, type NounVerbs } from '../run/spec.js';
import { resolveWindow } from '../flags/week-window.js';
import { windowFromBounds } from '../../shared/weeks.js';

/** `countries get` answers with the service's own record, by id or by slug, never a local copy. */
async function fetchCountry(ctx: Context, text: string): Promise<unknown> {
  const client = await ctx.deps.client();
  const query = parseCountryQuery(text);
  if (query.kind === 'id') return client.countries.get(query.countryId);
  return client.countries.get(await resolveCountryId(text, ctx.deps));
}

const list = verb({
  name: 'list',
  summary: 'Every country, with id and ISO code',
  examples: ['countries list', 'countries list --format csv --output countries.csv'],
  view: { fields: fieldsOf(countrySchema) },
  async run(ctx) {
    const client = await ctx.deps.client();
    return { data: await ctx.deps.cachedList('countries', () => client.countries.list()) };
  },
});

const get = verb({
  name: 'get',
  summary: 'One country by id, ISO code (DE, de), name or slug',
  args: ['<country>'],
  examples: ['countries get DE', 'countries get united-kingdom', 'countries get 12'],
  view: { fields: fieldsOf(countrySchema), single: true },
  async run(ctx, { args: [country] }) {
    return { data: await fetchCountry(ctx, country) };
  },
});

const attention = verb({
  name: 'attention',
  summary: 'How much of other countries\' news is about a country\'s people',
  args: ['<country>'],
  examples: ['countries attention FR'],
  view: { fields: fieldsOf(internationalAttentionSchema), single: true },
  async run(ctx, { args: [country] }) {
    const countryId = await resolveCountryId(country, ctx.deps);
    return { data: await (await ctx.deps.client()).countries.attention(countryId) };
  },
});

const focus = verb({
  name: 'focus',
  summary: 'How much of a country\'s own news is about its own people, over a week window',
  args: ['<country>'],
  flags: weekWindowFlags,
  examples: ['countries focus DE --weeks last4', 'countries focus japan --weeks 202601..202626'],
  view: { fields: fieldsOf(domesticFocusSchema), single: true },
  validate(input) {
    // A reversed --start/--end is refused before the country is looked up, which may already cost a request.
    if (input.flags.start !== undefined && input.flags.end !== undefined) windowFromBounds(input.flags.start, input.flags.end);
    return input;
  },
  async run(ctx, { args: [country], flags }) {
    const [countryId, window] = await Promise.all([resolveCountryId(country, ctx.deps), resolveWindow(flags, () => ctx.deps.weekInfo(), ctx.report)]);
    return { data: await (await ctx.deps.client()).countries.focus(countryId, window ?? {}) };
  },
});

const countries: NounVerbs = { verbs: [list, get, attention, focus] };

export default countries;
