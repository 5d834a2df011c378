/**
 * Flag parsers: each flag is parsed into its typed value once, with the contract's bounds, and the
 * error names the flag and what it accepts. Commander reports them as usage errors before any request.
 */
import { InvalidArgumentError, Option } from 'commander';
import { parseWeek, parseWeekSpec, WeekError, WEEK_SPEC_GRAMMAR } from '../../shared/weeks.js';
import { UsageError } from '../run/errors.js';
import { defaultText, longFlag, parseNumber, parseSetting, SETTINGS, SettingError, type NumberBounds, type SettingName, type SettingSpec, type SettingValue } from '../../config/settings.js';
import { parseIntegerText } from '../../shared/numbers.js';
import { closest, didYouMean } from '../../shared/suggest.js';
import { GENDER_CODES, type GenderName } from '../../api/gender.js';
import type { Flag, FlagValues } from './flag.js';

export type IntegerBounds = Pick<NumberBounds, 'min' | 'max'>;

/** Parses a whole decimal number within bounds; "1.5", "1e3" and "" are refused, naming the flag. */
export function parseInteger(flag: string, text: string, bounds: IntegerBounds = {}): number {
  return reportedAsFlag(() => parseNumber(text, { ...bounds, integer: true }, flag));
}

/** A SettingError (config/settings.ts) reported the way commander reports a flag's refusal. */
function reportedAsFlag<Value>(parse: () => Value): Value {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SettingError) throw new InvalidArgumentError(`${error.message}.`);
    throw error;
  }
}

/** Parses a plain decimal number ("0.25", "100", "-3"); "half", "1e3" and "" are refused. */
export function parseDecimal(flag: string, text: string): number {
  const trimmed = text.trim();
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) throw new InvalidArgumentError(`${flag} takes a number, e.g. 0.25.`);
  return Number(trimmed);
}

/** Parses YYYY-MM-DD as midnight UTC of that day, refusing dates the calendar does not have. */
export function parseDate(flag: string, text: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2026-02-30 over to March; a round trip catches it.
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) return date;
  }
  throw new InvalidArgumentError(`${flag} takes a date written YYYY-MM-DD, e.g. 2026-03-02.`);
}

export function integerOption(flags: string, description: string, bounds: IntegerBounds = {}): Option {
  const flag = longFlag(flags);
  const range = bounds.min !== undefined && bounds.max !== undefined ? ` (${bounds.min}-${bounds.max})` : '';
  return new Option(flags, description + range).argParser((text: string) => parseInteger(flag, text, bounds));
}

/**
 * Typed flag declarations for a verb's flag table: each gives the value type commander's parser
 * produces, so run() is typed from the declaration and nothing else.
 */

/** A switch: true when given. `--no-x` switches are `negatedFlag`. */
export function switchFlag(flags: string, description: string, configure: (option: Option) => Option = (option) => option): Flag<boolean | undefined> {
  return { build: () => configure(new Option(flags, description)) };
}

/** `--no-x`: true unless given. */
export function negatedFlag(flags: `--no-${string}`, description: string): Flag<boolean> {
  return { build: () => new Option(flags, description) };
}

/** A flag taking text as given. */
export function textFlag(flags: string, description: string): Flag<string | undefined> {
  return { build: () => new Option(flags, description) };
}

/** A flag whose text is parsed into a value (a parse error names the flag and what it takes). */
export function parsedFlag<Value>(flags: string, description: string, parse: (text: string, previous: Value | undefined) => Value): Flag<Value | undefined> {
  return { build: () => new Option(flags, description).argParser(parse) };
}

/** A flag taking one of a fixed list of words. */
export function choiceFlag<const Choice extends string>(flags: string, description: string, choices: readonly Choice[]): Flag<Choice | undefined> {
  return { build: () => new Option(flags, description).choices(choices) };
}

/** An integer flag within bounds, e.g. --limit; the range is shown in --help. */
export function integerFlag(flags: string, description: string, bounds: IntegerBounds = {}): Flag<number | undefined> {
  return { build: () => integerOption(flags, description, bounds) };
}

/** The same flag with a default: its value is then never undefined. */
export function withDefault<Value>(flag: Flag<Value | undefined>, value: Value): Flag<Value> {
  return { build: () => flag.build().default(value) };
}

/** The same flag, with commander settings that do not change its value (conflicts, hidden). */
export function configured<Value>(flag: Flag<Value>, configure: (option: Option) => Option): Flag<Value> {
  return { build: () => configure(flag.build()) };
}

