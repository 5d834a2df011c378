/**
 * Terminal text measurement: how many columns a string takes, and cutting or padding to a width.
 *
 * Widths are counted as terminals draw them (checked in tmux 3.3, test/e2e/terminal.test.ts), which
 * is code point by code point, wcwidth-style, not one cell per grapheme cluster:
 * - marks that sit on a letter (Mn, Me: combining accents, the Devanagari virama and vowel signs
 *   above or below, Thai vowels above, Hebrew points, Arabic harakat), format characters (ZWJ,
 *   ZWSP, VS16) and controls take 0 columns;
 * - spacing vowel signs (Mc: Devanagari ि ा, Bengali া) take 1, although they join the consonant's
 *   grapheme cluster: counting them 0 is what broke the borders of Hindi and Bengali names;
 * - East Asian Wide/Fullwidth and emoji-presentation characters take 2, each skin-tone modifier too;
 * - a character joined by ZWJ (the rest of a family emoji) and the second regional indicator of a
 *   flag draw inside the first glyph and take 0.
 * East Asian Ambiguous characters (`…`, box drawing, `█`) count one column, as in every non-CJK
 * locale. Text is still cut between grapheme clusters, so a letter never loses its marks.
 *
 * Our own small version rather than string-width: string-width@4 (what cli-table3 uses) counts
 * every non-Latin mark as a column, and newer versions measure whole clusters, both unlike tmux.
 */
import { printable } from '../shared/printable.js';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * What draws nothing on its own (combining marks, format characters such as ZWJ, ZWSP and VS16,
 * controls) and what draws as an emoji, made on first use: V8 builds the classes of Unicode
 * properties when a literal is evaluated (about 2 million instructions each), and many runs load this
 * module without measuring any text outside ASCII. Built by the RegExp constructor, not written as
 * literals: V8 checks a literal's pattern when it compiles the file, building its property classes
 * then too (this module's three cost 0.7 ms of every run's compile on Node 24; \p{Grapheme_Extend}
 * alone about 0.5 ms), which a literal made on first use would still pay on every run.
 */
let classes: { zeroWidth: RegExp; emojiPresentation: RegExp } | undefined;
const ZERO_WIDTH_JOINER = 0x200d;
const REGIONAL_INDICATOR_FIRST = 0x1f1e6;
const REGIONAL_INDICATOR_LAST = 0x1f1ff;

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
/**
 * What may share a grapheme cluster with a neighbour (UAX #29): marks and other extenders, spacing
 * marks, format characters (ZWJ, the Arabic prepended signs), CR, Thai and Lao AM, the Malayalam dot
 * reph, Hangul jamo, and everything outside the Basic Multilingual Plane (emoji modifiers, flags and the
 * scripts new Unicode versions add). test/unit/output/text.test.ts checks every other BMP code point is
 * a cluster of its own in this Node's ICU. Made on first use, like `classes`.
 */
let mayJoin: RegExp | undefined;

/** Whether any code point of `text` may share a grapheme cluster with a neighbour. */
export function mayJoinNeighbours(text: string): boolean {
  mayJoin ??= new RegExp(String.raw`[^\0-\uFFFF]|[\p{Grapheme_Extend}\p{Mc}\p{Cf}\r\u0E33\u0EB3\u0D4E\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF]`, 'u');
  return mayJoin.test(text);
}

/**
 * `text`'s grapheme clusters: its code points when none may join another, which skips Intl.Segmenter
 * for most names outside ASCII (José, ليلى, 王): its first use costs 12-20 ms while ICU loads.
 */
export function* graphemes(text: string): Iterable<string> {
  if (!mayJoinNeighbours(text)) {
    yield* text;
    return;
  }
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of segmenter.segment(text)) yield segment;
}

function isRegionalIndicator(codePoint: number): boolean {
  return codePoint >= REGIONAL_INDICATOR_FIRST && codePoint <= REGIONAL_INDICATOR_LAST;
}

function codePointWidth(character: string, codePoint: number): number {
  classes ??= { zeroWidth: new RegExp(String.raw`^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$`, 'u'), emojiPresentation: new RegExp(String.raw`^\p{Emoji_Presentation}$`, 'u') };
  if (classes.zeroWidth.test(character)) return 0;
  return isWideCodePoint(codePoint) || classes.emojiPresentation.test(character) ? 2 : 1;
}

