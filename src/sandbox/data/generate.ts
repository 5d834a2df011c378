/**
 * Builds the sandbox's dataset from (seed, now): countries, sources, people, and two years of
 * articles with their mentions, plus the per-week aggregates every metric is computed from.
 *
 * Articles, appearances (a person in an article) and mentions (a snippet of that person in the
 * article) live in typed arrays, not objects, so that ~33,000 articles and their aggregates build in
 * tens of milliseconds. Texts (titles, URLs, snippets) are not stored: text.ts derives them from a
 * per-article seed when asked.
 */
import { addWeeks, isoWeekOf, listWeeks, mondayOf } from '../../weeks.js';
import { COUNTRIES, type CountryRecord } from './countries.js';
import { CULTURE_KEYS, MIXABLE_CULTURES, NAME_CULTURES, namePart } from './names.js';
import {
  mixSeed,
  mulberry32,
  permute32,
  pick,
  pickCumulative,
  randomInt,
  roughNormal,
  shuffle,
  type Random,
} from '../random.js';
import { searchFold, slugify } from './slug.js';

/** Weeks of articles, ending at (and including) the current week. */
export const DATA_WEEKS = 104;
export const PEOPLE_COUNT = 480;
export const SOURCE_COUNT = 124;
/** Mean articles a full week; a seasonal wave and noise move it by up to about ±25%. */
const MEAN_WEEKLY_ARTICLES = 325;
/** The current week is partial: it gets at least this share of a normal week's articles. */
const MIN_CURRENT_WEEK_SHARE = 0.35;

// The codes --gender sends for its names (src/api/gender.ts); a test keeps the two equal, so the
// CLI's flag parser does not share a chunk with the sandbox.
export const GENDERS = { unknown: 0, female: 1, male: 2, nonBinary: 3 } as const;
export const CATEGORIES = ['politics', 'business', 'sport', 'culture', 'science', 'entertainment'] as const;
export type Category = (typeof CATEGORIES)[number];
const CATEGORY_WEIGHTS = [30, 18, 18, 12, 10, 12];

export const SOURCE_SECTIONS = [
  'news', 'politics', 'world', 'business', 'economy', 'sport', 'culture', 'science', 'national', 'opinion',
] as const;

const DAY_SECONDS = 86_400;
const WEEK_SECONDS = 7 * DAY_SECONDS;

export interface PersonRecord {
  index: number;
  personHash: string;
  fullName: string;
  description: string | null;
  gender: number;
  category: Category;
  countryIndex: number;
  /** False for the few people whose Person.countryName the sandbox reports as null. */
  countryNameKnown: boolean;
  birthDate: string | null;
  /** Whole years at `now`; null when birthDate is null. */
  ageAtNow: number | null;
  createdAt: string;
  updatedAt: string;
  /** Folded "full name + hash" for the case- and accent-insensitive search. */
  searchText: string;
  foldedName: string;
  /** Mean sentiment the person's mentions scatter around. */
  tone: number;
}

export interface SourceRecord {
  index: number;
  sourceId: number;
  name: string;
  slug: string;
  url: string;
  countryIndex: number;
  description: string;
  status: 'active' | 'paused';
  lastCheckedDate: string | null;
  createdAt: string;
  updatedAt: string;
  sections: readonly string[];
  linkFilter: string;
  /** First data-week index without articles (DATA_WEEKS for active sources). */
  pausedFromWeekIndex: number;
}

export interface Dataset {
  seed: number;
  nowSeconds: number;
  currentWeek: number;
  last4StartWeek: number;
  /** Data weeks, ascending; index 0 is the oldest. */
  weeks: readonly number[];
  weekStartSeconds: Float64Array;
  countries: readonly CountryRecord[];
  sources: readonly SourceRecord[];
  /** Sorted by personHash: index order is the ranking tie-break order. */
  people: readonly PersonRecord[];
  personIndexByHash: ReadonlyMap<string, number>;

