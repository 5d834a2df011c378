/**
 * The article stage of the dataset (generate.ts): two years of articles, who appears in each, their
 * mentions, and the per-week aggregates every metric reads.
 *
 * It takes about 660,000 random draws, and a sandbox pays for them at every start, so it is written
 * for V8 rather than for brevity, and does at start only what decides the rest:
 * - Who appears where (sources, people, mention counts) and the mention counts' aggregates are made
 *   at start. The draws whose values nothing at start needs (publication times, text seeds, hash
 *   bits, tones and sentiments: more than half) are skipped there, their stream positions saved, and
 *   drawn when first asked for (ArticleDetails); the stream's state only counts, so a draw can be
 *   read out of order (RandomStream, drawAt).
 * - One RandomStream whose draw compiles into its callers; a function per week (a function called
 *   104 times is optimised after a few calls, where one loop over 33,000 articles waited for
 *   on-stack replacement); flat typed arrays for the pick tables; the cells grouped as each week is
 *   made.
 * The draws, their order and every arithmetic step are those of the plain version this replaced, so
 * the data is byte-identical (test/sandbox/fingerprint.test.ts).
 */
import { drawAt, permute32, pickCumulative, RandomStream } from '../random.js';

/** The most people one article names. */
const MAX_PEOPLE_PER_ARTICLE = 5;
/** Draws of an article before its people: source, text seed, hash bits, how many people. */
const ARTICLE_DRAWS = { source: 1, textSeed: 2, hashHigh: 3, peopleCount: 4 } as const;
/** Draws of an appearance after its mention count: three for its tone, then one per mention. */
const TONE_DRAWS = 3;

export interface ArticleInput {
  /** The article stage's stream, mixSeed(seed, 4), after the weekly counts were drawn from it. */
  random: RandomStream;
  /** First article of week w (length weeks + 1). */
  weekArticleStart: Uint32Array;
  /** Seconds of week w over which its articles spread: a whole week, or the current week's part. */
  weekSpan: Float64Array;
  /** mixSeed(seed, 5): articleHashLow is permute32(article + hashOffset). */
  hashOffset: number;
  weekStartSeconds: Float64Array;
  /** Per person per week, [w*P + p]: how likely each article is to pick them. */
  popularity: Float64Array;
  personCountry: Uint8Array;
  personTone: Float64Array;
  /** Per country, its region's index. */
  regionOfCountry: readonly number[];
  regionCount: number;
  sourceCountry: Uint8Array;
  sourceWeight: Float64Array;
  /** First week index in which each source has no articles. */
  sourcePausedFrom: Int32Array;
  countryCount: number;
}

export interface ArticleData {
  articleCount: number;
  /** Articles are in publication order (ties keep generation order). */
  articleSource: Uint16Array;
  articleWeek: Uint16Array;
  /** Appearances of article a are articleAppStart[a] .. articleAppStart[a+1]-1. */
  articleAppStart: Uint32Array;
  /** First article of data week w is weekArticleStart[w]; length weeks + 1. */
  weekArticleStart: Uint32Array;

  appearanceCount: number;
  appPerson: Uint16Array;
  appArticle: Uint32Array;
  /** Mentions of appearance i: appMentionStart[i+1] - appMentionStart[i] (1 to 3). */
  appMentionStart: Uint32Array;
  /** Appearances of person p (ascending article order): personApps[personAppStart[p] ..]. */
  personAppStart: Uint32Array;
  personApps: Uint32Array;

  // Aggregates. W = weeks, C = countries (by source country), P = people.
  /**
   * Sparse per (week, person, source country) cells, for the few combinations that occur: the cells
   * of week w and person p are cellStart[w*P + p] .. cellStart[w*P + p + 1] - 1, by country.
   */
  cellStart: Uint32Array;
  cellCountry: Uint8Array;
  cellMentions: Uint16Array;
  /** Appearances (articles), as opposed to mentions. */
  cellArticles: Uint16Array;
  /** [w*P + p] */
  mentionsWP: Uint32Array;
  /** [w*C + c]: all mentions in articles of sources of country c. */
  mentionsWC: Uint32Array;
  /** [w] */
  mentionsW: Uint32Array;
  /** [(w*C + sourceCountry)*C + personCountry]: mentions flowing from one country's press to another's people. */
  flowWCC: Uint32Array;
  /** Data-week index of the person's first mention ever; -1 when never mentioned. */
  firstMentionWeek: Int32Array;

  /** What the start skipped: publication times, texts' seeds, hashes, sentiments. */
  details: ArticleDetails;
}

