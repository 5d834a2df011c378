import { BOUNDS, fieldsOf, postSchema } from '../../api/types.js';
import { integerFlag } from '../flags/options.js';
import { verb, type NounVerbs } from '../run/spec.js';

const recent = verb({
  name: 'recent',
  summary: 'The most recent published posts',
  flags: { count: integerFlag('--count <n>', 'how many posts', BOUNDS.postsCount) },
  examples: ['posts recent --count 5'],
  view: { fields: fieldsOf(postSchema), tableFields: ['postId', 'createdAt', 'slug', 'title', 'view'] },
  async run(ctx, { flags }) {
    return { data: await (await ctx.deps.client()).posts.recent({ count: flags.count }) };
  },
});

const get = verb({
  name: 'get',
  summary: 'One post by slug',
  args: ['<slug>'],
  examples: ['posts get weekly-roundup-2026-w46', 'posts get weekly-roundup-2026-w46 --fields title,content -f json'],
  view: { fields: fieldsOf(postSchema), single: true },
  async run(ctx, { args: [slug] }) {
    return { data: await (await ctx.deps.client()).posts.get(slug) };
  },
});

const posts: NounVerbs = { verbs: [recent, get] };

export default posts;
