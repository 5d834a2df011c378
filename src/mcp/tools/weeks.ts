/** The service's week: what "current", "last4" and "lastN" mean right now. */
import * as z from 'zod';
import { addWeeks, mondayOf } from '../../shared/weeks.js';
import { tool } from '../tool.js';
import { weekInfo } from '../window.js';

export const WEEK_INFO_TEXT = 'Weeks are ISO-8601 weeks written YYYYWW (202647 is week 47 of 2026; some years have 53). The current week is still being counted: its figures are partial and grow until it ends. last4 is the service\'s typical 4-week window, last4StartWeek to currentWeek; lastN is the N weeks ending with the current one.';

export const weekInfoTool = tool({
  name: 'week_info',
  title: 'The current week',
  description: `The service's current week and its typical 4-week window, with the dates they cover. Use it to turn "this week", "last month" or a date into week specs for the other tools. ${WEEK_INFO_TEXT}`,
  input: {},
  output: {
    currentWeek: z.number().int().describe('the current ISO week, YYYYWW; partial until it ends'),
    last4StartWeek: z.number().int().describe('first week of the typical 4-week window ending with the current week'),
    currentWeekStarts: z.string().describe('Monday of the current week, YYYY-MM-DD (UTC)'),
    previousWeek: z.number().int().describe('the last complete week'),
  },
  async run(_args, deps, call) {
    const info = await weekInfo(await deps.client(), call);
    const monday = mondayOf(info.currentWeek).toISOString().slice(0, 10);
    const previousWeek = addWeeks(info.currentWeek, -1);
    const text = `The current week is ${info.currentWeek} (from Monday ${monday}, still partial). The last complete week is ${previousWeek}. last4 is ${info.last4StartWeek}..${info.currentWeek}.`;
    return { structured: { ...info, currentWeekStarts: monday, previousWeek }, text };
  },
});