/** People grouped (by country or by region), as one flat list: group g is members[start[g] .. start[g+1]-1]. */
interface Groups {
  start: Int32Array;
  members: Int32Array;
  /** Running totals of this week's popularity within each group, aligned with members. */
  cumulative: Float64Array;
}

function groupPeople(groupOf: (p: number) => number, groupCount: number, P: number): Groups {
  const start = new Int32Array(groupCount + 1);
  for (let p = 0; p < P; p++) start[groupOf(p) + 1]!++;
  for (let g = 0; g < groupCount; g++) start[g + 1]! += start[g]!;
  const members = new Int32Array(P);
  const fill = start.slice(0, groupCount);
  // In index order within each group: the running totals add up in the order the plain version did.
  for (let p = 0; p < P; p++) members[fill[groupOf(p)]!++] = p;
  return { start, members, cumulative: new Float64Array(P) };
}

class ArticleBuilder {
  private readonly random: RandomStream;
  private readonly P: number;
  private readonly C: number;
  private readonly home: Groups;
  private readonly region: Groups;
  private readonly globalCumulative: Float64Array;
  private readonly sourceCumulative: Float64Array;
  private readonly activeSources: Int32Array;
  private activeSourceCount = 0;
  private readonly chosen = new Int32Array(MAX_PEOPLE_PER_ARTICLE);

  readonly weekArticleStart: Uint32Array;
  /** The stream's position at the start of each week (before its publication times) and article. */
  readonly weekPosition: Uint32Array;
  readonly articlePosition: Uint32Array;
  readonly articleCount: number;
  readonly articleSource: Uint16Array;
  readonly articleWeek: Uint16Array;
  readonly articleCountry: Uint8Array;
  readonly articleAppStart: Uint32Array;
  readonly appPerson: Uint16Array;
  readonly appArticle: Uint32Array;
  readonly appMentionStart: Uint32Array;
  /** The stream's position after each appearance's mention count: its tone and sentiments follow. */
  readonly appPosition: Uint32Array;
  /** The (week, person, country) cell each appearance counts in. */
  readonly appCell: Uint32Array;
  appCount = 0;
  mentionCount = 0;

  readonly mentionsWP: Uint32Array;
  readonly mentionsWC: Uint32Array;
  readonly mentionsW: Uint32Array;
  readonly flowWCC: Uint32Array;

  readonly cellStart: Uint32Array;
  readonly cellCountry: Uint8Array;
  readonly cellMentions: Uint16Array;
  readonly cellArticles: Uint16Array;
  cellCount = 0;
  /** Scratch for grouping one week's appearances by person. */
  private readonly personBucket: Uint32Array;
  private readonly ordered: Uint32Array;

  constructor(private readonly input: ArticleInput) {
    const W = input.weekStartSeconds.length;
    const P = (this.P = input.personCountry.length);
    const C = (this.C = input.countryCount);
    const S = input.sourceCountry.length;
    this.random = input.random;
    const weekArticleStart = (this.weekArticleStart = input.weekArticleStart);
    const articleCount = (this.articleCount = weekArticleStart[W]!);
    let longestWeek = 0;
    for (let w = 0; w < W; w++) longestWeek = Math.max(longestWeek, weekArticleStart[w + 1]! - weekArticleStart[w]!);

    this.weekPosition = new Uint32Array(W);
    this.articlePosition = new Uint32Array(articleCount);
    this.articleSource = new Uint16Array(articleCount);
    this.articleWeek = new Uint16Array(articleCount);
    this.articleCountry = new Uint8Array(articleCount);
    this.articleAppStart = new Uint32Array(articleCount + 1);
    const appCapacity = articleCount * MAX_PEOPLE_PER_ARTICLE;
    this.appPerson = new Uint16Array(appCapacity);
    this.appArticle = new Uint32Array(appCapacity);
    this.appMentionStart = new Uint32Array(appCapacity + 1);
    this.appPosition = new Uint32Array(appCapacity);
    this.appCell = new Uint32Array(appCapacity);

    this.mentionsWP = new Uint32Array(W * P);
    this.mentionsWC = new Uint32Array(W * C);
    this.mentionsW = new Uint32Array(W);
    this.flowWCC = new Uint32Array(W * C * C);

    this.cellStart = new Uint32Array(W * P + 1);
    this.cellCountry = new Uint8Array(appCapacity);
    this.cellMentions = new Uint16Array(appCapacity);
    this.cellArticles = new Uint16Array(appCapacity);
    this.personBucket = new Uint32Array(P + 1);
    this.ordered = new Uint32Array(longestWeek * MAX_PEOPLE_PER_ARTICLE);

    this.home = groupPeople((p) => input.personCountry[p]!, C, P);
    this.region = groupPeople((p) => input.regionOfCountry[input.personCountry[p]!]!, input.regionCount, P);
    this.globalCumulative = new Float64Array(P);
    this.sourceCumulative = new Float64Array(S);
    this.activeSources = new Int32Array(S);
  }

