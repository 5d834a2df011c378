/**
 * `people movers`: two rankings joined into who climbed, fell, arrived and left. Pure: the verb (movers.ts)
 * fetches, this joins, so every rule is a one-line test.
 *
 * Changes are computed from the digits the API sent: integers as bigints, decimals as scaled
 * bigints, never as floats (5.2324 - 5.2 is 0.0324 here, not 0.03239999999999998).
 */
import { LosslessNumber } from 'lossless-json';
import { addWeeks, weeksBetween, type WeekWindow } from '../../../shared/weeks.js';
import { answerInteger } from '../../../api/answer-integers.js';
import { LEFT_TOP_MARK } from '../../../output/movement.js';

/** Where the rankings come from, for a message about a value in one. */
const RANKING_PATH = '/api/data/people/top';

export type MoverStatus = 'up' | 'down' | 'same' | 'new' | 'out';

type Ranked = Record<string, unknown>;

export interface MoverRow {
  rank: LosslessNumber | null;
  previousRank: LosslessNumber | null;
  rankChange: LosslessNumber | null;
  status: MoverStatus;
  /**
   * In the comparison's top `limit` and not in the window's: the rows after the window's top. Its own
   * field because `status` says how the rank moved (someone who fell from 5 to 40 is `down`), not
   * whether the person is still among the rows a reader asked for.
   */
  leftTop: boolean;
  personHash: string;
  fullName: unknown;
  mentionCount: unknown;
  previousMentionCount: unknown;
  mentionChange: LosslessNumber | null;
  dominance: unknown;
  previousDominance: unknown;
  dominanceChange: LosslessNumber | null;
  window: string;
  previousWindow: string;
}

/** The same number of weeks as `window`, ending the week before it starts (`--vs previous`). */
export function previousWindow(window: WeekWindow): WeekWindow {
  const endWeek = addWeeks(window.startWeek, -1);
  return { startWeek: addWeeks(endWeek, -weeksBetween(window.startWeek, window.endWeek)), endWeek };
}

export function windowLabel(window: WeekWindow): string {
  return `${window.startWeek}..${window.endWeek}`;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A JSON number's digits as an exact scaled integer: value = units / 10^scale. */
export function parseDecimal(text: string): { units: bigint; scale: number } | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let scale = fraction.length - Number(exponent);
  let digits = whole! + fraction;
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  return { units: BigInt(sign + digits), scale };
}

/** `a - b` written exactly, with as many decimals as the more precise of the two; undefined if either is no number. */
export function subtractDecimal(a: string, b: string): string | undefined {
  const left = parseDecimal(a);
  const right = parseDecimal(b);
  if (!left || !right) return undefined;
  const scale = Math.max(left.scale, right.scale);
  const units = left.units * 10n ** BigInt(scale - left.scale) - right.units * 10n ** BigInt(scale - right.scale);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined;
}

/** The exact difference of two numbers as sent, as a number that prints those digits; null when one is missing. */
export function difference(current: unknown, previous: unknown): LosslessNumber | null {
  if (!isPresent(current) || !isPresent(previous)) return null;
  const text = subtractDecimal(String(current), String(previous));
  return text === undefined ? null : new LosslessNumber(text);
}

export function moverStatus(rank: unknown, previousRank: unknown): MoverStatus {
  if (!isPresent(previousRank)) return 'new';
  if (!isPresent(rank)) return 'out';
  const change = BigInt(String(previousRank)) - BigInt(String(rank));
  return change > 0n ? 'up' : change < 0n ? 'down' : 'same';
}

function asRank(value: unknown): LosslessNumber | null {
  return isPresent(value) ? new LosslessNumber(String(value)) : null;
}

export interface MoversInput {
  /** The ranking of the window, fetched to the depth. */
  current: readonly Ranked[];
  /** The ranking of the comparison window, same filters and sort, same depth. */
  previous: readonly Ranked[];
  window: WeekWindow;
  comparison: WeekWindow;
  /** Rows: the current top `limit`, then who was in the comparison's top `limit` and is not now. */
  limit: number;
}

/**
 * The movers rows. A person outside a ranking's depth has no rank there: `new` when absent from the
 * comparison, `out` when absent now. Someone who left the top `limit` but is still within the
 * depth keeps their current rank and reads `down`; `leftTop` marks every row that left the top `limit`.
 */
export function joinRankings({ current, previous, window, comparison, limit }: MoversInput): MoverRow[] {
  // Ranks and counts are integers by the contract; what is computed with must be one.
  for (const item of [...current, ...previous]) {
    if (isPresent(item.rank)) answerInteger(item.rank, 'rank', RANKING_PATH);
    if (isPresent(item.mentionCount)) answerInteger(item.mentionCount, 'mentionCount', RANKING_PATH);
  }
  const byHash = (ranking: readonly Ranked[]) => new Map(ranking.map((item) => [String(item.personHash), item]));
  const currentByHash = byHash(current);
  const previousByHash = byHash(previous);
  const rankOf = (item: Ranked | undefined) => (item ? Number(String(item.rank)) : Number.POSITIVE_INFINITY);

  const shownNow = current.filter((item) => rankOf(item) <= limit);
  const shownNowHashes = new Set(shownNow.map((item) => String(item.personHash)));
  const left = previous.filter((item) => rankOf(item) <= limit && !shownNowHashes.has(String(item.personHash)));

  const row = (personHash: string): MoverRow => {
    const now = currentByHash.get(personHash);
    const before = previousByHash.get(personHash);
    return {
      rank: asRank(now?.rank),
      previousRank: asRank(before?.rank),
      rankChange: now && before ? difference(before.rank, now.rank) : null,
      status: moverStatus(now?.rank, before?.rank),
      leftTop: !shownNowHashes.has(personHash),
      personHash,
      fullName: now?.fullName ?? before?.fullName ?? null,
      mentionCount: now?.mentionCount ?? null,
      previousMentionCount: before?.mentionCount ?? null,
      mentionChange: difference(now?.mentionCount, before?.mentionCount),
      dominance: now?.dominance ?? null,
      previousDominance: before?.dominance ?? null,
      dominanceChange: difference(now?.dominance, before?.dominance),
      window: windowLabel(window),
      previousWindow: windowLabel(comparison),
    };
  };
  const byRank = (a: Ranked, b: Ranked) => rankOf(a) - rankOf(b);
  return [...[...shownNow].sort(byRank), ...[...left].sort(byRank)].map((item) => row(String(item.personHash)));
}

/**
 * What the marks of the rows that fell out of the top `limit` mean (movement.ts draws them), for the
 * marks the rows have: the end of the caption.
 */
export function marksLegend(rows: readonly Pick<MoverRow, 'status' | 'leftTop'>[], flags: { depth: number; limit: number }): string[] {
  const left = rows.filter((row) => row.leftTop);
  return [
    left.some((row) => row.status !== 'out') ? `${LEFT_TOP_MARK}: fell out of the top ${flags.limit}` : '',
    left.some((row) => row.status === 'out') ? `out: not in the first ${flags.depth} now` : '',
  ];
}
