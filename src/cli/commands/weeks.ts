import { fieldsOf, weekInfoSchema } from '../../api/types.js';
import { verb, type NounVerbs } from '../run/spec.js';

const show = verb({
  name: '',
  summary: 'The current week and the start of the last-4 window (ISO weeks, YYYYWW)',
  examples: ['weeks', 'weeks -f json | jq .currentWeek'],
  view: { fields: fieldsOf(weekInfoSchema), single: true },
  async run(ctx) {
    return { data: await (await ctx.deps.client()).weeks.current() };
  },
});

const weeks: NounVerbs = { verbs: [show] };

export default weeks;