  articleCount: number;
  /** Articles are in publication order (ties keep generation order). */
  articleSource: Uint16Array;
  articlePublished: Float64Array;
  articleWeek: Uint16Array;
  articleTextSeed: Uint32Array;
  articleHashHigh: Uint32Array;
  articleHashLow: Uint32Array;
  /** Appearances of article a are articleAppStart[a] .. articleAppStart[a+1]-1. */
  articleAppStart: Uint32Array;
  /** First article of data week w is weekArticleStart[w]; length DATA_WEEKS + 1. */
  weekArticleStart: Uint32Array;

  appearanceCount: number;
  appPerson: Uint16Array;
  appArticle: Uint32Array;
  /** Mentions of appearance i are appMentionStart[i] .. appMentionStart[i+1]-1. */
  appMentionStart: Uint32Array;
  /** Per mention, sentiment in thousandths (-1000..1000): integers keep every sum exact. */
  mentionSentimentMilli: Int16Array;
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
  /** Sum of mention sentiment in thousandths. */
  cellSentiment: Int32Array;
  /** [w*P + p] */
  mentionsWP: Uint32Array;
  sentimentWP: Int32Array;
  /** [w*C + c]: all mentions in articles of sources of country c. */
  mentionsWC: Uint32Array;
  /** [w] */
  mentionsW: Uint32Array;
  /** [(w*C + sourceCountry)*C + personCountry]: mentions flowing from one country's press to another's people. */
  flowWCC: Uint32Array;
  /** Data-week index of the person's first mention ever; -1 when never mentioned. */
  firstMentionWeek: Int32Array;
}

export function formatTimestamp(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}

function weightedIndex(random: Random, weights: readonly number[]): number {
  let total = 0;
  for (const weight of weights) total += weight;
  let target = random() * total;
  for (let i = 0; i < weights.length; i++) {
    target -= weights[i]!;
    if (target < 0) return i;
  }
  return weights.length - 1;
}

/** Counts per country: `minimum` each, the rest spread by `weight`. */
function spreadOverCountries(random: Random, total: number, minimum: number, weight: (c: CountryRecord) => number): number[] {
  const counts = COUNTRIES.map(() => minimum);
  const weights = COUNTRIES.map(weight);
  for (let i = COUNTRIES.length * minimum; i < total; i++) counts[weightedIndex(random, weights)]!++;
  return counts;
}

const ROLES: Record<Category, readonly string[]> = {
  politics: ['member of parliament', 'regional governor', 'city mayor', 'opposition spokesperson', 'minister of transport', 'trade negotiator', 'party leader', 'senator'],
  business: ['chief executive of a logistics group', 'start-up founder', 'central bank economist', 'retail entrepreneur', 'shipping magnate', 'fintech investor'],
  sport: ['football striker', 'marathon runner', 'tennis player', 'cycling champion', 'basketball coach', 'chess grandmaster', 'swimmer'],
  culture: ['novelist', 'film director', 'museum curator', 'poet', 'architect', 'opera singer'],
  science: ['climate researcher', 'epidemiologist', 'astrophysicist', 'robotics engineer', 'marine biologist', 'mathematician'],
  entertainment: ['pop singer', 'television presenter', 'stand-up comedian', 'actor', 'podcast host', 'DJ'],
};

interface PersonDraft extends Omit<PersonRecord, 'index' | 'createdAt' | 'updatedAt'> {
  debutWeek: number;
  createdSeconds: number;
  updatedSeconds: number;
}