  /** Running totals of week w's popularity: over everyone, and within each home country and region. */
  private cumulateWeek(w: number): void {
    const { P, input } = this;
    const popularity = input.popularity;
    const offset = w * P;
    let total = 0;
    for (let p = 0; p < P; p++) {
      total += popularity[offset + p]!;
      this.globalCumulative[p] = total;
    }
    cumulateGroups(this.home, popularity, offset);
    cumulateGroups(this.region, popularity, offset);
    let sourceTotal = 0;
    let active = 0;
    for (let s = 0; s < input.sourceWeight.length; s++) {
      if (w >= input.sourcePausedFrom[s]!) continue;
      sourceTotal += input.sourceWeight[s]!;
      this.sourceCumulative[active] = sourceTotal;
      this.activeSources[active++] = s;
    }
    this.activeSourceCount = active;
  }

  /** A person for an article from a source of country c: mostly home, then region, then anyone. */
  private pickPerson(c: number, regionIndex: number): number {
    const random = this.random;
    const where = random.next();
    const home = this.home;
    if (where < 0.4 && home.start[c]! < home.start[c + 1]! && home.cumulative[home.start[c + 1]! - 1]! > 0) {
      return home.members[pickCumulative(home.cumulative, home.start[c]!, home.start[c + 1]!, random.next())]!;
    }
    const region = this.region;
    if (where < 0.6 && region.start[regionIndex]! < region.start[regionIndex + 1]! && region.cumulative[region.start[regionIndex + 1]! - 1]! > 0) {
      return region.members[pickCumulative(region.cumulative, region.start[regionIndex]!, region.start[regionIndex + 1]!, random.next())]!;
    }
    return pickCumulative(this.globalCumulative, 0, this.P, random.next());
  }

  week(w: number): void {
    this.cumulateWeek(w);
    const first = this.weekArticleStart[w]!;
    const end = this.weekArticleStart[w + 1]!;
    // The week's publication times come first in the stream: one draw per article (ArticleDetails).
    this.weekPosition[w] = this.random.position;
    this.random.skip(end - first);
    const firstApp = this.appCount;
    for (let a = first; a < end; a++) this.article(a, w);
    this.groupCells(w, firstApp, this.appCount);
  }

  private article(a: number, w: number): void {
    const { random, input, chosen, P, C } = this;
    this.articlePosition[a] = random.position;
    const sourceIndex = this.activeSources[pickCumulative(this.sourceCumulative, 0, this.activeSourceCount, random.next())]!;
    const c = input.sourceCountry[sourceIndex]!;
    this.articleCountry[a] = c;
    const regionIndex = input.regionOfCountry[c]!;
    this.articleSource[a] = sourceIndex;
    this.articleWeek[a] = w;
    this.articleAppStart[a] = this.appCount;
    random.skip(ARTICLE_DRAWS.peopleCount - ARTICLE_DRAWS.source - 1);

    const peopleDraw = random.next();
    const peopleInArticle = peopleDraw < 0.45 ? 1 : peopleDraw < 0.75 ? 2 : peopleDraw < 0.9 ? 3 : peopleDraw < 0.97 ? 4 : 5;
    let chosenCount = 0;
    for (let k = 0; k < peopleInArticle; k++) {
      for (let attempt = 0; attempt < 8; attempt++) {
        const p = this.pickPerson(c, regionIndex);
        let seen = false;
        for (let i = 0; i < chosenCount; i++) if (chosen[i] === p) seen = true;
        if (!seen) {
          chosen[chosenCount++] = p;
          break;
        }
      }
    }

    for (let k = 0; k < chosenCount; k++) {
      const p = chosen[k]!;
      const mentionDraw = random.next();
      const mentions = mentionDraw < 0.65 ? 1 : mentionDraw < 0.9 ? 2 : 3;
      const app = this.appCount++;
      this.appPerson[app] = p;
      this.appArticle[app] = a;
      this.appMentionStart[app] = this.mentionCount;
      this.appPosition[app] = random.position;
      random.skip(TONE_DRAWS + mentions);
      this.mentionCount += mentions;
      this.appMentionStart[app + 1] = this.mentionCount;
      this.mentionsWP[w * P + p]! += mentions;
      this.mentionsWC[w * C + c]! += mentions;
      this.mentionsW[w]! += mentions;
      this.flowWCC[(w * C + c) * C + input.personCountry[p]!]! += mentions;
    }
  }

