/**
 * Questions about change: who climbed and fell between two windows (the CLI's `people movers` join),
 * one or more people week by week (`people trend`'s rows), and several people side by side.
 */
import * as z from 'zod';
import { forEachInOrder } from '../../api/in-order.js';
import { trendRow } from '../../output/rows.js';
import type { McpDependencies, MoverRecord, ToolCall } from '../context.js';
import { toMcpRecord } from '../exact.js';
import { ToolInputError } from '../errors.js';
import { maybeNumber, windowSchema } from '../schemas.js';
import { GLOBAL_METRICS, lines, metrics, personLabel } from '../text.js';
import { tool } from '../tool.js';
import { weekInfo, weeksOf, windowOf, windowText, withWeeks, type ToolWindow } from '../window.js';
import { filtersText, limitInput, rankingInput, rankingQuery, weeksInput } from './inputs.js';

/** Requests in flight for a series, as the CLI's trends use (src/cli/concurrency.ts). */
const CONCURRENCY = 4;
/** A year of weeks: one request a person and week. */
const MAX_SERIES_WEEKS = 53;
const MAX_TREND_PEOPLE = 5;
const MAX_COMPARED_PEOPLE = 10;
const RANKING_DEPTH = 1000;

const PARTIAL = 'A window holding the current week (partial: true) has fewer mentions than a full week: compare it with care.';

const moverSchema = z.looseObject({
  rank: z.number().nullable().describe('rank in the window; null when the person left the ranking read'),
  previousRank: z.number().nullable().describe('rank in the comparison window; null when new'),
  rankChange: z.number().nullable().describe('previousRank - rank: positive is a climb'),
  status: z.enum(['up', 'down', 'same', 'new', 'out']),
  leftTop: z.boolean().describe('in the comparison window\'s top `limit` and not in this window\'s: listed after the top'),
  personHash: z.string(),
  fullName: z.string().nullable(),
  mentionCount: z.number().nullable(),
  previousMentionCount: z.number().nullable(),
  mentionChange: z.number().nullable(),
  dominance: z.number().nullable(),
  previousDominance: z.number().nullable(),
  dominanceChange: z.number().nullable(),
  window: z.string(),
  previousWindow: z.string(),
});

export const peopleMovers = tool({
  name: 'people_movers',
  title: 'Who rose and who fell',
  description: `Who climbed, fell, arrived in or left the ranking between two week windows: the ranking of a window (default last4) against the weeks just before it (vs "previous") or any other window, with the same filters as rank_people. Use it for "who rose fastest in German news this month". rankChange is previousRank - rank (positive = climbed); status is up, down, same, new (not in the comparison's ranking, read \`depth\` deep) or out (left it); mentionChange and dominanceChange are exact differences. ${PARTIAL}`,
  input: {
    weeks: weeksInput('last4'),
    vs: z.string().optional().describe('the window to compare with: "previous" (as many weeks just before; the default) or a week spec'),
    ...rankingInput,
    limit: limitInput('people of the window\'s ranking to show (plus those who left it)', 100, 20),
    depth: z.number().int().min(1).max(RANKING_DEPTH).optional().describe(`how deep both rankings are read, so a climb from far down is not "new" (default 200, at least limit)`),
  },
  output: {
    window: windowSchema,
    comparison: windowSchema,
    sortBy: z.enum(['mentions', 'dominance']),
    depth: z.number().int(),
    filters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
    movers: z.array(moverSchema),
  },
  async run(args, deps, call) {
    const limit = args.limit ?? 20;
    const depth = args.depth ?? Math.max(200, limit);
    if (depth < limit) throw new ToolInputError(`depth ${depth} is below limit ${limit}: the rankings must be read at least as deep as the rows shown`);
    const client = await deps.client();
    const [{ params, filters }, info, join] = await Promise.all([rankingQuery(args, deps), weekInfo(client, call), deps.movers()]);
    const window = windowOf(args.weeks ?? 'last4', info);
    const vs = args.vs ?? 'previous';
    const comparison = vs.trim().toLowerCase() === 'previous' ? withWeeks(join.previousWindow(window), info) : windowOf(vs, info, 'vs');
    let done = 0;
    const ranking = async (range: ToolWindow) => {
      const result = await client.people.top({ ...params, startWeek: range.startWeek, endWeek: range.endWeek, limit: depth }, call.options);
      await call.progress((done += 1), 2, `ranking of ${range.startWeek}..${range.endWeek} read`);
      return result as Array<Record<string, unknown>>;
    };
    const [current, previous] = await Promise.all([ranking(window), ranking(comparison)]);
    const rows = join.joinRankings({ current, previous, window, comparison, limit });
    const sortBy = args.sortBy ?? 'mentions';
    const text = lines(
      `Ranking by ${sortBy} over ${windowText(window)}, against ${windowText(comparison)} (both read ${depth} deep).${filtersText(filters)}`,
      rows.length === 0 ? 'Nobody is ranked in either window.' : '',
      rows.map(moverLine),
    );
    return { structured: { window, comparison, sortBy, depth, filters, movers: rows.map((row) => toMcpRecord(row) as z.infer<typeof moverSchema>) }, text };
  },
});

