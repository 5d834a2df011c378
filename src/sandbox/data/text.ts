/**
 * Article texts derived on demand from each article's seed: titles, URLs and snippets are never
 * stored, so generation stays fast and memory small, yet every call returns the same text.
 */
import type { Category, Dataset } from './generate.js';
import { mixSeed, mulberry32, pick, randomInt, shuffle } from '../random.js';
import { slugify } from './slug.js';

const TOPICS: Record<Category, readonly string[]> = {
  politics: ['housing', 'pensions', 'rail funding', 'water rights', 'border checks', 'school meals', 'energy prices', 'port reform', 'the budget', 'local elections'],
  business: ['quarterly results', 'a merger', 'supply chains', 'chip exports', 'interest rates', 'a factory opening', 'a stock listing', 'wage talks'],
  sport: ['the cup final', 'a transfer', 'the season opener', 'doping tests', 'the world championship', 'a record attempt', 'the derby'],
  culture: ['a new novel', 'the film festival', 'museum funding', 'a theatre revival', 'a heritage site', 'the book prize'],
  science: ['a climate study', 'a vaccine trial', 'the lunar probe', 'quantum sensors', 'a fossil find', 'ocean warming'],
  entertainment: ['a streaming series', 'the award season', 'a world tour', 'a reality show', 'a comeback album', 'a film premiere'],
};

const SOLO_TITLES = [
  '{A} speaks out on {T}',
  '{A} under pressure over {T}',
  'What {A} said about {T}',
  '{A} wins praise for stance on {T}',
  'Inside the week of {A}',
  '{A} sets out plans for {T}',
  'Questions for {A} after {T}',
];
const PAIR_TITLES = [
  '{A} and {B} at odds over {T}',
  '{A} meets {B} to discuss {T}',
  '{A} backs {B} on {T}',
  '{A}, {B} and the row over {T}',
];

const POSITIVE_SNIPPETS = [
  '{N} was praised for the handling of {T}.',
  'Supporters say {N} delivered on {T}.',
  '"A good week," {N} said after progress on {T}.',
  '{N} drew applause with remarks on {T}.',
];
const NEUTRAL_SNIPPETS = [
  '{N} commented on {T} on {D}.',
  'According to {N}, talks on {T} will continue.',
  '{N} declined to give details about {T}.',
  '{N} is expected to address {T} next week.',
];
const NEGATIVE_SNIPPETS = [
  '{N} was criticised over {T}.',
  'Critics accused {N} of mishandling {T}.',
  '{N} faced angry questions about {T}.',
  'Pressure grew on {N} after setbacks on {T}.',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Z])\}/g, (_, key: string) => values[key] ?? '');
}

/** ASCII stand-in for a display name, for URL slugs: the hash without its suffix. */
function asciiNameOf(personHash: string): string {
  return personHash.replace(/-[0-9a-f]{4}$/, '');
}

export class ArticleText {
  private readonly titleCache = new Map<number, { title: string; url: string }>();

  constructor(private readonly data: Dataset) {}

  private peopleOf(article: number): number[] {
    const result: number[] = [];
    for (let i = this.data.articleAppStart[article]!; i < this.data.articleAppStart[article + 1]!; i++) {
      result.push(this.data.appPerson[i]!);
    }
    return result;
  }

  /** The article's topic, from the category of its first person. */
  topicOf(article: number): string {
    const first = this.data.people[this.data.appPerson[this.data.articleAppStart[article]!]!]!;
    const topics = TOPICS[first.category];
    return topics[this.data.details.textSeed(article) % topics.length]!;
  }