/** A flag parser built on a week parser: a week error becomes commander's usage error. */
export function weekArgument<T>(parse: (text: string) => T) {
  return (text: string): T => {
    try {
      return parse(text);
    } catch (error) {
      if (error instanceof WeekError) throw new InvalidArgumentError(/[.?]$/.test(error.message) ? error.message : `${error.message}.`);
      throw error;
    }
  };
}

/** --weeks SPEC | --start W --end W, shared by every command that takes a week window. */
export const weekWindowFlags = {
  weeks: parsedFlag('--weeks <spec>', `week window: ${WEEK_SPEC_GRAMMAR}`, weekArgument(parseWeekSpec)),
  start: configured(parsedFlag('--start <week>', 'first week of the window (YYYYWW); needs --end', weekArgument(parseWeek)), (option) => option.conflicts('weeks')),
  end: configured(parsedFlag('--end <week>', 'last week of the window (YYYYWW); needs --start', weekArgument(parseWeek)), (option) => option.conflicts('weeks')),
};

export type WeekWindowFlags = FlagValues<typeof weekWindowFlags>;

/** Splits "a,b , c" into ["a","b","c"]; an empty list is refused. */
export function parseFieldList(text: string): string[] {
  const fields = text.split(',').map((field) => field.trim()).filter((field) => field.length > 0);
  if (fields.length === 0) throw new InvalidArgumentError('--fields takes a comma-separated list of field names.');
  return fields;
}

/** Collects repeated --param key=value into a list of pairs, keeping order and repeats. */
export function collectKeyValue(text: string, previous: Array<[string, string]> = []): Array<[string, string]> {
  const separator = text.indexOf('=');
  if (separator <= 0) throw new InvalidArgumentError(`--param takes key=value (got "${text}").`);
  return [...previous, [text.slice(0, separator), text.slice(separator + 1)]];
}

/** A positional id such as <sourceId>: digits only, so "17abc" is refused rather than read as 17. */
export function parseIdArgument(name: string, text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new UsageError(`<${name}> takes a positive integer id (got "${text}")`);
  }
  return value;
}

/** --gender: a name (female, male, non-binary, unknown) sent as its code, or a code as the service knows it. */
export function parseGender(text: string): number {
  const name = text.trim().toLowerCase();
  if (Object.hasOwn(GENDER_CODES, name)) return GENDER_CODES[name as GenderName];
  const code = parseIntegerText(text);
  if (code !== undefined && code >= 0) return code;
  const names = Object.keys(GENDER_CODES);
  throw new InvalidArgumentError(`--gender takes ${names.join(', ')} or a code (an integer of at least 0)${didYouMean(closest(name, names)) || '.'}`);
}

/**
 * A flag naming a country (id, ISO code, name or slug). Empty is refused when parsed, so `--country ''`
 * fails before any request (the week info a ranking asks for first included).
 */
export function countryFlag(flags: `--${string} <country>`, description: string): Flag<string | undefined> {
  return parsedFlag(flags, description, nonEmpty(flags.slice(0, flags.indexOf(' '))));
}

/** The --gender flag of people search and the rankings. */
export function genderFlag(): Flag<number | undefined> {
  const names = Object.entries(GENDER_CODES).map(([name, code]) => `${name} (${code})`).join(', ');
  return parsedFlag('--gender <gender>', `only people of this gender: ${names}, or another code`, parseGender);
}

/** A value that must not be empty (`-o ''`, `--base-url ''`): refused rather than read as "not given". */
export function nonEmpty(flag: string): (text: string) => string {
  return (text: string) => {
    if (text.trim() === '') throw new InvalidArgumentError(`${flag} must not be empty.`);
    return text;
  };
}

/**
 * A global flag from the settings table (config/settings.ts): its syntax, its parser and bounds, and
 * help that names where else the setting comes from and its default.
 */
export function settingFlag<Name extends SettingName>(name: Name): Flag<SettingValue<Name> | undefined> {
  const spec: SettingSpec<unknown> = SETTINGS[name];
  const flag = spec.flag!;
  const shown = defaultText(spec);
  const sources = [spec.env && `$${spec.env}`, spec.key && `the profile's ${spec.key}`, shown].filter((source) => source);
  const help = sources.length > 0 ? `${spec.help} (default: ${sources.join(', else ')})` : spec.help;
  return parsedFlag(flag, help, (text) => reportedAsFlag(() => parseSetting(name, text, longFlag(flag))));
}
