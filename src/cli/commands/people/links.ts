import { aboutPerson } from './shared.js';
import { BOUNDS, fieldsOf, personLinkBaseSchema, personLinkSchema } from '../../../api/types.js';
import { integerFlag, negatedFlag } from '../../flags/options.js';
import { verb } from '../../run/spec.js';

const links = verb({
  name: 'links',
  summary: 'A person\'s article links, newest first, with article, source and country context',
  args: ['<personHash>'],
  flags: {
    limit: integerFlag('--limit <n>', 'at most this many links', BOUNDS.linksLimit),
    context: negatedFlag('--no-context', 'only the link fields, without article, source and country context'),
  },
  examples: ['people links chiamaka-okafor-6303 --limit 20', 'people links chiamaka-okafor-6303 --format csv --output links.csv'],
  // Without context a link has no article, source or country fields: --fields is checked against that.
  view: ({ flags }) =>
    flags.context
      ? {
          fields: fieldsOf(personLinkSchema),
          // The title before source, country and sentiment: a narrow terminal hides those before it cuts the title.
          tableFields: ['mentionDate', 'articleHash', 'articleUrl', 'articleTitle', 'sourceName', 'countryIso', 'sentiment'],
          // The URL is what a link is for: shown whole, or cut as a hyperlink, never hidden.
          keep: ['articleUrl'],
        }
      : { fields: fieldsOf(personLinkBaseSchema), tableFields: ['mentionDate', 'sentiment', 'articleHash', 'snippet'] },
  async run(ctx, { args: [personHash], flags }) {
    const client = await ctx.deps.client();
    return { data: await aboutPerson(personHash, () => client.people.links(personHash, { limit: flags.limit, includeContext: flags.context })) };
  },
});

export default links;
