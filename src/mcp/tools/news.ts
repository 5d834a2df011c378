/** Questions about what is being published: the latest articles and posts, and how much is counted. */
import * as z from 'zod';
import { articleSchema, articleStatsAllTimeSchema, articleStatsSchema, BOUNDS, postSchema } from '../../api/types.js';
import { digits, toMcpRecord } from '../exact.js';
import { contractRecord, pageSchema } from '../schemas.js';
import { lines, moreText } from '../text.js';
import { pageOfLatest, tool } from '../tool.js';
import { cursorInput, limitInput } from './inputs.js';

export const recentArticles = tool({
  name: 'recent_articles',
  title: 'Latest articles',
  description: `The latest news articles the service has read, newest first: title, URL, source, country and the personHash of each person mentioned (comma-separated in people). Use it for "what is in the news right now". The service keeps the latest ${BOUNDS.articlesLimit.max}.`,
  input: {
    limit: limitInput('articles per page', 100, 20),
    cursor: cursorInput,
  },
  output: {
    articles: z.array(contractRecord(articleSchema)),
    ...pageSchema,
  },
  async run(args, deps, call) {
    const max = BOUNDS.articlesLimit.max;
    const { items, nextCursor } = await pageOfLatest(args.cursor, args.limit ?? 20, max, `the latest ${max} articles`,
      async (upTo) => (await (await deps.client()).articles.recent({ limit: upTo }, call.options)) as Array<Record<string, unknown>>);
    const text = lines(
      items.length === 0 ? 'No articles.' : 'Latest articles, newest first:',
      items.map((article) => `- "${String(article.title ?? '')}" (${[article.sourceName, article.countryIso].filter((part) => typeof part === 'string').join(', ')}) ${String(article.url ?? '')}${typeof article.people === 'string' && article.people !== '' ? `; people: ${article.people}` : ''}`),
      moreText(nextCursor, 'articles'),
    );
    return { structured: { articles: items.map(toMcpRecord), ...(nextCursor !== undefined && { nextCursor }) }, text };
  },
});

export const recentPosts = tool({
  name: 'recent_posts',
  title: 'Latest posts',
  description: 'The latest posts the service has published (its own write-ups): title, slug, summary and dates; the full content only when asked (it can be long). Use it for "what has the service written lately".',
  input: {
    count: limitInput('posts', BOUNDS.postsCount.max, 5),
    includeContent: z.boolean().optional().describe('also return each post\'s full content (default false)'),
  },
  output: {
    posts: z.array(contractRecord(postSchema)),
  },
  async run(args, deps, call) {
    const posts = (await (await deps.client()).posts.recent({ count: args.count ?? 5 }, call.options)) as Array<Record<string, unknown>>;
    const shown = posts.map(({ content, ...post }) => (args.includeContent ? { ...post, content } : post));
    const text = lines(
      posts.length === 0 ? 'No posts.' : 'Latest posts:',
      shown.map((post) => `- ${String(post.createdAt ?? '').slice(0, 10)} "${String(post.title ?? '')}" (slug ${String(post.slug)})${typeof post.summary === 'string' && post.summary !== '' ? `: ${post.summary}` : ''}${args.includeContent && typeof post.content === 'string' ? `\n${post.content}` : ''}`),
    );
    return { structured: { posts: shown.map(toMcpRecord) }, text };
  },
});

export const articlesOverview = tool({
  name: 'articles_overview',
  title: 'How much news is counted',
  description: `How many articles, sources and countries the service counted over the last N days (1-${BOUNDS.statsDays.max}, default 7) and in all its history. Use it to put other figures in scale.`,
  input: {
    days: z.number().int().min(BOUNDS.statsDays.min).max(BOUNDS.statsDays.max).optional().describe('the rolling window in days (default 7)'),
  },
  output: {
    recent: contractRecord(articleStatsSchema),
    allTime: contractRecord(articleStatsAllTimeSchema),
  },
  async run(args, deps, call) {
    const client = await deps.client();
    const [recent, allTime] = await Promise.all([client.articles.stats({ days: args.days ?? 7 }, call.options), client.articles.statsAllTime(call.options)]);
    const text = `Last ${digits(recent.days ?? args.days ?? 7)} days: ${digits(recent.totalArticles)} articles from ${digits(recent.totalSources)} sources in ${digits(recent.totalCountries)} countries. All time: ${digits(allTime.totalArticles)} articles, ${digits(allTime.totalSources)} sources, ${digits(allTime.totalCountries)} countries.`;
    return { structured: { recent: toMcpRecord(recent), allTime: toMcpRecord(allTime) }, text };
  },
});