  titleAndUrl(article: number): { title: string; url: string } {
    const cached = this.titleCache.get(article);
    if (cached) return cached;
    const random = mulberry32(this.data.details.textSeed(article));
    const people = this.peopleOf(article).map((p) => this.data.people[p]!);
    const topic = this.topicOf(article);
    const template = people.length > 1 && random() < 0.6 ? pick(random, PAIR_TITLES) : pick(random, SOLO_TITLES);
    const title = fill(template, { A: people[0]!.fullName, B: people[1]?.fullName ?? '', T: topic });
    const asciiTitle = fill(template, {
      A: asciiNameOf(people[0]!.personHash),
      B: people[1] ? asciiNameOf(people[1].personHash) : '',
      T: topic,
    });
    const source = this.data.sources[this.data.articleSource[article]!]!;
    const section = pick(random, source.sections);
    const date = new Date(this.data.details.published(article) * 1000).toISOString();
    const path = `${section}/${date.slice(0, 4)}/${date.slice(5, 7)}/${date.slice(8, 10)}`;
    const url = `${source.url}/${path}/${slugify(asciiTitle)}-${article + 1}`;
    const result = { title, url };
    // Bounded: recent lists and links touch a few thousand articles at most.
    if (this.titleCache.size > 20_000) this.titleCache.clear();
    this.titleCache.set(article, result);
    return result;
  }

  peopleHashes(article: number): string[] {
    return this.peopleOf(article).map((p) => this.data.people[p]!.personHash);
  }

  /** Snippet of one mention: tone follows the mention's sentiment. */
  snippet(appearance: number, mentionOrdinal = 0): string {
    const article = this.data.appArticle[appearance]!;
    const sentiment = this.data.details.mentionSentimentMilli(appearance, mentionOrdinal);
    const random = mulberry32(mixSeed(this.data.details.textSeed(article), appearance, mentionOrdinal));
    const templates = sentiment >= 150 ? POSITIVE_SNIPPETS : sentiment <= -150 ? NEGATIVE_SNIPPETS : NEUTRAL_SNIPPETS;
    const person = this.data.people[this.data.appPerson[appearance]!]!;
    const weekday = WEEKDAYS[(new Date(this.data.details.published(article) * 1000).getUTCDay() + 6) % 7]!;
    return fill(pick(random, templates), { N: person.fullName, T: this.topicOf(article), D: weekday });
  }
}

/**
 * A source's homepage links: its latest article URLs (which its linkFilter matches) mixed with
 * navigation, tag, video, plain-http and off-site links (which it does not).
 */
export function homepageLinks(data: Dataset, text: ArticleText, sourceIndex: number): string[] {
  const source = data.sources[sourceIndex]!;
  const random = mulberry32(mixSeed(data.seed, 7, sourceIndex));
  const articleTarget = randomInt(random, 12, 24);
  const links: string[] = [];
  for (let a = data.articleCount - 1; a >= 0 && links.length < articleTarget; a--) {
    if (data.articleSource[a] === sourceIndex) links.push(text.titleAndUrl(a).url);
  }
  const today = new Date(data.nowSeconds * 1000);
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() + 1;
  const section = source.sections[0]!;
  const candidates = [
    `${source.url}/`,
    `${source.url}/about`,
    `${source.url}/contact`,
    `${source.url}/subscribe`,
    `${source.url}/${section}/`,
    `${source.url}/tag/${slugify(pick(random, ['elections', 'markets', 'climate', 'football', 'festivals', 'health']))}`,
    `${source.url}/video/${year}/${randomInt(random, 100000, 999999)}`,
    `${source.url}/live/${year}/${String(randomInt(random, 1, month)).padStart(2, '0')}/blog`,
    `${source.url}/search?q=${pick(random, ['weather', 'budget', 'transfers'])}`,
    `${source.url}/authors/${pick(random, ['editorial-desk', 'night-desk', 'foreign-desk'])}`,
    `http://www.${source.slug}.example/${section}/${year}/01/01/archived-${randomInt(random, 1000, 9999)}`,
    `https://social.example/@${source.slug}`,
    `https://video.example/channel/${source.slug}`,
    `https://www.${source.slug}.example.cdn.example/img/${randomInt(random, 1000, 9999)}.jpg`,
    `${source.url}/privacy`,
    `${source.url}/corrections`,
  ];
  const otherCount = Math.max(20 - links.length, randomInt(random, 8, 14));
  links.push(...shuffle(random, candidates).slice(0, otherCount));
  return shuffle(random, [...new Set(links)]);
}
