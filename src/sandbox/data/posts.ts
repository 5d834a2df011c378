/**
 * Published posts: a weekly roundup for each of the 24 completed weeks before the current one,
 * written from that week's actual ranking, plus two featured explainers. `content` is JSON text
 * of blocks (see docs/sandbox.md).
 */
import type { Post, PersonStats } from '../model.js';
import { addWeeks, mondayOf } from '../../shared/weeks.js';
import { formatTimestamp, type Dataset } from './generate.js';
import { mixSeed, mulberry32, randomInt } from '../random.js';

export const ROUNDUP_WEEKS = 24;

type Block =
  | { type: 'heading'; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; items: string[] };

interface PostDraft extends Omit<Post, 'postId' | 'createdAt' | 'updatedAt'> {
  createdSeconds: number;
  updatedSeconds: number;
}

export function buildPosts(data: Dataset, topOfWeek: (week: number) => PersonStats[]): Post[] {
  const random = mulberry32(mixSeed(data.seed, 9));
  const drafts: PostDraft[] = [];
  for (let back = 1; back <= ROUNDUP_WEEKS; back++) {
    const week = addWeeks(data.currentWeek, -back);
    const top = topOfWeek(week);
    const slug = `weekly-roundup-${Math.floor(week / 100)}-w${String(week % 100).padStart(2, '0')}`;
    const names = top.slice(0, 3).map((person) => person.fullName);
    const blocks: Block[] = [
      { type: 'heading', text: `Week ${week} in the news` },
      {
        type: 'paragraph',
        text: top.length > 0
          ? `${top[0]!.fullName} led the week with ${top[0]!.mentionCount} mentions across ${top[0]!.countryRows.length} countries.`
          : 'A quiet week: no mentions were recorded.',
      },
      { type: 'list', items: top.map((person) => `${person.rank}. ${person.fullName}: ${person.mentionCount} mentions, dominance ${person.dominance}%`) },
    ];
    // Sunday evening of the week itself, so a roundup never postdates `now`.
    const created = mondayOf(week).getTime() / 1000 + 6 * 86_400 + 18 * 3600 + randomInt(random, 0, 3599);
    drafts.push({
      title: `Weekly roundup: week ${week}`,
      slug,
      content: JSON.stringify({ blocks }),
      summary: names.length > 0 ? `The most-mentioned people in week ${week}: ${names.join(', ')}.` : `No mentions in week ${week}.`,
      imagePath: `/images/posts/${slug}.jpg`,
      status: 'published',
      view: 'standard',
      createdSeconds: created,
      updatedSeconds: created + randomInt(random, 0, 4 * 3600),
    });
  }
  const explainers: Array<[title: string, slug: string, daysAgo: number, blocks: Block[]]> = [
    ['How the sandbox counts mentions', 'how-the-sandbox-counts-mentions', 75, [
      { type: 'heading', text: 'Mentions, articles and weeks' },
      { type: 'paragraph', text: 'Every article names one or more people; each naming with its snippet is one mention.' },
      { type: 'list', items: ['mentions: snippets in the window', 'persistence: weeks with at least one mention', 'sentiment: mean mention sentiment'] },
    ]],
    ['Dominance, reach and power explained', 'dominance-reach-and-power-explained', 40, [
      { type: 'heading', text: 'Three ways to weigh attention' },
      { type: 'paragraph', text: 'Dominance is the weekly share of all mentions, averaged; reach is the population of the countries whose press mentions a person; power weighs each country\'s dominance by its share of GDP.' },
    ]],
  ];
  for (const [title, slug, daysAgo, blocks] of explainers) {
    const created = data.nowSeconds - daysAgo * 86_400 - randomInt(random, 0, 86_399);
    drafts.push({
      title,
      slug,
      content: JSON.stringify({ blocks }),
      summary: `${title}: the definitions behind the numbers.`,
      imagePath: `/images/posts/${slug}.jpg`,
      status: 'published',
      view: 'featured',
      createdSeconds: created,
      updatedSeconds: Math.min(data.nowSeconds, created + randomInt(random, 0, 48 * 3600)),
    });
  }
  // postId follows publication order, oldest first.
  drafts.sort((a, b) => a.createdSeconds - b.createdSeconds);
  return drafts.map(({ createdSeconds, updatedSeconds, ...post }, index) => ({
    postId: index + 1,
    title: post.title,
    slug: post.slug,
    content: post.content,
    summary: post.summary,
    imagePath: post.imagePath,
    status: post.status,
    view: post.view,
    createdAt: formatTimestamp(createdSeconds),
    updatedAt: formatTimestamp(updatedSeconds),
  }));
}
