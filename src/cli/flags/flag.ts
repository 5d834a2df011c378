/**
 * A flag as a verb or the global options declare it, and the values commander parses for a table of
 * them. Types only, and a leaf: flags/options.ts builds flags of these types, run/spec.ts types a
 * verb's input from them, and neither needs the other to do it.
 */
import type { Option } from 'commander';

/**
 * One flag as a verb declares it: how to build its commander Option, and, as a type only, the value
 * commander's parser gives it. The table key is the option's attribute name (`--per-week` is
 * `perWeek`); verb() checks that they agree, so a renamed flag cannot silently read as undefined.
 */
export interface Flag<Value> {
  readonly build: () => Option;
  /** Never set: carries the parsed value's type from the declaration to run(). */
  readonly value?: Value;
}

export type FlagTable = Readonly<Record<string, Flag<unknown>>>;

type ValueOf<F> = F extends Flag<infer Value> ? Value : never;

/** The parsed values of a flag table, as commander hands them over: a flag not given is absent. */
export type FlagValues<Flags extends FlagTable> = {
  -readonly [Name in keyof Flags as undefined extends ValueOf<Flags[Name]> ? Name : never]?: ValueOf<Flags[Name]>;
} & {
  -readonly [Name in keyof Flags as undefined extends ValueOf<Flags[Name]> ? never : Name]: ValueOf<Flags[Name]>;
};
