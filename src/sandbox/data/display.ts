/** Rounding and the sentiment display fields, shared by every metric. */

/** Decimal places of every non-integer metric in the sandbox's responses. */
export const METRIC_DECIMALS = 4;
const SCALE = 10 ** METRIC_DECIMALS;

/** Rounds half away from zero to METRIC_DECIMALS places; never returns -0. */
export function roundMetric(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * SCALE)) / SCALE;
  return rounded === 0 ? 0 : rounded;
}

const NEGATIVE: readonly [number, number, number] = [0xd7, 0x30, 0x27]; // #D73027 at -1
const NEUTRAL: readonly [number, number, number] = [0x9e, 0x9e, 0x9e]; // #9E9E9E at 0
const POSITIVE: readonly [number, number, number] = [0x1a, 0x98, 0x50]; // #1A9850 at +1

/** Linear from red (-1) through grey (0) to green (+1), per channel, rounded; input clamped to [-1, 1]. */
export function sentimentColor(sentiment: number): string {
  const s = Math.max(-1, Math.min(1, sentiment));
  const [from, to, t] = s < 0 ? [NEUTRAL, NEGATIVE, -s] : [NEUTRAL, POSITIVE, s];
  const channel = (i: number): string =>
    Math.round(from[i]! + (to[i]! - from[i]!) * t).toString(16).padStart(2, '0').toUpperCase();
  return `#${channel(0)}${channel(1)}${channel(2)}`;
}

/** Font Awesome face classes: smile at >= 0.1, frown at <= -0.1, meh between. */
export function sentimentFace(sentiment: number): string {
  if (sentiment >= 0.1) return 'fa-face-smile';
  if (sentiment <= -0.1) return 'fa-face-frown';
  return 'fa-face-meh';
}