/** `up 2 → rank 3 (was 5): Name (hash), mentions 120 (was 100, +20), dominance 2.1 (was 1.9, +0.2)`. */
function moverLine(row: MoverRecord): string {
  const was = (now: unknown, before: unknown, change: unknown) =>
    `${String(now ?? '–')} (was ${String(before ?? '–')}${change === null || change === undefined ? '' : `, ${signed(change)}`})`;
  const where = row.status === 'out' ? `out (was rank ${String(row.previousRank)})`
    : row.status === 'new' ? `new at rank ${String(row.rank)}`
      : `${String(row.status)} ${row.status === 'same' ? '' : `${signed(row.rankChange).replace(/^[+-]/, '')} `}to rank ${String(row.rank)} (was ${String(row.previousRank)})`;
  return `- ${where}: ${personLabel({ ...row })}, mentions ${was(row.mentionCount, row.previousMentionCount, row.mentionChange)}, dominance ${was(row.dominance, row.previousDominance, row.dominanceChange)}`;
}

function signed(value: unknown): string {
  const text = String(value);
  return text.startsWith('-') ? text : `+${text}`;
}

const hashesInput = (max: number, min: number) =>
  z.array(z.string().min(1)).min(min).max(max).describe(`personHash of each person (${min}-${max}); search_people finds them by name`);

const trendRowSchema = z.object({
  week: z.number().int(),
  personHash: z.string(),
  mentions: maybeNumber.describe('mentions that week, summed over countries'),
  globalDominance: maybeNumber, globalSentiment: maybeNumber, globalReach: maybeNumber, globalPower: maybeNumber,
  persistence: maybeNumber,
  countries: z.number().int().describe('how many countries\' press mentioned the person that week'),
  partial: z.boolean().describe('the current week, still being counted'),
});

/** Each person looked up first: an unknown one is one error naming them, before any weekly request. */
async function lookUp(personHashes: readonly string[], deps: McpDependencies, call: ToolCall): Promise<Array<Record<string, unknown>>> {
  const client = await deps.client();
  return Promise.all(personHashes.map(async (personHash) => (await client.people.get(personHash, call.options)) as Record<string, unknown>));
}

