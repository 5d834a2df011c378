/**
 * Short texts a model reads well: one line per record, the numbers as the service sent them, the
 * window and whether its last week is partial, and how to ask for more. The structured content
 * beside them holds every field.
 */
import { digits } from './exact.js';

type Record_ = Readonly<Record<string, unknown>>;

/** `name value` pairs for the fields present, `, `-joined: `mentions 189, dominance 6.1479`. */
export function metrics(record: Record_, fields: ReadonlyArray<readonly [label: string, field: string]>): string {
  return fields
    .filter(([, field]) => record[field] !== null && record[field] !== undefined)
    .map(([label, field]) => `${label} ${digits(record[field])}`)
    .join(', ');
}

/** `Rhys Thistlewood (rhys-thistlewood-73da)`, or the hash alone when the service sent no name. */
export function personLabel(record: Record_): string {
  const name = typeof record.fullName === 'string' && record.fullName !== '' ? record.fullName : undefined;
  const hash = String(record.personHash ?? '');
  return name ? `${name} (${hash})` : hash;
}

export const RANKED_METRICS = [
  ['mentions', 'mentionCount'], ['dominance', 'dominance'], ['reach', 'reach'], ['power', 'power'],
  ['sentiment', 'sentiment'], ['weeks mentioned', 'persistence'],
] as const;

export const GLOBAL_METRICS = [
  ['mentions', 'mentions'], ['dominance', 'globalDominance'], ['reach', 'globalReach'], ['power', 'globalPower'],
  ['sentiment', 'globalSentiment'], ['weeks mentioned', 'persistence'], ['countries', 'countries'],
] as const;

export const COUNTRY_ROW_METRICS = [
  ['mentions', 'mentions'], ['articles', 'articles'], ['local dominance', 'localDominance'], ['reach', 'reach'],
  ['power', 'power'], ['sentiment', 'sentiment'], ['weeks mentioned', 'persistence'],
] as const;

/** Lines joined, blank parts left out. */
export function lines(...parts: ReadonlyArray<string | undefined | false | readonly string[]>): string {
  return parts.flat().filter((part): part is string => typeof part === 'string' && part !== '').join('\n');
}

/** `More: cursor "20".` when there is a next page. */
export function moreText(nextCursor: string | undefined, what: string): string | undefined {
  return nextCursor === undefined ? undefined : `More ${what}: call again with cursor "${nextCursor}".`;
}
