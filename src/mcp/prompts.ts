/** The "weekly briefing" prompt: a plan for a model, in the tools' own terms. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

export function briefingText(args: { week?: string; country?: string; people?: string }): string {
  const week = args.week ?? 'the last complete week (week_info gives it as previousWeek)';
  const scope = args.country ? ` in ${args.country}'s news (pass country "${args.country}" to rank_people and people_movers)` : '';
  const count = args.people ?? '5';
  return [
    `Write a weekly news briefing for ${week}${scope}, from the newsstats tools.`,
    '1. Call week_info; use the week asked for, or previousWeek, as a single-week spec (e.g. "202647"). Say so if it is the current week: its figures are partial.',
    `2. Call rank_people for that week with limit ${count}; call people_movers for the same week against the week before (vs "previous", limit 10).`,
    '3. For the three most mentioned people call person_profile (same week, articles 3) and quote one snippet each, with its source.',
    '4. Call country_attention for the country, if one was given, and articles_overview with days 7.',
    'Write: a headline sentence; who led (mentions and dominance, with the numbers as given); who rose and who fell; what was written about the leaders, with links; anything unusual in sentiment. Keep it under 300 words. Name the weeks covered, and never invent a figure the tools did not return.',
  ].join('\n');
}

export function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'weekly_briefing',
    {
      title: 'Weekly news briefing',
      description: 'A briefing on who was in the news in one week: the leaders, the movers, what was written about them',
      argsSchema: {
        week: z.string().optional().describe('the week, YYYYWW (default: the last complete week)'),
        country: z.string().optional().describe('only this country\'s news: ISO code, name or id'),
        people: z.string().optional().describe('how many leaders to rank (default 5)'),
      },
    },
    (args) => ({
      description: 'Weekly news briefing',
      messages: [{ role: 'user', content: { type: 'text', text: briefingText(args) } }],
    }),
  );
}