  /**
   * Week w's sparse (person, source country) cells: its appearances grouped by person (a stable
   * counting sort), then per person merged by country in order of first appearance.
   */
  private groupCells(w: number, firstApp: number, endApp: number): void {
    const { P, personBucket: bucket, ordered, appPerson } = this;
    bucket.fill(0);
    for (let i = firstApp; i < endApp; i++) bucket[appPerson[i]! + 1]!++;
    for (let p = 0; p < P; p++) bucket[p + 1]! += bucket[p]!;
    for (let i = firstApp; i < endApp; i++) ordered[bucket[appPerson[i]!]!++] = i;
    // bucket[p] is now the end of person p's run (the start of p + 1's).
    let k = 0;
    for (let p = 0; p < P; p++) {
      const firstCell = this.cellCount;
      for (; k < bucket[p]!; k++) {
        const app = ordered[k]!;
        const country = this.articleCountry[this.appArticle[app]!]!;
        let cell = firstCell;
        while (cell < this.cellCount && this.cellCountry[cell] !== country) cell++;
        if (cell === this.cellCount) this.cellCountry[this.cellCount++] = country;
        this.cellMentions[cell]! += this.appMentionStart[app + 1]! - this.appMentionStart[app]!;
        this.cellArticles[cell]! += 1;
        this.appCell[app] = cell;
      }
      this.cellStart[w * P + p + 1] = this.cellCount;
    }
  }
}

function cumulateGroups(groups: Groups, popularity: Float64Array, offset: number): void {
  const { start, members, cumulative } = groups;
  for (let g = 0; g + 1 < start.length; g++) {
    let total = 0;
    for (let i = start[g]!; i < start[g + 1]!; i++) {
      total += popularity[offset + members[i]!]!;
      cumulative[i] = total;
    }
  }
}

/**
 * What the start skipped, drawn from the saved stream positions when first asked for: publication
 * times (a week at a time: they are sorted within their week), text seeds and hash bits (per
 * article), sentiments (per mention, and summed per week into sentimentWP and cellSentiment).
 */
export class ArticleDetails {
  private readonly publishedTimes: Float64Array;
  private readonly publishedWeeks: Uint8Array;
  private readonly sentimentWeeks: Uint8Array;
  /** [w*P + p]: summed mention sentiment in thousandths (integers keep every sum exact). Filled by sentimentOf. */
  readonly sentimentWP: Int32Array;
  /** Per cell: summed mention sentiment in thousandths. Filled by sentimentOf. */
  readonly cellSentiment: Int32Array;

  constructor(
    private readonly stage: ArticleBuilder,
    private readonly input: ArticleInput,
    private readonly appCell: Uint32Array,
  ) {
    const W = input.weekStartSeconds.length;
    this.publishedTimes = new Float64Array(stage.articleCount);
    this.publishedWeeks = new Uint8Array(W);
    this.sentimentWeeks = new Uint8Array(W);
    this.sentimentWP = new Int32Array(W * input.personCountry.length);
    this.cellSentiment = new Int32Array(stage.cellCount);
  }

  /** Publication time of article a, in seconds. */
  published(a: number): number {
    this.publishWeek(this.stage.articleWeek[a]!);
    return this.publishedTimes[a]!;
  }

  /** Every article's publication time (ascending). */
  allPublished(): Float64Array {
    for (let w = 0; w < this.publishedWeeks.length; w++) this.publishWeek(w);
    return this.publishedTimes;
  }

  private publishWeek(w: number): void {
    if (this.publishedWeeks[w]) return;
    this.publishedWeeks[w] = 1;
    const first = this.stage.weekArticleStart[w]!;
    const offsets = this.publishedTimes.subarray(first, this.stage.weekArticleStart[w + 1]);
    const position = this.stage.weekPosition[w]!;
    const span = this.input.weekSpan[w]!;
    for (let i = 0; i < offsets.length; i++) offsets[i] = Math.floor(drawAt(position, i + 1) * span);
    offsets.sort();
    const weekStart = this.input.weekStartSeconds[w]!;
    for (let i = 0; i < offsets.length; i++) offsets[i] = weekStart + offsets[i]!;
  }

  textSeed(a: number): number {
    return Math.floor(drawAt(this.stage.articlePosition[a]!, ARTICLE_DRAWS.textSeed) * 4294967296);
  }