export const personTrend = tool({
  name: 'person_trend',
  title: 'Week by week',
  description: `One or more people week by week over a window (default last12, at most ${MAX_SERIES_WEEKS} weeks): each week's mentions (summed over countries), dominance, reach, power, sentiment, persistence and how many countries covered them. Use it for "how did X's coverage change since the summer" or to compare trajectories (up to ${MAX_TREND_PEOPLE} people). One request a person and week: it reports progress. The current week is partial: its mentions are still growing.`,
  input: {
    personHashes: hashesInput(MAX_TREND_PEOPLE, 1),
    weeks: weeksInput('last12'),
  },
  output: {
    window: windowSchema,
    people: z.array(z.object({ personHash: z.string(), fullName: z.string().nullable() })),
    rows: z.array(trendRowSchema).describe('one row a week and person, by week, then in the order the people were given'),
  },
  async run(args, deps, call) {
    const people = [...new Set(args.personHashes)];
    const client = await deps.client();
    // The window is checked before anyone is looked up: a year too long is the first thing to fix.
    const window = windowOf(args.weeks ?? 'last12', await weekInfo(client, call), 'weeks', MAX_SERIES_WEEKS);
    const persons = await lookUp(people, deps, call);
    const pairs = weeksOf(window).flatMap((week) => people.map((personHash) => ({ week, personHash })));
    const rows: Array<Record<string, unknown>> = [];
    await forEachInOrder(pairs, CONCURRENCY, async ({ week, personHash }) => ({
      personHash,
      ...trendRow(week, await client.people.countryStats(personHash, { startWeek: week, endWeek: week }, call.options)),
    }), async (row) => {
      rows.push(row);
      await call.progress(rows.length, pairs.length);
    });
    const names = people.map((personHash, index) => ({ personHash, fullName: typeof persons[index]?.fullName === 'string' ? (persons[index].fullName) : null }));
    const text = lines(
      `Week by week, ${windowText(window)}:`,
      names.map(({ personHash, fullName }) => [
        `${fullName ? `${fullName} (${personHash})` : personHash}:`,
        ...rows.filter((row) => row.personHash === personHash).map((row) => `- ${String(row.week)}${row.week === window.currentWeek ? ' (partial)' : ''}: ${metrics(row, GLOBAL_METRICS) || 'no mentions'}`),
      ]).flat(),
    );
    return {
      structured: { window, people: names, rows: rows.map((row) => ({ ...toMcpRecord(row), partial: row.week === window.currentWeek }) as z.infer<typeof trendRowSchema>) },
      text,
    };
  },
});

const comparedSchema = z.looseObject({
  personHash: z.string(),
  fullName: z.string().nullable(),
  countryName: z.string().nullable().describe('the person\'s own country'),
  mentions: maybeNumber.describe('mentions in the window, summed over countries'),
  globalDominance: maybeNumber, globalReach: maybeNumber, globalPower: maybeNumber, globalSentiment: maybeNumber, persistence: maybeNumber,
  countries: z.number().int().describe('how many countries\' press mentioned the person'),
  topCountry: z.string().nullable().describe('the country whose press mentioned them most'),
});

export const comparePeople = tool({
  name: 'compare_people',
  title: 'Several people side by side',
  description: `Two to ${MAX_COMPARED_PEOPLE} people side by side over one week window (default last4): mentions, dominance, reach, power, sentiment, persistence, how many countries covered them and where most. Use it for "who got more coverage, X or Y, and where". For week by week use person_trend. ${PARTIAL}`,
  input: {
    personHashes: hashesInput(MAX_COMPARED_PEOPLE, 2),
    weeks: weeksInput('last4'),
  },
  output: {
    window: windowSchema,
    people: z.array(comparedSchema),
  },
  async run(args, deps, call) {
    const people = [...new Set(args.personHashes)];
    const client = await deps.client();
    const [info, persons] = await Promise.all([weekInfo(client, call), lookUp(people, deps, call)]);
    const window = windowOf(args.weeks ?? 'last4', info);
    let done = 0;
    const rows = await Promise.all(people.map(async (personHash, index) => {
      const stats = (await client.people.countryStats(personHash, { startWeek: window.startWeek, endWeek: window.endWeek }, call.options)) as Record<string, unknown>;
      await call.progress((done += 1), people.length);
      const { week: _week, ...totals } = trendRow(window.startWeek, stats);
      const countryRows = (stats.countries ?? []) as Array<Record<string, unknown>>;
      const top = [...countryRows].sort((a, b) => Number(String(b.mentions ?? 0)) - Number(String(a.mentions ?? 0)))[0];
      const person = persons[index]!;
      return {
        personHash,
        fullName: typeof person.fullName === 'string' ? person.fullName : null,
        countryName: typeof person.countryName === 'string' ? person.countryName : null,
        ...totals,
        topCountry: top === undefined ? null : String(top.countryName ?? top.countryIso ?? top.countryId),
      };
    }));
    const text = lines(
      `Side by side, ${windowText(window)}:`,
      rows.map((row) => `- ${personLabel(row)}: ${metrics(row, GLOBAL_METRICS)}${row.topCountry ? `; most in ${row.topCountry}` : ''}`),
    );
    return { structured: { window, people: rows.map((row) => toMcpRecord(row) as z.infer<typeof comparedSchema>) }, text };
  },
});
