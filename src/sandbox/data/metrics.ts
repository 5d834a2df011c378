/**
 * Every metric the sandbox reports, computed from the generated mentions (see docs/sandbox.md for
 * the definitions). All sums run over the per-week aggregates of generate.ts, so a query touches
 * (weeks in window) x (people or countries) cells, never the articles themselves.
 */
import type { DomesticFocus, InternationalAttention, PersonCountryRow, PersonCountryStats, PersonStats } from '../model.js';
import type { PeopleTopQuery } from '../model.js';
import type { WeekWindow } from '../../shared/weeks.js';
import type { Dataset } from './generate.js';
import { roundMetric, sentimentColor, sentimentFace } from './display.js';
import type { ArticleText } from './text.js';

/** Data-week indices, both included. */
export interface WeekIndexRange {
  start: number;
  end: number;
}

/** Countries scope: -1 for all, else a country index (countryId - 1). */
type Scope = number;

interface CountryTotals {
  mentions: number;
  articles: number;
  sentimentMilli: number;
  persistence: number;
  /** Unrounded, percent. */
  localDominance: number;
}

/** Percent share of the median element, for ranking tables (mean of the two middle ones when even). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Competition ranking ("1224"): 1 + the number of values strictly greater. */
function competitionRank(values: readonly number[], index: number): number {
  const mine = values[index]!;
  let rank = 1;
  for (const value of values) if (value > mine) rank++;
  return rank;
}

export class Metrics {
  private readonly P: number;
  private readonly C: number;
  private readonly populationShare: Float64Array;
  private readonly gdpShare: Float64Array;
  private internationalCache: InternationalAttention[] | undefined;
  private readonly activeWeeksCache = new Map<number, Int32Array>();

  constructor(
    private readonly data: Dataset,
    private readonly text: ArticleText,
  ) {
    this.P = data.people.length;
    this.C = data.countries.length;
    const population = data.countries.reduce((sum, c) => sum + c.population, 0);
    const gdp = data.countries.reduce((sum, c) => sum + c.gdp, 0);
    this.populationShare = Float64Array.from(data.countries, (c) => c.population / population);
    this.gdpShare = Float64Array.from(data.countries, (c) => c.gdp / gdp);
  }

  /** The part of the window that has data; undefined when none of it has. */
  clip(window: WeekWindow): WeekIndexRange | undefined {
    const weeks = this.data.weeks;
    if (window.endWeek < weeks[0]! || window.startWeek > weeks[weeks.length - 1]! || window.startWeek > window.endWeek) {
      return undefined;
    }
    let start = 0;
    while (weeks[start]! < window.startWeek) start++;
    let end = weeks.length - 1;
    while (weeks[end]! > window.endWeek) end--;
    return { start, end };
  }

  /** Mentions of p in week w within the scope. */
  private weekMentions(w: number, p: number, scope: Scope): number {
    const { P, data } = this;
    if (scope < 0) return data.mentionsWP[w * P + p]!;
    for (let cell = data.cellStart[w * P + p]!; cell < data.cellStart[w * P + p + 1]!; cell++) {
      if (data.cellCountry[cell] === scope) return data.cellMentions[cell]!;
    }
    return 0;
  }

  private mentionsIn(p: number, range: WeekIndexRange, scope: Scope): number {
    let total = 0;
    for (let w = range.start; w <= range.end; w++) total += this.weekMentions(w, p, scope);
    return total;
  }

  /** Per country: weeks of the range in which its press mentioned anyone (dominance denominators). */
  private activeWeeksByCountry(range: WeekIndexRange): Int32Array {
    const key = range.start * 1000 + range.end;
    let active = this.activeWeeksCache.get(key);
    if (!active) {
      active = new Int32Array(this.C);
      for (let w = range.start; w <= range.end; w++) {
        for (let c = 0; c < this.C; c++) if (this.data.mentionsWC[w * this.C + c]! > 0) active[c]!++;
      }
      if (this.activeWeeksCache.size > 1000) this.activeWeeksCache.clear();
      this.activeWeeksCache.set(key, active);
    }
    return active;
  }

