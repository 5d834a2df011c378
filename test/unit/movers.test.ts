import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { difference, joinRankings, moverStatus, previousWindow, subtractDecimal } from '../../src/cli/commands/people/rank-changes.js';

const n = (text: string) => new LosslessNumber(text);
const person = (rank: number, personHash: string, mentionCount: string, dominance: string) => ({
  rank: n(String(rank)), personHash, fullName: personHash.toUpperCase(), mentionCount: n(mentionCount), dominance: n(dominance),
});

describe('exact differences', () => {
  it('subtracts decimals digit for digit, keeping the finer scale', () => {
    expect(subtractDecimal('5.2324', '5.2')).toBe('0.0324');
    expect(subtractDecimal('0.1', '0.3')).toBe('-0.2');
    expect(subtractDecimal('1.50', '1.25')).toBe('0.25');
    expect(subtractDecimal('2', '2.000')).toBe('0.000');
    expect(subtractDecimal('1e2', '1.5e-3')).toBe('99.9985');
    expect(subtractDecimal('12', 'twelve')).toBeUndefined();
  });
  it('subtracts integers beyond 2^53 exactly', () => expect(subtractDecimal('9007199254740993', '1')).toBe('9007199254740992'));
  it('is null when either side is missing', () => expect(difference(n('3'), null)).toBeNull());
  it('prints as the digits computed', () => expect(String(difference(n('0.3'), n('0.1')))).toBe('0.2'));
});

describe('statuses', () => {
  it('up, down, same', () => expect([moverStatus(n('2'), n('5')), moverStatus(n('5'), n('2')), moverStatus(n('3'), n('3'))]).toEqual(['up', 'down', 'same']));
  it('new without a previous rank, out without a current one', () => expect([moverStatus(n('4'), null), moverStatus(undefined, n('4'))]).toEqual(['new', 'out']));
});

describe('--vs previous', () => {
  it('takes as many weeks just before', () => expect(previousWindow({ startWeek: 202644, endWeek: 202647 })).toEqual({ startWeek: 202640, endWeek: 202643 }));
  it('counts across a 53-week year end', () => expect(previousWindow({ startWeek: 202701, endWeek: 202702 })).toEqual({ startWeek: 202652, endWeek: 202653 }));
  it('one week before one week', () => expect(previousWindow({ startWeek: 202601, endWeek: 202601 })).toEqual({ startWeek: 202552, endWeek: 202552 }));
});

describe('joinRankings', () => {
  const window = { startWeek: 202647, endWeek: 202647 };
  const comparison = { startWeek: 202646, endWeek: 202646 };
  const current = [person(1, 'b', '30', '2.5'), person(2, 'd', '20', '1.1'), person(3, 'a', '12', '0.3')];
  const previous = [person(1, 'a', '40', '3.0'), person(2, 'b', '25', '2.25'), person(3, 'c', '9', '0.1'), person(4, 'd', '8', '0.05')];
  const rows = joinRankings({ current, previous, window, comparison, limit: 2 });

  it('lists the current top limit, then who left the previous top limit', () => expect(rows.map((row) => row.personHash)).toEqual(['b', 'd', 'a']));
  it('a climb from below the shown rows is up, not new', () => expect(rows[1]).toMatchObject({ status: 'up', rankChange: n('2') }));
  it('who left the top but is within the depth keeps their rank', () => expect(rows[2]).toMatchObject({ status: 'down', rank: n('3'), previousRank: n('1'), rankChange: n('-2') }));
  it('changes are exact', () => expect([String(rows[0]!.mentionChange), String(rows[0]!.dominanceChange)]).toEqual(['5', '0.25']));
  it('marks the rows that fell out of the top limit, and only those', () => expect(rows.map((row) => row.leftTop)).toEqual([false, false, true]));
  it('labels both windows', () => expect([rows[0]!.window, rows[0]!.previousWindow]).toEqual(['202647..202647', '202646..202646']));
  it('new and out beyond the depth', () => {
    const joined = joinRankings({ current: [person(1, 'x', '5', '1')], previous: [person(1, 'y', '6', '1.5')], window, comparison, limit: 1 });
    expect(joined.map((row) => [row.personHash, row.status, row.rank, row.previousRank, row.mentionChange, row.leftTop])).toEqual([
      ['x', 'new', n('1'), null, null, false],
      ['y', 'out', null, n('1'), null, true],
    ]);
  });
});
