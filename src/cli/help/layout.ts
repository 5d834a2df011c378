/**
 * How commander lays out --help at a terminal's width (#31 item 2): between words at every width
 * from 40 up, as messages are. Commander aligns descriptions after the widest option (31 columns with
 * the global options) and gives up wrapping when fewer than 40 columns are left, so a 40- or
 * 50-column terminal broke words mid-way (`week window: curr` / `ent, last4`). Where the column
 * beside the options is narrower than DESCRIPTION_MIN, the description goes under its option instead,
 * indented, as gh and clap do on a narrow terminal; wider, commander's own layout is kept.
 */
import type { Command, Help } from 'commander';

/** The narrowest description column kept beside its option; narrower, it goes below. */
export const DESCRIPTION_MIN = 30;

/** The indent of a description laid out under its option. */
const UNDER = '      ';

type Item = (term: string, termWidth: number, description: string, helper: Help) => string;

/** Commander's own formatItem is on the prototype; configureHelp() puts this one on the instance. */
const formatItem: Item = (term, termWidth, description, helper) => {
  const width = helper.helpWidth ?? 80;
  // 2 of indent, 2 between term and description: commander's own spacing.
  if (!description || width - termWidth - 4 >= DESCRIPTION_MIN) return (Object.getPrototypeOf(helper) as Help).formatItem.call(helper, term, termWidth, description, helper);
  const lines = helper.boxWrap(description, width - UNDER.length).split('\n');
  return [`  ${term}`, ...lines.map((line) => UNDER + line)].join('\n');
};

/** Commander never wraps its Usage: line; at 40 columns `newsstats people [options] [command]` does not fit. */
const formatHelp = (command: Command, helper: Help): string => {
  const text = (Object.getPrototypeOf(helper) as Help).formatHelp.call(helper, command, helper);
  const width = helper.helpWidth ?? 80;
  const end = text.indexOf('\n');
  const usage = text.slice(0, end);
  if (helper.displayWidth(usage) <= width) return text;
  // Commander's own measure and wrap: no module of ours is loaded for help.
  return helper.boxWrap(usage, width - 2).replace(/\n/g, '\n  ') + text.slice(end);
};

/** The help settings for commander's configureHelp(): global options listed, and the narrow layout. */
export function helpLayout(): Partial<Help> {
  // boxWrap wraps nothing narrower than minWidthToWrap: descriptions under their option are as wide as the terminal less 6.
  return { showGlobalOptions: true, minWidthToWrap: 20, formatItem, formatHelp };
}
