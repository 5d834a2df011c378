import { aboutPerson } from './shared.js';
import { fieldsOf, personCountryRowSchema } from '../../../api/types.js';
import { weekWindowFlags } from '../../flags/options.js';
import { countryStatsRows } from '../../../output/rows.js';
import { verb } from '../../run/spec.js';
import { captionCurrentWeek, resolveWindow } from '../../flags/week-window.js';
import { caption, windowCaption } from './captions.js';

const countryRowFields = ['personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)];

/** `hira-abbasi-d893 by country · weeks 202644–202647`: the weeks the answer says it used (the service's own when none was given). */
export function countriesCaption(personHash: string, stats: { startWeek?: unknown; endWeek?: unknown }, defaulted: boolean, currentWeek: number | undefined): string {
  const [startWeek, endWeek] = [Number(String(stats.startWeek)), Number(String(stats.endWeek))];
  if (!Number.isInteger(startWeek) || !Number.isInteger(endWeek)) return `${personHash} by country`;
  return caption(`${personHash} by country`, windowCaption({ startWeek, endWeek, defaulted: defaulted ? 'the service\'s default' : undefined }, currentWeek));
}

const countries = verb({
  name: 'countries',
  summary: 'A person\'s statistics per country over a week window (country-stats)',
  args: ['<personHash>'],
  flags: weekWindowFlags,
  examples: ['people countries chiamaka-okafor-6303 --weeks last4', 'people countries chiamaka-okafor-6303 --weeks 202601..202647 --format csv'],
  view: {
    fields: countryRowFields,
    tableFields: ['countryName', 'countryIso', 'mentions', 'articles', 'localDominance', 'reach', 'power', 'sentiment'],
  },
  async run(ctx, { args: [personHash], flags }) {
    const window = await resolveWindow(flags, () => ctx.deps.weekInfo(), ctx.report);
    const client = await ctx.deps.client();
    const [data, currentWeek] = await Promise.all([
      aboutPerson(personHash, () => client.people.countryStats(personHash, window ?? {})),
      captionCurrentWeek(ctx.io, ctx.globals.output, () => ctx.deps.weekInfo()),
    ]);
    return { data, rows: countryStatsRows(personHash, data), view: { caption: countriesCaption(personHash, data, window === undefined, currentWeek) } };
  },
});

export default countries;
