import { collectKeyValue, parsedFlag } from '../flags/options.js';
import { verb, type NounVerbs, type Row } from '../run/spec.js';

const raw = verb({
  name: '',
  summary: 'Raw GET of any /api/data path; prints the JSON as the service sent it',
  args: ['<path>'],
  flags: {
    param: parsedFlag('-p, --param <key=value>', 'a query parameter; repeat for more', collectKeyValue),
  },
  examples: ['api /api/data/people/top --param startWeek=202640 --param endWeek=202643 --param limit=5', 'api people/chiamaka-okafor-6303'],
  prefersJson: true,
  async run(ctx, { args: [path], flags }) {
    const query: Record<string, string[]> = {};
    for (const [key, value] of flags.param ?? []) (query[key] ??= []).push(value);
    const data = await (await ctx.deps.client()).get(path, query);
    // No view declared: the output takes the rows' keys as the fields, and checks --fields against them.
    return { data, rows: Array.isArray(data) ? (data as Row[]) : [data as Row] };
  },
});

const api: NounVerbs = { verbs: [raw] };

export default api;
