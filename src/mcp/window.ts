/**
 * Week windows as the tools take them: the CLI's week specs (`last4`, `last12`, `current`, `202647`,
 * `202645..202648`), parsed by the CLI's own grammar (src/shared/weeks.ts) and resolved against the
 * service's current week, which every windowed result reports so a model knows when the last week
 * is still being counted.
 */
import type { NewsStatsClient } from '../api/client.js';
import { listWeeks, parseWeekSpec, resolveWeekWindow, weeksBetween, WEEK_SPEC_GRAMMAR, type WeekWindow } from '../shared/weeks.js';
import type { ToolCall } from './context.js';
import { ToolInputError } from './errors.js';

export const WEEKS_DESCRIPTION = `Week window: ${WEEK_SPEC_GRAMMAR}. Weeks are ISO weeks written YYYYWW (202647 is week 47 of 2026).`;

export interface WeekInfoNumbers {
  currentWeek: number;
  last4StartWeek: number;
}

export interface ToolWindow extends WeekWindow {
  weeks: number;
  currentWeek: number;
  /** The window holds the current week, whose counts are still growing. */
  partial: boolean;
}

export async function weekInfo(client: NewsStatsClient<'lossless'>, call: ToolCall): Promise<WeekInfoNumbers> {
  const info = await client.weeks.current(call.options);
  return { currentWeek: Number(String(info.currentWeek)), last4StartWeek: Number(String(info.last4StartWeek)) };
}

/** The window `spec` names, with the current week; `maxWeeks` bounds series of one request a week. */
export function windowOf(spec: string | number, info: WeekInfoNumbers, argument = 'weeks', maxWeeks?: number): ToolWindow {
  let window: WeekWindow;
  try {
    window = resolveWeekWindow(parseWeekSpec(String(spec)), info);
  } catch (error) {
    const message = (error as Error).message;
    throw new ToolInputError(`${argument}: ${message}${message.includes(WEEK_SPEC_GRAMMAR) ? '' : `. It takes ${WEEK_SPEC_GRAMMAR}`}`);
  }
  const described = withWeeks(window, info);
  if (maxWeeks !== undefined && described.weeks > maxWeeks) {
    throw new ToolInputError(`${argument}: ${String(spec)} is ${described.weeks} weeks; this tool takes at most ${maxWeeks} (one request a week). Ask for a shorter window, e.g. last${Math.min(12, maxWeeks)}.`);
  }
  return described;
}

/** A window with its length, the current week, and whether it holds that week. */
export function withWeeks(window: WeekWindow, info: WeekInfoNumbers): ToolWindow {
  const weeks = weeksBetween(window.startWeek, window.endWeek) + 1;
  return { ...window, weeks, currentWeek: info.currentWeek, partial: window.startWeek <= info.currentWeek && info.currentWeek <= window.endWeek };
}

export function weeksOf(window: WeekWindow): number[] {
  return listWeeks(window.startWeek, window.endWeek);
}

/** `weeks 202644–202647 (202647 is the current week, still partial)`. */
export function windowText(window: ToolWindow): string {
  const range = window.startWeek === window.endWeek ? `week ${window.startWeek}` : `weeks ${window.startWeek}–${window.endWeek}`;
  return window.partial ? `${range} (${window.currentWeek} is the current week, still partial: its counts are still growing)` : range;
}
