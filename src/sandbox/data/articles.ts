/**
 * The article stage of the dataset (generate.ts): two years of articles, who appears in each, their
 * mentions, and the per-week aggregates every metric reads.
 *
 * It makes about 660,000 random draws, and a sandbox pays for it at every start, so it is written for
 * V8 rather than for brevity: one RandomStream whose draw compiles into its callers, a function per
 * week (a function called 104 times is optimised after a few calls; one loop over 33,000 articles
 * waits for on-stack replacement and ran several times slower), flat typed arrays for the pick
 * tables, and the cells grouped week by week as each week is made. The draws, their order and every
 * arithmetic step are those of the plain version this replaced, so the data is byte-identical
 * (test/sandbox/fingerprint.test.ts).
 */
import { permute32, pickCumulative, RandomStream } from '../random.js';
import type { Dataset } from './generate.js';
/** The most people one article names. */
const MAX_PEOPLE_PER_ARTICLE = 5;
const MAX_MENTIONS_PER_APPEARANCE = 3;

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

export type ArticleData = Pick<
  Dataset,
  | 'articleCount'
  | 'articleSource'
  | 'articlePublished'
  | 'articleWeek'
  | 'articleTextSeed'
  | 'articleHashHigh'
  | 'articleHashLow'
  | 'articleAppStart'
  | 'weekArticleStart'
  | 'appearanceCount'
  | 'appPerson'
  | 'appArticle'
  | 'appMentionStart'
  | 'mentionSentimentMilli'
  | 'personAppStart'
  | 'personApps'
  | 'cellStart'
  | 'cellCountry'
  | 'cellMentions'
  | 'cellArticles'
  | 'cellSentiment'
  | 'mentionsWP'
  | 'sentimentWP'
  | 'mentionsWC'
  | 'mentionsW'
  | 'flowWCC'
  | 'firstMentionWeek'
