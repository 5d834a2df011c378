/**
 * Builds the sandbox's dataset from (seed, now): countries, sources, people, and two years of
 * articles with their mentions (articles.ts), plus the per-week aggregates every metric is computed
 * from.
 *
 * Articles, appearances (a person in an article) and mentions (a snippet of that person in the
 * article) live in typed arrays, not objects; what only some answers need (publication times,
 * sentiments) is drawn when first asked for (articles.ts, ArticleDetails). Texts (titles, URLs,
 * snippets) are not stored: text.ts derives them from a per-article seed when asked.
 */
import { addWeeks, isoWeekOf, listWeeks, mondayOf } from '../../shared/weeks.js';
import { COUNTRIES, type CountryRecord } from './countries.js';
import { CULTURE_KEYS, MIXABLE_CULTURES, NAME_CULTURES, namePart } from './names.js';
import {
  mixSeed,
  mulberry32,
  pick,
  randomInt,
  RandomStream,
  roughNormal,
  shuffle,
  type Random,
} from '../random.js';
import { generateArticles, type ArticleData } from './articles.js';
import { slugify } from './slug.js';

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
  /** Seconds; written as Person.createdAt and updatedAt when people are first asked for. */
  createdSeconds: number;
  updatedSeconds: number;
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

/** The dataset: who and what exists, and the article stage's articles, appearances and aggregates. */
export interface Dataset extends ArticleData {
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

interface PersonDraft extends Omit<PersonRecord, 'index'> {
  debutWeek: number;
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
    weeklyWeights(weights, P, p, person.debutWeek, { base, amplitude, period, phase, burstWeeks, burstHeights });
  });
  return weights;
}

/**
 * Person p's weight in each week from `from` on, into weights[w*P + p]. A function of its own,
 * called once a person: V8 optimises it after a few people, where as the loop inside the per-person
 * code it waited for on-stack replacement.
 */
function weeklyWeights(
  weights: Float64Array,
  P: number,
  p: number,
  from: number,
  wave: { base: number; amplitude: number; period: number; phase: number; burstWeeks: number[]; burstHeights: number[] },
): void {
  const { base, amplitude, period, phase, burstWeeks, burstHeights } = wave;
  for (let w = from; w < DATA_WEEKS; w++) {
    let burst = 1;
    for (let b = 0; b < burstWeeks.length; b++) burst += burstHeights[b]! * BURST_DECAY[Math.abs(w - burstWeeks[b]!)]!;
    weights[w * P + p] = base * Math.exp(amplitude * Math.sin((2 * Math.PI * w) / period + phase)) * burst;
  }
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
    createdSeconds: draft.createdSeconds,
    updatedSeconds: draft.updatedSeconds,
    tone: draft.tone,
  }));
  const personIndexByHash = new Map(people.map((person) => [person.personHash, person.index]));
  const popularity = popularityByWeek(mulberry32(mixSeed(seed, 3)), drafts);

  const random = new RandomStream(mixSeed(seed, 4));
  // Articles per week: a yearly wave plus noise; the current week only up to `now`.
  const W = DATA_WEEKS;
  const weekArticleStart = new Uint32Array(W + 1);
  const weekSpan = new Float64Array(W);
  const seasonPhase = random.next() * 2 * Math.PI;
  for (let w = 0; w < W; w++) {
    let count = MEAN_WEEKLY_ARTICLES * (1 + 0.12 * Math.sin((2 * Math.PI * w) / 52 + seasonPhase)) * (0.85 + 0.3 * random.next());
    weekSpan[w] = WEEK_SECONDS;
    if (w === W - 1) {
      const elapsed = nowSeconds - weekStartSeconds[w]! + 1;
      weekSpan[w] = elapsed;
      count *= Math.max(elapsed / WEEK_SECONDS, MIN_CURRENT_WEEK_SHARE);
    }
    weekArticleStart[w + 1] = weekArticleStart[w]! + Math.round(count);
  }

  const regionOfCountry = COUNTRIES.map((country) => country.region);
  const regions = [...new Set(regionOfCountry)];
  const articles = generateArticles({
    random,
    weekArticleStart,
    weekSpan,
    hashOffset: mixSeed(seed, 5),
    weekStartSeconds,
    popularity,
    personCountry: Uint8Array.from(people, (person) => person.countryIndex),
    personTone: Float64Array.from(people, (person) => person.tone),
    regionOfCountry: regionOfCountry.map((region) => regions.indexOf(region)),
    regionCount: regions.length,
    sourceCountry: Uint8Array.from(sources, (source) => source.countryIndex),
    sourceWeight: Float64Array.from(sourceWeights),
    sourcePausedFrom: Int32Array.from(sources, (source) => source.pausedFromWeekIndex),
    countryCount: COUNTRIES.length,
  });

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
    ...articles,
  };
}
