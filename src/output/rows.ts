/**
 * Row shapers shared by commands and sync: API values turned into the flat rows csv, tsv, Parquet and
 * tables print. Pure, so each is a one-line test; commands import them from here, never from each other.
 */
import { answerInteger } from '../api/answer-integers.js';
import type { Row } from './view.js';

/** Exact sum of integer mention counts: they arrive as digit strings and are added as bigints. */
function sumIntegers(values: unknown[], field: string, path: string): bigint {
  return values.reduce<bigint>((total, value) => total + answerInteger(value ?? 0, field, path), 0n);
}

/** One row a country, with the person and window first, as spreadsheets and pandas want them. */
export function countryStatsRows(personHash: string, stats: Row): Row[] {
  const countries = (stats.countries as Row[] | undefined) ?? [];
  return countries.map((country) => ({
    personHash,
    startWeek: stats.startWeek,
    endWeek: stats.endWeek,
    ...country,
  }));
}

/** A ranked person's country rows, led by their rank and name (export country-stats, sync). */
export function rankedCountryStatsRows(person: Row, stats: Row): Row[] {
  // countryStatsRows' row with the rank and name in front, built in one step: the same keys in the same
  // order (a country's own field of the same name still wins), one object a row instead of two.
  const personHash = String(person.personHash);
  const countries = (stats.countries as Row[] | undefined) ?? [];
  return countries.map((country) => ({ rank: person.rank, fullName: person.fullName, personHash, startWeek: stats.startWeek, endWeek: stats.endWeek, ...country }));
}

/** A ranked person's article links, led by their rank and name (export links, sync). */
export function rankedLinkRows(person: Row, links: readonly Row[]): Row[] {
  return links.map((link) => ({ rank: person.rank, fullName: person.fullName, ...link }));
}

/** One row a week from that week's country statistics. */
export function trendRow(week: number, stats: Row): Row {
  const countryRows = (stats.countries as Row[] | undefined) ?? [];
  return {
    week,
    mentions: sumIntegers(countryRows.map((row) => row.mentions), 'mentions', '/api/data/people/{personHash}/country-stats'),
    globalDominance: stats.globalDominance,
    globalSentiment: stats.globalSentiment,
    globalReach: stats.globalReach,
    globalPower: stats.globalPower,
    persistence: stats.persistence,
    countries: countryRows.length,
  };
}

/** One row a homepage link, with a matched column: filter and spreadsheet both read it directly. */
export function sourceLinkRows(links: Row): Row[] {
  const source = (links.source as Row | undefined) ?? {};
  const matched = new Set((links.matchedLinks as string[] | undefined) ?? []);
  const all = (links.allLinks as string[] | undefined) ?? [];
  return all.map((url) => ({ sourceId: source.sourceId, sourceName: source.name, url, matched: matched.has(url) }));
}