>;

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
  private readonly offsets: Float64Array;
  private readonly chosen = new Int32Array(MAX_PEOPLE_PER_ARTICLE);
  private readonly weekSpan: Float64Array;

  readonly weekArticleStart: Uint32Array;
  readonly articleCount: number;
  readonly articleSource: Uint16Array;
  readonly articlePublished: Float64Array;
  readonly articleWeek: Uint16Array;
  readonly articleCountry: Uint8Array;
  readonly articleTextSeed: Uint32Array;
  readonly articleHashHigh: Uint32Array;
  readonly articleHashLow: Uint32Array;
  readonly articleAppStart: Uint32Array;
  readonly appPerson: Uint16Array;
  readonly appArticle: Uint32Array;
  readonly appMentionStart: Uint32Array;
  readonly appMentions: Uint8Array;
  readonly appSentimentMilli: Int32Array;
  readonly mentionSentimentMilli: Int16Array;
  appCount = 0;
  mentionCount = 0;

  readonly mentionsWP: Uint32Array;
  readonly sentimentWP: Int32Array;
  readonly mentionsWC: Uint32Array;
  readonly mentionsW: Uint32Array;
  readonly flowWCC: Uint32Array;

  readonly cellStart: Uint32Array;
  readonly cellCountry: Uint8Array;
  readonly cellMentions: Uint16Array;
  readonly cellArticles: Uint16Array;
  readonly cellSentiment: Int32Array;
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
    this.weekSpan = input.weekSpan;
    const articleCount = (this.articleCount = weekArticleStart[W]!);
    let longestWeek = 0;
    for (let w = 0; w < W; w++) longestWeek = Math.max(longestWeek, weekArticleStart[w + 1]! - weekArticleStart[w]!);

    this.articleSource = new Uint16Array(articleCount);
    this.articlePublished = new Float64Array(articleCount);
    this.articleWeek = new Uint16Array(articleCount);
    this.articleCountry = new Uint8Array(articleCount);
    this.articleTextSeed = new Uint32Array(articleCount);
    this.articleHashHigh = new Uint32Array(articleCount);
    this.articleHashLow = new Uint32Array(articleCount);
    this.articleAppStart = new Uint32Array(articleCount + 1);
    const appCapacity = articleCount * MAX_PEOPLE_PER_ARTICLE;
    this.appPerson = new Uint16Array(appCapacity);
    this.appArticle = new Uint32Array(appCapacity);
    this.appMentionStart = new Uint32Array(appCapacity + 1);
    this.appMentions = new Uint8Array(appCapacity);
    this.appSentimentMilli = new Int32Array(appCapacity);
    this.mentionSentimentMilli = new Int16Array(appCapacity * MAX_MENTIONS_PER_APPEARANCE);

    this.mentionsWP = new Uint32Array(W * P);
    this.sentimentWP = new Int32Array(W * P);
    this.mentionsWC = new Uint32Array(W * C);
    this.mentionsW = new Uint32Array(W);
    this.flowWCC = new Uint32Array(W * C * C);

    this.cellStart = new Uint32Array(W * P + 1);
    this.cellCountry = new Uint8Array(appCapacity);
    this.cellMentions = new Uint16Array(appCapacity);
    this.cellArticles = new Uint16Array(appCapacity);
    this.cellSentiment = new Int32Array(appCapacity);
    this.personBucket = new Uint32Array(P + 1);
    this.ordered = new Uint32Array(longestWeek * MAX_PEOPLE_PER_ARTICLE);

    this.home = groupPeople((p) => input.personCountry[p]!, C, P);
    this.region = groupPeople((p) => input.regionOfCountry[input.personCountry[p]!]!, input.regionCount, P);
    this.globalCumulative = new Float64Array(P);
    this.sourceCumulative = new Float64Array(S);
    this.activeSources = new Int32Array(S);
    this.offsets = new Float64Array(longestWeek);
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
    for (const groups of [this.home, this.region]) {
      const { start, members, cumulative } = groups;
      for (let g = 0; g + 1 < start.length; g++) {
        let groupTotal = 0;
        for (let i = start[g]!; i < start[g + 1]!; i++) {
          groupTotal += popularity[offset + members[i]!]!;
          cumulative[i] = groupTotal;
        }
      }
    }
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
    const random = this.random;
    const first = this.weekArticleStart[w]!;
    const end = this.weekArticleStart[w + 1]!;
    const span = this.weekSpan[w]!;
    const offsets = this.offsets.subarray(0, end - first);
    for (let i = 0; i < offsets.length; i++) offsets[i] = Math.floor(random.next() * span);
    offsets.sort();
    const weekStart = this.input.weekStartSeconds[w]!;
    const firstApp = this.appCount;
    for (let a = first; a < end; a++) this.article(a, w, weekStart + offsets[a - first]!);
    this.groupCells(w, firstApp, this.appCount);
  }

  private article(a: number, w: number, published: number): void {
    const { random, input, chosen, P, C } = this;
    const sourceIndex = this.activeSources[pickCumulative(this.sourceCumulative, 0, this.activeSourceCount, random.next())]!;
    const c = input.sourceCountry[sourceIndex]!;
    this.articleCountry[a] = c;
    const regionIndex = input.regionOfCountry[c]!;
    this.articleSource[a] = sourceIndex;
    this.articlePublished[a] = published;
    this.articleWeek[a] = w;
    this.articleTextSeed[a] = Math.floor(random.next() * 4294967296);
    this.articleHashHigh[a] = Math.floor(random.next() * 268435456);
    this.articleHashLow[a] = permute32((a + input.hashOffset) >>> 0);
    this.articleAppStart[a] = this.appCount;

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
      // roughNormal(random, 0.3), as random.ts writes it.
      const appearanceTone = input.personTone[p]! + (random.next() + random.next() + random.next() - 1.5) * 2 * 0.3;
      const app = this.appCount++;
      this.appPerson[app] = p;
      this.appArticle[app] = a;
      this.appMentionStart[app] = this.mentionCount;
      this.appMentions[app] = mentions;
      let sentimentSum = 0;
      for (let m = 0; m < mentions; m++) {
        // Mentions in one article share its tone, up to ±0.2.
        const sentiment = Math.round(Math.max(-1, Math.min(1, appearanceTone + (random.next() - 0.5) * 0.4)) * 1000);
        this.mentionSentimentMilli[this.mentionCount++] = sentiment;
        sentimentSum += sentiment;
      }
      this.appSentimentMilli[app] = sentimentSum;
      this.mentionsWP[w * P + p]! += mentions;
      this.sentimentWP[w * P + p]! += sentimentSum;
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
        this.cellMentions[cell]! += this.appMentions[app]!;
        this.cellArticles[cell]! += 1;
        this.cellSentiment[cell]! += this.appSentimentMilli[app]!;
      }
      this.cellStart[w * P + p + 1] = this.cellCount;
    }
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
    articlePublished: builder.articlePublished,
    articleWeek: builder.articleWeek,
    articleTextSeed: builder.articleTextSeed,
    articleHashHigh: builder.articleHashHigh,
    articleHashLow: builder.articleHashLow,
    articleAppStart: builder.articleAppStart,
    weekArticleStart: builder.weekArticleStart,
    appearanceCount: appCount,
    appPerson,
    appArticle,
    appMentionStart: builder.appMentionStart.subarray(0, appCount + 1),
    mentionSentimentMilli: builder.mentionSentimentMilli.subarray(0, mentionCount),
    personAppStart,
    personApps,
    cellStart: builder.cellStart,
    cellCountry: builder.cellCountry.subarray(0, cellCount),
    cellMentions: builder.cellMentions.subarray(0, cellCount),
    cellArticles: builder.cellArticles.subarray(0, cellCount),
    cellSentiment: builder.cellSentiment.subarray(0, cellCount),
    mentionsWP: builder.mentionsWP,
    sentimentWP: builder.sentimentWP,
    mentionsWC: builder.mentionsWC,
    mentionsW: builder.mentionsW,
    flowWCC: builder.flowWCC,
    firstMentionWeek,
  };
}
