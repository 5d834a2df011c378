import { LosslessNumber } from 'lossless-json';
import type { View } from '../../../src/output/index.js';

export const BIG = '1152921504606846977';

/** Ranked people as the CLI holds them: every number a LosslessNumber. */
export const people = [
  {
    rank: new LosslessNumber('1'),
    personHash: 'p1',
    fullName: 'Lovelace, "Ada"',
    mentionCount: new LosslessNumber(BIG),
    sentiment: new LosslessNumber('-0.25'),
    sentimentColor: '#ff0000',
    reason: '=HYPERLINK("http://evil")',
    snippets: ['line one\nline two', 'x'],
  },
  {
    rank: new LosslessNumber('2'),
    personHash: 'p2',
    fullName: '習近平',
    mentionCount: new LosslessNumber('12'),
    sentiment: new LosslessNumber('1.50'),
    sentimentColor: '#00ff00',
    reason: null,
    snippets: [],
  },
];

export const peopleFields = ['rank', 'personHash', 'fullName', 'mentionCount', 'sentiment', 'sentimentColor', 'reason', 'snippets'];

export const peopleView: View = {
  data: people,
  fields: peopleFields,
  tableFields: ['rank', 'fullName', 'mentionCount', 'sentiment'],
  chart: { label: 'fullName', value: 'mentionCount' },
};
