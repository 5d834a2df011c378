/**
 * A mover's rank change as a terminal shows it: ▲ 3 in green, ▼ 2 in red, = for no change, and the
 * status word where there is no previous or current rank. Data formats keep the plain number.
 */
import { cellText } from './flatten.js';
import { fieldValue, type Row } from './view.js';

export interface StyledText {
  text: string;
  style?: (text: string) => string;
}

const paint = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[39m`;
const STYLES: Record<string, (text: string) => string> = { up: paint(32), down: paint(31), new: paint(33), out: paint(35) };

export function movementText(row: Row, unicode: boolean): string {
  const status = cellText(fieldValue(row, 'status'));
  const change = cellText(fieldValue(row, 'rankChange')).replace(/^-/, '');
  if (status === 'up') return `${unicode ? '▲' : '^'} ${change}`;
  if (status === 'down') return `${unicode ? '▼' : 'v'} ${change}`;
  if (status === 'same') return '=';
  return status;
}

export function movementCell(row: Row, color: boolean, unicode: boolean): StyledText {
  const text = movementText(row, unicode);
  const style = color ? STYLES[cellText(fieldValue(row, 'status'))] : undefined;
  return style ? { text, style } : { text };
}
