/**
 * A mover's rank change as a terminal shows it: ▲ 3 in green, ▼ 2 in red, = for no change, and the
 * status word where there is no previous or current rank. A row that fell out of the top N (`leftTop`)
 * reads `left ▼ 38`: a word, so it reads without colour; the caption says what it means. Data formats
 * keep the plain number and the field.
 */
import { cellText } from './flatten.js';
import { fieldValue, type Row } from './view.js';

export interface StyledText {
  text: string;
  style?: (text: string) => string;
}

const paint = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[39m`;
const STYLES: Record<string, (text: string) => string> = { up: paint(32), down: paint(31), new: paint(33), out: paint(35) };

/** The mark of a row that fell out of the top N (table and chart), explained in the caption (rank-changes.ts marksLegend). */
export const LEFT_TOP_MARK = 'left';

export function movementText(row: Row, unicode: boolean): string {
  const status = cellText(fieldValue(row, 'status'));
  // `out` (below the ranking read) says it already.
  const left = fieldValue(row, 'leftTop') === true && status !== 'out' ? `${LEFT_TOP_MARK} ` : '';
  const change = cellText(fieldValue(row, 'rankChange')).replace(/^-/, '');
  if (status === 'up') return `${left}${unicode ? '▲' : '^'} ${change}`;
  if (status === 'down') return `${left}${unicode ? '▼' : 'v'} ${change}`;
  if (status === 'same') return `${left}=`;
  return status;
}

export function movementCell(row: Row, color: boolean, unicode: boolean): StyledText {
  const text = movementText(row, unicode);
  const style = color ? STYLES[cellText(fieldValue(row, 'status'))] : undefined;
  return style ? { text, style } : { text };
}
