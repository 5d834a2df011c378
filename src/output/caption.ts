/**
 * The caption above a terminal table or chart (View.caption), wrapped at spaces to the terminal's
 * width rather than cut, so both windows of `people movers` stay readable on a narrow terminal.
 */
import { displayWidth, truncateToWidth } from './text.js';
import { printable } from '../shared/printable.js';
import type { RenderOptions, View } from './view.js';

export function captionLines(view: Pick<View, 'caption'>, options: Pick<RenderOptions, 'width' | 'unicode'>): string[] {
  if (!view.caption) return [];
  const lines: string[] = [];
  let line = '';
  for (const word of printable(view.caption).split(' ')) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (line !== '' && displayWidth(joined) > options.width) {
      lines.push(line);
      line = word;
    } else {
      line = joined;
    }
  }
  lines.push(line);
  // A single word wider than the terminal is the one thing cut.
  return lines.map((text) => truncateToWidth(text, options.width, options.unicode ? '…' : '~'));
}