  /** articleHash is 2^60 + hashHigh * 2^32 + hashLow. */
  hashHigh(a: number): number {
    return Math.floor(drawAt(this.stage.articlePosition[a]!, ARTICLE_DRAWS.hashHigh) * 268435456);
  }

  hashLow(a: number): number {
    return permute32((a + this.input.hashOffset) >>> 0);
  }

  /** Sentiment of an appearance's mention (ordinal 0, 1, 2), in thousandths (-1000..1000). */
  mentionSentimentMilli(app: number, ordinal: number): number {
    const position = this.stage.appPosition[app]!;
    // roughNormal(random, 0.3), as random.ts writes it.
    const tone = this.input.personTone[this.stage.appPerson[app]!]! + (drawAt(position, 1) + drawAt(position, 2) + drawAt(position, 3) - 1.5) * 2 * 0.3;
    // Mentions in one article share its tone, up to ±0.2.
    return Math.round(Math.max(-1, Math.min(1, tone + (drawAt(position, TONE_DRAWS + 1 + ordinal) - 0.5) * 0.4)) * 1000);
  }

  /** Summed sentiment of an appearance's mentions, in thousandths. */
  appearanceSentimentMilli(app: number): number {
    const mentions = this.stage.appMentionStart[app + 1]! - this.stage.appMentionStart[app]!;
    let sum = 0;
    for (let m = 0; m < mentions; m++) sum += this.mentionSentimentMilli(app, m);
    return sum;
  }

  /** Fills sentimentWP and cellSentiment for weeks start..end (data-week indices, both included). */
  sentimentOf(start: number, end: number): this {
    const { stage } = this;
    const P = this.input.personCountry.length;
    for (let w = start; w <= end; w++) {
      if (this.sentimentWeeks[w]) continue;
      this.sentimentWeeks[w] = 1;
      const firstApp = stage.articleAppStart[stage.weekArticleStart[w]!]!;
      const endApp = stage.articleAppStart[stage.weekArticleStart[w + 1]!]!;
      for (let app = firstApp; app < endApp; app++) {
        const sum = this.appearanceSentimentMilli(app);
        this.sentimentWP[w * P + stage.appPerson[app]!]! += sum;
        this.cellSentiment[this.appCell[app]!]! += sum;
      }
    }
    return this;
  }
}

export function generateArticles(input: ArticleInput): ArticleData {
  const builder = new ArticleBuilder(input);
  const W = input.weekStartSeconds.length;
  const P = input.personCountry.length;
  for (let w = 0; w < W; w++) builder.week(w);
  const { articleCount, appCount, mentionCount, cellCount } = builder;
  builder.articleAppStart[articleCount] = appCount;
  builder.appMentionStart[appCount] = mentionCount;
  const appPerson = builder.appPerson.subarray(0, appCount);
  const appArticle = builder.appArticle.subarray(0, appCount);

  // Per-person appearance lists, in article (time) order.
  const personAppStart = new Uint32Array(P + 1);
  for (let i = 0; i < appCount; i++) personAppStart[appPerson[i]! + 1]!++;
  for (let p = 0; p < P; p++) personAppStart[p + 1]! += personAppStart[p]!;
  const personApps = new Uint32Array(appCount);
  const fill = personAppStart.slice(0, P);
  for (let i = 0; i < appCount; i++) personApps[fill[appPerson[i]!]!++] = i;

  const firstMentionWeek = new Int32Array(P).fill(-1);
  for (let p = 0; p < P; p++) {
    if (personAppStart[p]! < personAppStart[p + 1]!) firstMentionWeek[p] = builder.articleWeek[appArticle[personApps[personAppStart[p]!]!]!]!;
  }

  return {
    articleCount,
    articleSource: builder.articleSource,
    articleWeek: builder.articleWeek,
    articleAppStart: builder.articleAppStart,
    weekArticleStart: builder.weekArticleStart,
    appearanceCount: appCount,
    appPerson,
    appArticle,
    appMentionStart: builder.appMentionStart.subarray(0, appCount + 1),
    personAppStart,
    personApps,
    cellStart: builder.cellStart,
    cellCountry: builder.cellCountry.subarray(0, cellCount),
    cellMentions: builder.cellMentions.subarray(0, cellCount),
    cellArticles: builder.cellArticles.subarray(0, cellCount),
    mentionsWP: builder.mentionsWP,
    mentionsWC: builder.mentionsWC,
    mentionsW: builder.mentionsW,
    flowWCC: builder.flowWCC,
    firstMentionWeek,
    details: new ArticleDetails(builder, input, builder.appCell),
  };
}
