/**
 * Terminal text measurement: how many columns a string takes, and cutting or padding to a width.
 *
 * Our own small version rather than string-width: it counts by grapheme cluster (so a flag or a
 * family emoji is one 2-column glyph, as terminals draw it, not 4 or 8), and it needs no CommonJS
 * chain at startup. East Asian Ambiguous characters (`…`, box drawing, `█`) count one column, as in
 * every non-CJK locale.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/** Marks and format characters draw nothing on their own (combining accents, ZWJ, ZWSP). */
const ZERO_WIDTH_START = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]/u;
const EMOJI_PRESENTATION = /\p{Emoji_Presentation}|\uFE0F/u;

/** East Asian Wide and Fullwidth blocks (Unicode EastAsianWidth.txt, W and F). */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], [0x2329, 0x232a], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf],
  [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f], [0xac00, 0xd7a3], [0xf900, 0xfaff],
  [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6], [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff], [0x1b000, 0x1b2ff], [0x1f200, 0x1f2ff], [0x20000, 0x3fffd],
];

function isWideCodePoint(codePoint: number): boolean {
  for (const [from, to] of WIDE_RANGES) {
    if (codePoint < from) return false;
    if (codePoint <= to) return true;
  }
  return false;
}

let segmenter: Intl.Segmenter | undefined;

function graphemes(text: string): Iterable<Intl.SegmentData> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

function graphemeWidth(cluster: string): number {
  if (ZERO_WIDTH_START.test(cluster)) return 0;
  const first = cluster.codePointAt(0) ?? 0;
  return isWideCodePoint(first) || EMOJI_PRESENTATION.test(cluster) ? 2 : 1;
}

/** Columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` cut to at most `width` columns, ending with `ellipsis` when anything was cut. */
export function truncateToWidth(text: string, width: number, ellipsis: string): string {
  if (displayWidth(text) <= width) return text;
  const ellipsisWidth = displayWidth(ellipsis);
  if (width < ellipsisWidth) return '';
  const budget = width - ellipsisWidth;
  if (PRINTABLE_ASCII.test(text)) return text.slice(0, budget) + ellipsis;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const segmentWidth = graphemeWidth(segment);
    if (used + segmentWidth > budget) break;
    kept += segment;
    used += segmentWidth;
  }
  return kept + ellipsis;
}

/** `text` padded with spaces to `width` columns, on the right (left-aligned) or on the left. */
export function padToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const padding = width - displayWidth(text);
  if (padding <= 0) return text;
  return align === 'left' ? text + ' '.repeat(padding) : ' '.repeat(padding) + text;
}

// C0 and C1 controls other than the whitespace we turn into spaces, and the bidi controls that
// reorder what follows (U+061C, U+200E-F, U+202A-E, U+2066-9). ESC among them: API text must never
// reach a terminal as an escape sequence, nor make a line read as something it is not.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_BREAKING = /[\t\n\r]/g;

/**
 * Text safe to place in one terminal cell or one line of stderr: tabs and line breaks become spaces
 * (they would break the row, and the tab-separated layout), other control characters become U+FFFD.
 */
export function printable(text: string): string {
  return text.replace(LINE_BREAKING, ' ').replace(CONTROL, '\uFFFD');
}
