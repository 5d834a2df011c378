import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { captionLines } from '../../../src/output/text.js';
import { movementCell, movementText } from '../../../src/output/movement.js';

const mover = (status: string, rankChange: string | null) => ({ status, rankChange: rankChange === null ? null : new LosslessNumber(rankChange) });

describe('rank change cells', () => {
  it('arrows and the size of the move', () => expect([movementText(mover('up', '3'), true), movementText(mover('down', '-12'), true)]).toEqual(['▲ 3', '▼ 12']));
  it('ASCII without a UTF-8 locale', () => expect([movementText(mover('up', '3'), false), movementText(mover('down', '-2'), false)]).toEqual(['^ 3', 'v 2']));
  it('= for no change, the status word without a previous or current rank', () => expect(['same', 'new', 'out'].map((status) => movementText(mover(status, status === 'same' ? '0' : null), true))).toEqual(['=', 'new', 'out']));
  it('green up, red down, plain without colour', () => {
    expect(movementCell(mover('up', '1'), true, true).style?.('x')).toBe('\x1b[32mx\x1b[39m');
    expect(movementCell(mover('down', '-1'), true, true).style?.('x')).toBe('\x1b[31mx\x1b[39m');
    expect(movementCell(mover('up', '1'), false, true).style).toBeUndefined();
  });
});

describe('captions', () => {
  it('wrap at spaces to the width', () => expect(captionLines({ caption: 'aaa bbb ccc ddd' }, { width: 8, unicode: true })).toEqual(['aaa bbb', 'ccc ddd']));
  it('cut only a word wider than the terminal', () => expect(captionLines({ caption: 'abcdefghij k' }, { width: 6, unicode: true })).toEqual(['abcde…', 'k']));
  it('none without a caption', () => expect(captionLines({}, { width: 80, unicode: true })).toEqual([]));
});