/**
 * Columns one grapheme cluster takes, summed code point by code point as terminals do; also any text
 * without a ZWJ or a regional indicator, whose clusters each sum the same way.
 */
function graphemeWidth(cluster: string): number {
  let width = 0;
  let joined = false;
  let openFlag = false;
  for (const character of cluster) {
    const codePoint = character.codePointAt(0) ?? 0;
    if (joined) {
      joined = false;
      continue;
    }
    if (codePoint === ZERO_WIDTH_JOINER) {
      joined = true;
      continue;
    }
    if (isRegionalIndicator(codePoint)) {
      openFlag = !openFlag;
      if (!openFlag) continue;
    }
    width += codePointWidth(character, codePoint);
  }
  return width;
}

/**
 * A ZWJ or a regional indicator: the only code points whose width depends on the cluster they are in
 * (graphemeWidth). Text without them measures the same code point by code point.
 */
const CLUSTER_DEPENDENT = /\u200D|\uD83C[\uDDE6-\uDDFF]/;

/** Columns `text` takes in a terminal. */
export function displayWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  // Measured without finding its clusters at all (Devanagari and Bengali names have marks that join).
  if (!CLUSTER_DEPENDENT.test(text)) return graphemeWidth(text);
  let width = 0;
  for (const cluster of graphemes(text)) width += graphemeWidth(cluster);
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
  for (const cluster of graphemes(text)) {
    const clusterWidth = graphemeWidth(cluster);
    if (used + clusterWidth > budget) break;
    kept += cluster;
    used += clusterWidth;
  }
  return kept + ellipsis;
}

/** `text` padded with spaces to `width` columns, on the right (left-aligned) or on the left. */
export function padToWidth(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const padding = width - displayWidth(text);
  if (padding <= 0) return text;
  return align === 'left' ? text + ' '.repeat(padding) : ' '.repeat(padding) + text;
}

/** The customary width of a terminal, where none is reported (and of help when piped). */
export const STANDARD_COLUMNS = 80;

/** The columns of a terminal stream: what it reports, else $COLUMNS, else the standard 80. */
export function terminalColumns(stream: { columns?: number }, env: NodeJS.ProcessEnv): number {
  return stream.columns || Number(env.COLUMNS) || STANDARD_COLUMNS;
}

/**
 * `text` broken into lines of at most `width` columns at spaces, never inside a word; a word wider
 * than the line (a long URL) gets a line of its own rather than being split. Existing line breaks stay.
 * With `keepQuoted`, a command quoted in backticks (`newsstats config set allow-insecure-http true`)
 * is kept on one line when it fits one, so it reads and copies whole.
 */
export function wrapToWidth(text: string, width: number, options: { keepQuoted?: boolean } = {}): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    const words = paragraph.split(' ');
    for (const word of options.keepQuoted ? quotedUnits(words, width) : words) {
      const wordWidth = displayWidth(word);
      if (line !== '' && lineWidth + 1 + wordWidth > width) {
        lines.push(line);
        line = word;
        lineWidth = wordWidth;
      } else {
        line = line === '' ? word : `${line} ${word}`;
        lineWidth += (lineWidth === 0 ? 0 : 1) + wordWidth;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Words, with each backtick-quoted run of them joined into one where it fits `width`. */
function quotedUnits(words: readonly string[], width: number): string[] {
  const units: string[] = [];
  for (let at = 0; at < words.length; at += 1) {
    const opens = (words[at]!.match(/`/g)?.length ?? 0) % 2 === 1;
    const closeAt = opens ? words.findIndex((word, index) => index > at && (word.match(/`/g)?.length ?? 0) % 2 === 1) : -1;
    const quoted = closeAt === -1 ? undefined : words.slice(at, closeAt + 1).join(' ');
    if (quoted !== undefined && displayWidth(quoted) <= width) {
      units.push(quoted);
      at = closeAt;
    } else {
      units.push(words[at]!);
    }
  }
  return units;
}

/**
 * The caption above a terminal table or chart (View.caption), wrapped at spaces to the terminal's
 * width rather than cut, so both windows of `people movers` stay readable on a narrow terminal. A
 * single word wider than the terminal is the one thing cut.
 */
export function captionLines(view: { caption?: string }, options: { width: number; unicode: boolean }): string[] {
  if (!view.caption) return [];
  return wrapToWidth(printable(view.caption), options.width).map((text) => truncateToWidth(text, options.width, options.unicode ? '…' : '~'));
}
