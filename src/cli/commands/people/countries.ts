import { aboutPerson } from './shared.js';
import { fieldsOf, personCountryRowSchema } from '../../../api/types.js';
import { weekWindowFlags } from '../../options.js';
import { countryStatsRows } from '../../rows.js';
import { verb } from '../../spec.js';
import { resolveWindow } from '../../week-window.js';

const countryRowFields = ['personHash', 'startWeek', 'endWeek', ...fieldsOf(personCountryRowSchema)];

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
    const window = await resolveWindow(flags, () => ctx.deps.client());
    const client = await ctx.deps.client();
    const data = await aboutPerson(personHash, () => client.people.countryStats(personHash, window ?? {}));
    return { data, rows: countryStatsRows(personHash, data) };
  },
});

export default countries;