function generatePeople(random: Random, nowSeconds: number, now: Date, weekStartSeconds: Float64Array): { drafts: PersonDraft[] } {
  const perCountry = spreadOverCountries(random, PEOPLE_COUNT, 4, (c) => Math.pow(c.population, 0.3) * Math.pow(c.gdp, 0.2));
  const usedNames = new Set<string>();
  const usedHashes = new Set<string>();
  const drafts: PersonDraft[] = [];
  const dataStart = weekStartSeconds[0]!;

  COUNTRIES.forEach((country, countryIndex) => {
    for (let n = 0; n < perCountry[countryIndex]!; n++) {
      const genderDraw = random();
      const gender = genderDraw < 0.45 ? GENDERS.female : genderDraw < 0.92 ? GENDERS.male : genderDraw < 0.95 ? GENDERS.nonBinary : GENDERS.unknown;
      let fullName = '';
      let asciiName = '';
      for (let attempt = 0; attempt < 50; attempt++) {
        // Mostly the country's own cultures; some diaspora; some mixed given/family cultures.
        const givenCulture = random() < 0.82 ? pick(random, country.cultures) : pick(random, CULTURE_KEYS);
        // Mixed given/family names stay within one script and name order, so they read naturally.
        const familyCulture = random() < 0.1 && MIXABLE_CULTURES.includes(givenCulture) ? pick(random, MIXABLE_CULTURES) : givenCulture;
        const given = NAME_CULTURES[givenCulture]!;
        const family = NAME_CULTURES[familyCulture]!;
        const femaleForms = gender === GENDERS.female || (gender !== GENDERS.male && random() < 0.5);
        const givenPart = namePart(pick(random, femaleForms ? given.female : given.male));
        const familyIndex = Math.floor(random() * family.family.length);
        const familyPart = namePart(
          femaleForms && family.familyFemale ? family.familyFemale[familyIndex]! : family.family[familyIndex]!,
        );
        const [first, second] = given.familyFirst ? [familyPart, givenPart] : [givenPart, familyPart];
        fullName = `${first.display} ${second.display}`;
        asciiName = `${first.ascii} ${second.ascii}`;
        if (!usedNames.has(fullName)) break;
      }
      usedNames.add(fullName);
      let personHash = '';
      do {
        personHash = `${slugify(asciiName)}-${Math.floor(random() * 65536).toString(16).padStart(4, '0')}`;
      } while (usedHashes.has(personHash));
      usedHashes.add(personHash);

      const category = CATEGORIES[weightedIndex(random, CATEGORY_WEIGHTS)]!;
      const role = pick(random, ROLES[category]);
      const description = random() < 0.12 ? null : `Fictional ${role} from ${country.countryName}`;
      let birthDate: string | null = null;
      let ageAtNow: number | null = null;
      if (random() >= 0.08) {
        const youngest = category === 'sport' ? 2006 : 2002;
        const oldest = category === 'sport' ? 1978 : 1942;
        const year = randomInt(random, oldest, youngest);
        const month = randomInt(random, 1, 12);
        const day = randomInt(random, 1, 28);
        birthDate = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T00:00:00`;
        const nowMonth = now.getUTCMonth() + 1;
        const birthdayPassed = nowMonth > month || (nowMonth === month && now.getUTCDate() >= day);
        ageAtNow = now.getUTCFullYear() - year - (birthdayPassed ? 0 : 1);
      }
      const countryNameKnown = random() >= 0.05;
      const tone = Math.max(-0.6, Math.min(0.7, roughNormal(random, 0.22) + (category === 'politics' ? -0.08 : 0.1)));
      drafts.push({
        personHash,
        fullName,
        description,
        gender,
        category,
        countryIndex,
        countryNameKnown,
        birthDate,
        ageAtNow,
        searchText: searchFold(`${fullName} ${personHash}`),
        foldedName: searchFold(fullName),
        tone,
        debutWeek: 0,
        createdSeconds: dataStart - randomInt(random, 30, 900) * DAY_SECONDS - randomInt(random, 0, DAY_SECONDS - 1),
        updatedSeconds: 0,
      });
    }
  });

  // Newcomers: a few debut in the last four weeks (so `fresh` always has answers), more earlier.
  const order = shuffle(random, drafts.map((_, i) => i));
  order.forEach((draftIndex, position) => {
    const draft = drafts[draftIndex]!;
    if (position < 6) draft.debutWeek = DATA_WEEKS - 4 + (position % 4);
    else if (position < 56) draft.debutWeek = randomInt(random, 4, DATA_WEEKS - 5);
    if (draft.debutWeek > 0) {
      draft.createdSeconds = weekStartSeconds[draft.debutWeek]! - randomInt(random, 1, 5 * DAY_SECONDS);
    }
    draft.updatedSeconds = draft.createdSeconds + Math.floor(random() * (nowSeconds - draft.createdSeconds));
  });
  return { drafts };
}

const SOURCE_PLACES = [
  'Northbridge', 'Eastvale', 'Harbourside', 'Riverton', 'Lakemont', 'Kestrel', 'Silverpine', 'Meridian', 'Granite',
  'Copperfield', 'Bluewater', 'Highgate', 'Saltmarsh', 'Ironwood', 'Fairhaven', 'Redcliff', 'Westmoor', 'Ambergate',
  'Stonebrook', 'Clearwater', 'Larkspur', 'Thornbury',
];
const SOURCE_KINDS = [
  'Courier', 'Herald', 'Observer', 'Ledger', 'Dispatch', 'Gazette', 'Tribune', 'Chronicle', 'Post', 'Daily', 'Wire',
  'Review', 'Times', 'Bulletin', 'Sentinel',
];

/** Every this-many-th source has never been checked (lastCheckedDate null). */
const NEVER_CHECKED_EVERY = 37;

function generateSources(random: Random, nowSeconds: number, weekStartSeconds: Float64Array): { sources: SourceRecord[]; weights: number[] } {
  const perCountry = spreadOverCountries(random, SOURCE_COUNT, 2, (c) => Math.pow(c.population, 0.25) * Math.pow(c.gdp, 0.25));
  const names = shuffle(random, SOURCE_PLACES.flatMap((place) => SOURCE_KINDS.map((kind) => `${place} ${kind}`)));
  const sources: SourceRecord[] = [];
  const weights: number[] = [];
  const dataStart = weekStartSeconds[0]!;
  COUNTRIES.forEach((country, countryIndex) => {
    for (let n = 0; n < perCountry[countryIndex]!; n++) {
      const index = sources.length;
      const name = names[index]!;
      const slug = slugify(name);
      const url = `https://www.${slug}.example`;
      const sections = shuffle(random, [...SOURCE_SECTIONS]).slice(0, randomInt(random, 2, 3)).sort();
      const linkFilter = `^https://www\\.${slug}\\.example/(${sections.join('|')})/\\d{4}/`;
      const paused = random() < 0.06;
      const pausedFromWeekIndex = paused ? DATA_WEEKS - randomInt(random, 3, 30) : DATA_WEEKS;
      const lastChecked = paused
        ? weekStartSeconds[pausedFromWeekIndex]! + randomInt(random, 0, DAY_SECONDS)
        : nowSeconds - randomInt(random, 300, 6 * 3600);
      const created = dataStart - randomInt(random, 60, 2000) * DAY_SECONDS - randomInt(random, 0, DAY_SECONDS - 1);
      const updated = created + Math.floor(random() * (lastChecked - created));
      const kind = pick(random, ['daily newspaper', 'online newsroom', 'weekly magazine', 'public broadcaster', 'news agency']);
      sources.push({
        index,
        sourceId: index + 1,
        name,
        slug,
        url,
        countryIndex,
        description: `Fictional ${kind} in ${country.countryName}, covering ${sections.join(', ')}.`,
        status: paused ? 'paused' : 'active',
        // A few sources were added but never checked: the contract lets lastCheckedDate be null, and a
        // first run should show how that looks. Chosen by index, so no other value moves.
        lastCheckedDate: index % NEVER_CHECKED_EVERY === NEVER_CHECKED_EVERY - 1 ? null : formatTimestamp(lastChecked),
        createdAt: formatTimestamp(created),
        updatedAt: formatTimestamp(updated),
        sections,
        linkFilter,
        pausedFromWeekIndex,
      });
      // Heavy-tailed output: a few big outlets, many small ones.
      weights.push(Math.min(12, 0.4 / Math.pow(1 - random() * 0.97, 0.75)));
    }
  });
  return { sources, weights };
}

/** A burst's weight k weeks from its peak, relative to the peak. */
const BURST_DECAY = Float64Array.from({ length: DATA_WEEKS }, (_, k) => Math.pow(0.45, k));

/** Per person per week: how likely each article is to pick them (before home/region bias). */
function popularityByWeek(random: Random, people: readonly PersonDraft[]): Float64Array {
  const P = people.length;
  const weights = new Float64Array(DATA_WEEKS * P);
  const zipfRank = shuffle(random, people.map((_, i) => i + 1));
  people.forEach((person, p) => {
    let base = 1 / Math.pow(zipfRank[p]!, 0.95);
    if (person.debutWeek > 0) base = Math.max(base, 0.02 + random() * 0.05);
    // A slow wave (terms, seasons, campaigns) and a few bursts (events, scandals).
    const amplitude = random() * 0.9;
    const period = 8 + random() * 52;
    const phase = random() * 2 * Math.PI;
    const burstCount = weightedIndex(random, [35, 35, 20, 10]);
    const burstWeeks: number[] = [];
    const burstHeights: number[] = [];
    for (let b = 0; b < burstCount; b++) {
      burstWeeks.push(randomInt(random, 0, DATA_WEEKS - 1));
      burstHeights.push(3 + random() * 14);
    }
    if (person.debutWeek > 0) {
      burstWeeks.push(person.debutWeek);
      burstHeights.push(8 + random() * 12);
    }
    for (let w = person.debutWeek; w < DATA_WEEKS; w++) {
      let burst = 1;
      for (let b = 0; b < burstWeeks.length; b++) burst += burstHeights[b]! * BURST_DECAY[Math.abs(w - burstWeeks[b]!)]!;
      weights[w * P + p] = base * Math.exp(amplitude * Math.sin((2 * Math.PI * w) / period + phase)) * burst;
    }
  });
  return weights;
}

/** Running totals of `weights[offset + members[i]]` over `members`, into `into`. */
function cumulate(weights: Float64Array, offset: number, members: readonly number[], into: Float64Array): number {
  let total = 0;
  for (let i = 0; i < members.length; i++) {
    total += weights[offset + members[i]!]!;
    into[i] = total;
  }
  return total;
}

/**
 * Groups appearances into sparse (week, person, country) cells. A counting sort by week*P + person
 * (linear, no comparisons), then per bucket a merge by country; buckets hold a handful of items.
 */
function buildCells(input: {
  W: number;
  P: number;
  appCount: number;
  appPerson: Uint16Array;
  appArticle: Uint32Array;
  appMentionStart: Uint32Array;
  appSentimentMilli: Int32Array;
  articleWeek: Uint16Array;
  articleCountry: Uint8Array;
}): Pick<Dataset, 'cellStart' | 'cellCountry' | 'cellMentions' | 'cellArticles' | 'cellSentiment'> {
  const { W, P, appCount } = input;
  const bucketStart = new Uint32Array(W * P + 1);
  const bucketOf = new Uint32Array(appCount);
  for (let i = 0; i < appCount; i++) {
    const bucket = input.articleWeek[input.appArticle[i]!]! * P + input.appPerson[i]!;
    bucketOf[i] = bucket;
    bucketStart[bucket + 1]!++;
  }
  for (let b = 0; b < W * P; b++) bucketStart[b + 1]! += bucketStart[b]!;
  const next = bucketStart.slice(0, W * P);
  const ordered = new Uint32Array(appCount);
  for (let i = 0; i < appCount; i++) ordered[next[bucketOf[i]!]!++] = i;

  const cellStart = new Uint32Array(W * P + 1);
  const cellCountry = new Uint8Array(appCount);
  const cellMentions = new Uint16Array(appCount);
  const cellArticles = new Uint16Array(appCount);
  const cellSentiment = new Int32Array(appCount);
  let cellCount = 0;
  for (let b = 0; b < W * P; b++) {
    const firstCell = cellCount;
    for (let k = bucketStart[b]!; k < bucketStart[b + 1]!; k++) {
      const appearance = ordered[k]!;
      const country = input.articleCountry[input.appArticle[appearance]!]!;
      let cell = firstCell;
      while (cell < cellCount && cellCountry[cell] !== country) cell++;
      if (cell === cellCount) cellCountry[cellCount++] = country;
      cellMentions[cell]! += input.appMentionStart[appearance + 1]! - input.appMentionStart[appearance]!;
      cellArticles[cell]! += 1;
      cellSentiment[cell]! += input.appSentimentMilli[appearance]!;
    }
    cellStart[b + 1] = cellCount;
  }
  return {
    cellStart,
    cellCountry: cellCountry.slice(0, cellCount),
    cellMentions: cellMentions.slice(0, cellCount),
    cellArticles: cellArticles.slice(0, cellCount),
    cellSentiment: cellSentiment.slice(0, cellCount),
  };
}

export function generateDataset(seed: number, now: Date): Dataset {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const currentWeek = isoWeekOf(now);
  const last4StartWeek = addWeeks(currentWeek, -3);
  const weeks = listWeeks(addWeeks(currentWeek, -(DATA_WEEKS - 1)), currentWeek);
  const weekStartSeconds = Float64Array.from(weeks, (week) => mondayOf(week).getTime() / 1000);

  // Independent streams per stage: changing one stage's draws does not reshuffle the others.
  const { drafts } = generatePeople(mulberry32(mixSeed(seed, 1)), nowSeconds, now, weekStartSeconds);
  const { sources, weights: sourceWeights } = generateSources(mulberry32(mixSeed(seed, 2)), nowSeconds, weekStartSeconds);

  // Index order = personHash order, so ranking ties break by index.
  drafts.sort((a, b) => (a.personHash < b.personHash ? -1 : a.personHash > b.personHash ? 1 : 0));
  const people: PersonRecord[] = drafts.map((draft, index) => ({
    index,
    personHash: draft.personHash,
    fullName: draft.fullName,
    description: draft.description,
    gender: draft.gender,
    category: draft.category,
    countryIndex: draft.countryIndex,
    countryNameKnown: draft.countryNameKnown,
    birthDate: draft.birthDate,
    ageAtNow: draft.ageAtNow,
    createdAt: formatTimestamp(draft.createdSeconds),
    updatedAt: formatTimestamp(draft.updatedSeconds),
    searchText: draft.searchText,
    foldedName: draft.foldedName,
    tone: draft.tone,
  }));
  const personIndexByHash = new Map(people.map((person) => [person.personHash, person.index]));
  const popularity = popularityByWeek(mulberry32(mixSeed(seed, 3)), drafts);

  const P = people.length;
  const C = COUNTRIES.length;
  const W = DATA_WEEKS;
  const S = sources.length;

  const random = mulberry32(mixSeed(seed, 4));
  // Articles per week: a yearly wave plus noise; the current week only up to `now`.
  const weekArticleStart = new Uint32Array(W + 1);
  const weekSpan = new Float64Array(W);
  const seasonPhase = random() * 2 * Math.PI;
  for (let w = 0; w < W; w++) {
    let count = MEAN_WEEKLY_ARTICLES * (1 + 0.12 * Math.sin((2 * Math.PI * w) / 52 + seasonPhase)) * (0.85 + 0.3 * random());
    weekSpan[w] = WEEK_SECONDS;
    if (w === W - 1) {
      const elapsed = nowSeconds - weekStartSeconds[w]! + 1;
      weekSpan[w] = elapsed;
      count *= Math.max(elapsed / WEEK_SECONDS, MIN_CURRENT_WEEK_SHARE);
    }
    weekArticleStart[w + 1] = weekArticleStart[w]! + Math.round(count);
  }
  const articleCount = weekArticleStart[W]!;

  const articleSource = new Uint16Array(articleCount);
  const articlePublished = new Float64Array(articleCount);
  const articleWeek = new Uint16Array(articleCount);
  const articleCountry = new Uint8Array(articleCount);
  const sourceCountry = Uint8Array.from(sources, (source) => source.countryIndex);
  const personTone = Float64Array.from(people, (person) => person.tone);
  const personCountry = Uint8Array.from(people, (person) => person.countryIndex);
  const articleTextSeed = new Uint32Array(articleCount);
  const articleHashHigh = new Uint32Array(articleCount);
  const articleHashLow = new Uint32Array(articleCount);
  const articleAppStart = new Uint32Array(articleCount + 1);
  const appCapacity = articleCount * 5;
  const appPerson = new Uint16Array(appCapacity);
  const appArticle = new Uint32Array(appCapacity);
  const appMentionStart = new Uint32Array(appCapacity + 1);
  const mentionSentimentMilli = new Int16Array(appCapacity * 3);
  const appSentimentMilli = new Int32Array(appCapacity);

  const mentionsWP = new Uint32Array(W * P);
  const sentimentWP = new Int32Array(W * P);
  const mentionsWC = new Uint32Array(W * C);
  const mentionsW = new Uint32Array(W);
  const flowWCC = new Uint32Array(W * C * C);

  const allPeople = people.map((person) => person.index);
  const regionOfCountry = COUNTRIES.map((country) => country.region);
  const regions = [...new Set(regionOfCountry)];
  const regionIndexOfCountry = regionOfCountry.map((region) => regions.indexOf(region));
  const homeMembers: number[][] = COUNTRIES.map(() => []);
  const regionMembers: number[][] = regions.map(() => []);
  for (const person of people) {
    homeMembers[person.countryIndex]!.push(person.index);
    regionMembers[regionIndexOfCountry[person.countryIndex]!]!.push(person.index);
  }
  const globalCumulative = new Float64Array(P);
  const homeCumulative = homeMembers.map((members) => new Float64Array(members.length));
  const homeTotal = new Float64Array(C);
  const regionCumulative = regionMembers.map((members) => new Float64Array(members.length));
  const regionTotal = new Float64Array(regions.length);
  const sourceCumulative = new Float64Array(S);
  const activeSources: number[] = [];
  const hashOffset = mixSeed(seed, 5);
  const chosen: number[] = [];

  let appCount = 0;
  let mentionCount = 0;
  for (let w = 0; w < W; w++) {
    const popularityOffset = w * P;
    cumulate(popularity, popularityOffset, allPeople, globalCumulative);
    for (let c = 0; c < C; c++) homeTotal[c] = cumulate(popularity, popularityOffset, homeMembers[c]!, homeCumulative[c]!);
    for (let r = 0; r < regions.length; r++) {
      regionTotal[r] = cumulate(popularity, popularityOffset, regionMembers[r]!, regionCumulative[r]!);
    }
    activeSources.length = 0;
    let sourceTotal = 0;
    for (const source of sources) {
      if (w >= source.pausedFromWeekIndex) continue;
      sourceTotal += sourceWeights[source.index]!;
      sourceCumulative[activeSources.length] = sourceTotal;
      activeSources.push(source.index);
    }

    const first = weekArticleStart[w]!;
    const end = weekArticleStart[w + 1]!;
    const offsets = new Float64Array(end - first);
    for (let i = 0; i < offsets.length; i++) offsets[i] = Math.floor(random() * weekSpan[w]!);
    offsets.sort();

    for (let a = first; a < end; a++) {
      const sourceIndex = activeSources[pickCumulative(sourceCumulative, activeSources.length, random())]!;
      const c = sourceCountry[sourceIndex]!;
      articleCountry[a] = c;
      const region = regionIndexOfCountry[c]!;
      articleSource[a] = sourceIndex;
      articlePublished[a] = weekStartSeconds[w]! + offsets[a - first]!;
      articleWeek[a] = w;
      articleTextSeed[a] = Math.floor(random() * 4294967296);
      articleHashHigh[a] = Math.floor(random() * 268435456);
      articleHashLow[a] = permute32((a + hashOffset) >>> 0);
      articleAppStart[a] = appCount;

      const peopleDraw = random();
      const peopleInArticle = peopleDraw < 0.45 ? 1 : peopleDraw < 0.75 ? 2 : peopleDraw < 0.9 ? 3 : peopleDraw < 0.97 ? 4 : 5;
      chosen.length = 0;
      for (let k = 0; k < peopleInArticle; k++) {
        for (let attempt = 0; attempt < 8; attempt++) {
          // People are mentioned most by their own country's press, then their region's.
          const where = random();
          let p: number;
          if (where < 0.4 && homeTotal[c]! > 0) {
            p = homeMembers[c]![pickCumulative(homeCumulative[c]!, homeMembers[c]!.length, random())]!;
          } else if (where < 0.6 && regionTotal[region]! > 0) {
            const members = regionMembers[region]!;
            p = members[pickCumulative(regionCumulative[region]!, members.length, random())]!;
          } else {
            p = pickCumulative(globalCumulative, P, random());
          }
          if (!chosen.includes(p)) {
            chosen.push(p);
            break;
          }
        }
      }

      for (const p of chosen) {
        const mentionDraw = random();
        const mentions = mentionDraw < 0.65 ? 1 : mentionDraw < 0.9 ? 2 : 3;
        const appearanceTone = personTone[p]! + roughNormal(random, 0.3);
        appPerson[appCount] = p;
        appArticle[appCount] = a;
        appMentionStart[appCount] = mentionCount;
        let sentimentSum = 0;
        for (let m = 0; m < mentions; m++) {
          // Mentions in one article share its tone, up to ±0.2 (one draw: this loop runs ~120,000 times).
          const sentiment = Math.round(Math.max(-1, Math.min(1, appearanceTone + (random() - 0.5) * 0.4)) * 1000);
          mentionSentimentMilli[mentionCount++] = sentiment;
          sentimentSum += sentiment;
        }
        appSentimentMilli[appCount] = sentimentSum;
        appCount++;
        mentionsWP[w * P + p]! += mentions;
        sentimentWP[w * P + p]! += sentimentSum;
        mentionsWC[w * C + c]! += mentions;
        mentionsW[w]! += mentions;
        flowWCC[(w * C + c) * C + personCountry[p]!]! += mentions;
      }
    }
  }
  articleAppStart[articleCount] = appCount;
  appMentionStart[appCount] = mentionCount;

  // Per-person appearance lists, in article (time) order.
  const personAppStart = new Uint32Array(P + 1);
  for (let i = 0; i < appCount; i++) personAppStart[appPerson[i]! + 1]!++;
  for (let p = 0; p < P; p++) personAppStart[p + 1]! += personAppStart[p]!;
  const personApps = new Uint32Array(appCount);
  const fill = personAppStart.slice(0, P);
  for (let i = 0; i < appCount; i++) personApps[fill[appPerson[i]!]!++] = i;

  const cells = buildCells({ W, P, appCount, appPerson, appArticle, appMentionStart, appSentimentMilli, articleWeek, articleCountry });

  const firstMentionWeek = new Int32Array(P).fill(-1);
  for (let p = 0; p < P; p++) {
    const firstApp = personAppStart[p]! < personAppStart[p + 1]! ? personApps[personAppStart[p]!]! : -1;
    if (firstApp >= 0) firstMentionWeek[p] = articleWeek[appArticle[firstApp]!]!;
  }

  return {
    seed,
    nowSeconds,
    currentWeek,
    last4StartWeek,
    weeks,
    weekStartSeconds,
    countries: COUNTRIES,
    sources,
    people,
    personIndexByHash,
    articleCount,
    articleSource,
    articlePublished,
    articleWeek,
    articleTextSeed,
    articleHashHigh,
    articleHashLow,
    articleAppStart,
    weekArticleStart,
    appearanceCount: appCount,
    appPerson: appPerson.subarray(0, appCount),
    appArticle: appArticle.subarray(0, appCount),
    appMentionStart: appMentionStart.subarray(0, appCount + 1),
    mentionSentimentMilli: mentionSentimentMilli.subarray(0, mentionCount),
    personAppStart,
    personApps,
    ...cells,
    mentionsWP,
    sentimentWP,
    mentionsWC,
    mentionsW,
    flowWCC,
    firstMentionWeek,
  };
}
