import { verb } from '../../run/spec.js';
import { aboutPerson, personFields } from './shared.js';

const get = verb({
  name: 'get',
  summary: 'One person by personHash',
  args: ['<personHash>'],
  examples: ['people get chiamaka-okafor-6303'],
  view: { fields: personFields, single: true },
  async run(ctx, { args: [personHash] }) {
    const client = await ctx.deps.client();
    return { data: await aboutPerson(personHash, () => client.people.get(personHash)) };
  },
});

export default get;
