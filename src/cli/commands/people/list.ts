import { verb } from '../../run/spec.js';
import { personFields } from './shared.js';

const list = verb({
  name: 'list',
  summary: 'Every person the service tracks',
  examples: ['people list --fields personHash,fullName,countryName --format csv'],
  view: { fields: personFields, tableFields: ['personHash', 'fullName', 'countryName', 'category', 'birthDate'] },
  async run(ctx) {
    return { data: await (await ctx.deps.client()).people.list() };
  },
});

export default list;