  /** Global dominance: mean over weeks with any mention of the person's weekly share, in percent. */
  private globalDominance(p: number, range: WeekIndexRange): number {
    const { P, data } = this;
    let shareSum = 0;
    let activeWeeks = 0;
    for (let w = range.start; w <= range.end; w++) {
      const total = data.mentionsW[w]!;
      if (total === 0) continue;
      activeWeeks++;
      shareSum += data.mentionsWP[w * P + p]! / total;
    }
    return activeWeeks === 0 ? 0 : (100 * shareSum) / activeWeeks;
  }

  /** Per-country rows (countries with at least one mention) and the figures of the whole scope. */
  private personWindow(p: number, range: WeekIndexRange, scope: Scope) {
    const { P, C, data } = this;
    const { cellSentiment, sentimentWP } = data.details.sentimentOf(range.start, range.end);
    const mentions = new Float64Array(C);
    const articles = new Float64Array(C);
    const sentimentMilli = new Float64Array(C);
    const persistence = new Float64Array(C);
    const shareSum = new Float64Array(C);
    for (let w = range.start; w <= range.end; w++) {
      for (let cell = data.cellStart[w * P + p]!; cell < data.cellStart[w * P + p + 1]!; cell++) {
        const c = data.cellCountry[cell]!;
        if (scope >= 0 && c !== scope) continue;
        const cellMentions = data.cellMentions[cell]!;
        mentions[c]! += cellMentions;
        articles[c]! += data.cellArticles[cell]!;
        sentimentMilli[c]! += cellSentiment[cell]!;
        persistence[c]!++;
        shareSum[c]! += cellMentions / data.mentionsWC[w * C + c]!;
      }
    }
    const activeWeeks = this.activeWeeksByCountry(range);
    const rows: Array<{ c: number; totals: CountryTotals; reach: number; power: number }> = [];
    let reach = 0;
    let power = 0;
    for (let c = 0; c < C; c++) {
      if (mentions[c] === 0) continue;
      const totals: CountryTotals = {
        mentions: mentions[c]!,
        articles: articles[c]!,
        sentimentMilli: sentimentMilli[c]!,
        persistence: persistence[c]!,
        localDominance: (100 * shareSum[c]!) / activeWeeks[c]!,
      };
      const rowReach = 100 * this.populationShare[c]!;
      const rowPower = this.gdpShare[c]! * totals.localDominance;
      reach += rowReach;
      power += rowPower;
      rows.push({ c, totals, reach: rowReach, power: rowPower });
    }
    rows.sort((a, b) => b.totals.mentions - a.totals.mentions || a.c - b.c);

    if (scope >= 0) {
      const row = rows[0]?.totals;
      return {
        rows,
        mentions: row?.mentions ?? 0,
        persistence: row?.persistence ?? 0,
        sentiment: row ? row.sentimentMilli / row.mentions / 1000 : 0,
        dominance: row?.localDominance ?? 0,
        reach,
        power,
      };
    }
    let totalMentions = 0;
    let totalSentimentMilli = 0;
    let totalPersistence = 0;
    for (let w = range.start; w <= range.end; w++) {
      const weekMentions = data.mentionsWP[w * P + p]!;
      if (weekMentions === 0) continue;
      totalMentions += weekMentions;
      totalSentimentMilli += sentimentWP[w * P + p]!;
      totalPersistence++;
    }
    return {
      rows,
      mentions: totalMentions,
      persistence: totalPersistence,
      sentiment: totalMentions === 0 ? 0 : totalSentimentMilli / totalMentions / 1000,
      dominance: this.globalDominance(p, range),
      reach,
      power,
    };
  }

  private snippetsOf(p: number, range: WeekIndexRange, scope: Scope, count: number): string[] {
    const { data } = this;
    const firstArticle = data.weekArticleStart[range.start]!;
    const endArticle = data.weekArticleStart[range.end + 1]!;
    // Binary search: the last appearance of p in an article before endArticle.
    let low = data.personAppStart[p]!;
    let high = data.personAppStart[p + 1]!;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (data.appArticle[data.personApps[mid]!]! < endArticle) low = mid + 1;
      else high = mid;
    }
    const snippets: string[] = [];
    for (let i = low - 1; i >= data.personAppStart[p]! && snippets.length < count; i--) {
      const appearance = data.personApps[i]!;
      const article = data.appArticle[appearance]!;
      if (article < firstArticle) break;
      if (scope >= 0 && data.sources[data.articleSource[article]!]!.countryIndex !== scope) continue;
      snippets.push(this.text.snippet(appearance));
    }
    return snippets;
  }

  private reasonFor(p: number, mentions: number, range: WeekIndexRange, scope: Scope): string {
    const first = this.data.firstMentionWeek[p]!;
    if (first > 0 && first >= range.start) return `First mentioned in week ${this.data.weeks[first]}`;
    const length = range.end - range.start + 1;
    if (range.start - length < 0 || mentions < 5) return '';
    const previous = this.mentionsIn(p, { start: range.start - length, end: range.start - 1 }, scope);
    const span = `the previous ${length} week${length === 1 ? '' : 's'}`;
    if (previous === 0) return `Back in the news: no mentions in ${span}`;
    if (mentions >= 2 * previous) return `Mentions up from ${previous} to ${mentions} on ${span}`;
    return '';
  }

  topPeople(query: PeopleTopQuery): PersonStats[] {
    const { data, P, C } = this;
    const range = this.clip(query);
    if (!range) return [];
    if (query.countryId !== undefined && data.countries[query.countryId - 1] === undefined) return [];
    const scope: Scope = query.countryId === undefined ? -1 : query.countryId - 1;
    const category = query.newsCategory?.toLowerCase();
    const ageFiltered = query.minAge !== undefined || query.maxAge !== undefined;

    const candidates: number[] = [];
    for (const person of data.people) {
      if (query.fromCountryId !== undefined && person.countryIndex !== query.fromCountryId - 1) continue;
      if (query.gender !== undefined && person.gender !== query.gender) continue;
      if (category !== undefined && person.category !== category) continue;
      if (ageFiltered) {
        if (person.ageAtNow === null) continue;
        if (query.minAge !== undefined && person.ageAtNow < query.minAge) continue;
        if (query.maxAge !== undefined && person.ageAtNow > query.maxAge) continue;
      }
      if (query.fresh && data.firstMentionWeek[person.index]! < range.start) continue;
      candidates.push(person.index);
    }

    // One pass over the window's weeks: mentions and summed weekly shares for every candidate.
    const mentions = new Float64Array(P);
    const shareSum = new Float64Array(P);
    let activeWeeks = 0;
    for (let w = range.start; w <= range.end; w++) {
      const total = scope < 0 ? data.mentionsW[w]! : data.mentionsWC[w * C + scope]!;
      if (total === 0) continue;
      activeWeeks++;
      for (const p of candidates) {
        const m = this.weekMentions(w, p, scope);
        if (m === 0) continue;
        mentions[p]! += m;
        shareSum[p]! += m / total;
      }
    }
    const ranked = candidates
      .filter((p) => mentions[p]! > 0)
      .map((p) => ({ p, mentions: mentions[p]!, dominance: roundMetric((100 * shareSum[p]!) / activeWeeks) }));
    if (query.sortBy === 'dominance') {
      ranked.sort((a, b) => b.dominance - a.dominance || b.mentions - a.mentions || a.p - b.p);
    } else {
      ranked.sort((a, b) => b.mentions - a.mentions || a.p - b.p);
    }

    return ranked.slice(0, query.limit).map(({ p }, position) => {
      const person = data.people[p]!;
      const country = data.countries[person.countryIndex]!;
      const stats = this.personWindow(p, range, scope);
      return {
        rank: position + 1,
        personHash: person.personHash,
        fullName: person.fullName,
        mentionCount: stats.mentions,
        gender: person.gender,
        fromCountryId: country.countryId,
        // Null for the person whose country the sandbox does not know, as Person.countryName is.
        fromCountryName: person.countryNameKnown ? country.countryName : null,
        birthDate: person.birthDate,
        persistence: stats.persistence,
        dominance: roundMetric(stats.dominance),
        reach: roundMetric(stats.reach),
        power: roundMetric(stats.power),
        sentiment: roundMetric(stats.sentiment),
        sentimentColor: sentimentColor(roundMetric(stats.sentiment)),
        sentimentFace: sentimentFace(roundMetric(stats.sentiment)),
        snippets: this.snippetsOf(p, range, scope, 3),
        reason: this.reasonFor(p, stats.mentions, range, scope),
        countryRows: stats.rows.map(({ c, totals }) => {
          const rowCountry = data.countries[c]!;
          return {
            countryId: rowCountry.countryId,
            countryName: rowCountry.countryName,
            countryIso: rowCountry.countryIso,
            mentions: totals.mentions,
          };
        }),
      };
    });
  }

  personCountryStats(p: number, window: WeekWindow): PersonCountryStats {
    const range = this.clip(window);
    const base = { startWeek: window.startWeek, endWeek: window.endWeek };
    if (!range) {
      return { ...base, globalDominance: 0, globalSentiment: 0, globalReach: 0, globalPower: 0, persistence: 0, countries: [] };
    }
    const stats = this.personWindow(p, range, -1);
    const countries: PersonCountryRow[] = stats.rows.map(({ c, totals, reach, power }) => {
      const country = this.data.countries[c]!;
      return {
        countryId: country.countryId,
        countryName: country.countryName,
        countryIso: country.countryIso,
        mentions: totals.mentions,
        articles: totals.articles,
        population: country.population,
        gdp: country.gdp,
        persistence: totals.persistence,
        localDominance: roundMetric(totals.localDominance),
        reach: roundMetric(reach),
        power: roundMetric(power),
        sentiment: roundMetric(totals.sentimentMilli / totals.mentions / 1000),
      };
    });
    return {
      ...base,
      globalDominance: roundMetric(stats.dominance),
      globalSentiment: roundMetric(stats.sentiment),
      globalReach: roundMetric(stats.reach),
      globalPower: roundMetric(stats.power),
      persistence: stats.persistence,
      countries,
    };
  }

  /** Percent of each country's press mentions that go to its own people, for every country. */
  private domesticFocusAll(range: WeekIndexRange | undefined): number[] {
    const { C, data } = this;
    return data.countries.map((_, x) => {
      if (!range) return 0;
      let own = 0;
      let total = 0;
      for (let w = range.start; w <= range.end; w++) {
        own += data.flowWCC[(w * C + x) * C + x]!;
        total += data.mentionsWC[w * C + x]!;
      }
      return total === 0 ? 0 : roundMetric((100 * own) / total);
    });
  }

  domesticFocus(countryIndex: number, window: WeekWindow): DomesticFocus {
    const values = this.domesticFocusAll(this.clip(window));
    return {
      countryId: countryIndex + 1,
      startWeek: window.startWeek,
      endWeek: window.endWeek,
      focusPercent: values[countryIndex]!,
      rank: competitionRank(values, countryIndex),
      outOf: values.length,
      median: roundMetric(median(values)),
    };
  }

  /** Over the last-4 window: percent of foreign press mentions that go to each country's people. */
  internationalAttention(countryIndex: number): InternationalAttention {
    if (!this.internationalCache) {
      const { C, data } = this;
      const range = this.clip({ startWeek: data.last4StartWeek, endWeek: data.currentWeek })!;
      const values = data.countries.map((_, x) => {
        let received = 0;
        let foreignTotal = 0;
        for (let w = range.start; w <= range.end; w++) {
          foreignTotal += data.mentionsW[w]! - data.mentionsWC[w * C + x]!;
          for (let c = 0; c < C; c++) if (c !== x) received += data.flowWCC[(w * C + c) * C + x]!;
        }
        return foreignTotal === 0 ? 0 : roundMetric((100 * received) / foreignTotal);
      });
      const middle = roundMetric(median(values));
      this.internationalCache = values.map((percentage, x) => ({
        countryId: x + 1,
        percentage,
        rank: competitionRank(values, x),
        outOf: values.length,
        median: middle,
      }));
    }
    return { ...this.internationalCache[countryIndex]! };
  }
}
