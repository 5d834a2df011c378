/**
 * JSON parsing in the two number modes (docs/design.md, "Numbers are kept exactly as sent").
 * JSON.parse would round articleHash (> 2^53) and rewrite `1.50` as `1.5`. So JSON.parse reads a
 * small body only after one pass has put the numbers it would change into strings; a large body, or
 * one that pass cannot make safe, goes to slicing.ts, a parser that hands every number's text on.
 *
 * Neutral: it knows JSON, not the contract. Which fields are identifiers, kept exact as strings of
 * digits in native mode, is the caller's to say (api/json.ts passes the schema's identifier integers).
 */
import { LosslessNumber } from 'lossless-json';
import { jsonDepthExceeds, NestingDepthError } from './depth.js';
import { isIntegerText } from './identifier.js';
import { NumberBoundError, parseJsonText } from './slicing.js';

/**
 * `native`: identifier integers as strings of their digits (exact at any size), every other number a
 * JavaScript number (beyond 2^53 the nearest double); never a bigint.
 * `lossless`: every number a LosslessNumber holding the digits as sent.
 */
export type NumberMode = 'native' | 'lossless';

/**
 * A resource type (as native mode returns it) as lossless mode returns it: every number becomes a
 * LosslessNumber, and so does the string of digits of a field named in `Identifiers`, as the parser
 * does by key.
 */
export type LosslessOf<T, Identifiers extends PropertyKey = never> =
  T extends number | bigint ? LosslessNumber :
  T extends readonly (infer E)[] ? LosslessOf<E, Identifiers>[] :
  T extends object ? { [K in keyof T]: K extends Identifiers ? LosslessIdentifier<T[K]> : LosslessOf<T[K], Identifiers> } :
  T;

/** An identifier's type in lossless mode: its digits (a string in native mode) as a LosslessNumber. */
type LosslessIdentifier<V> = V extends string | number | bigint ? LosslessNumber : V;

export type Parsed<M extends NumberMode, T, Identifiers extends PropertyKey = never> = M extends 'lossless' ? LosslessOf<T, Identifiers> : T;

/**
 * Field names whose integers are identifiers: in native mode a string of the digits, whatever the
 * size, so a field has one type (what the schema says) instead of depending on its value. A number
 * not written as digits there (1.5, 1e3) stays a number, for the client's check to refuse by name.
 */
export type IdentifierFields = ReadonlySet<string>;

const NO_FIELDS: IdentifierFields = new Set();

/** An identifier's whole number (from JSON.parse: within 2^53, printed as written) as its digits. */
function asFieldType<T>(key: string, value: T, identifierFields: IdentifierFields): T | string {
  return typeof value === 'number' && Number.isInteger(value) && identifierFields.has(key) ? String(value) : value;
}

/** A number's text in native mode: an identifier's digits, else a number (the nearest double). */
function nativeNumber(digits: string, key: string, identifierFields: IdentifierFields): number | string {
  return identifierFields.has(key) && isIntegerText(digits) ? digits : Number(digits);
}

/** True when a number's text is what JavaScript prints for its value: JSON.parse then loses nothing. */
export function printsAsWritten(numberText: string): boolean {
  return String(Number(numberText)) === numberText;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/**
 * Starts a string that carries a number JSON.parse (or JSON.stringify) would change. No JSON string
 * from the API can be taken for one: markChangedNumbers refuses text that could hold it.
 */
export const MARK = '\u0000';

/** What may follow the first digits of a JSON number: the rest of its token. */
const NUMBER_TAIL = /[\d.eE+-]*/y;

/**
 * Whether positions of a JSON text are inside a string, asked in increasing order: each call scans
 * only the quotes since the last (a quote inside a string is escaped by an odd run of backslashes).
 */
function stringTracker(text: string): (position: number) => boolean {
  let scanned = 0;
  let inString = false;
  return (position) => {
    for (;;) {
      const quote = text.indexOf('"', scanned);
      if (quote === -1 || quote >= position) return inString;
      scanned = quote + 1;
      if (inString) {
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
        if (backslashes % 2 === 1) continue;
      }
      inString = !inString;
    }
  };
}

/**
 * The text with every number that JSON.parse could change (digits beyond 2^53, `1.50`, an exponent)
 * turned into a string holding its digits behind MARK, so JSON.parse keeps them. Only the numbers
 * MAYBE_CHANGED_NUMBER finds are looked at (every other number prints as written): a bulk answer (50
 * links, each with an articleHash beyond 2^53) costs a slice per such number, where a callback for
 * every string and number of the text cost 5x the garbage. A number found that JSON.parse would in
 * fact keep (1234567890123456) is marked too: both modes read a marked number written without an
 * exponent as they read it unmarked, and asking (printsAsWritten) cost more than marking. Undefined
 * when the text holds MARK already (as the escape \u0000), a number not in a container, or a found
 * number that is not a JSON number or is beyond the bounds: the slicing parser reads those, and
 * refuses what it must.
 *
 * With `insideString` (stringTracker), number-like text inside a string is left alone. Without it,
 * such text is marked too, and the result is never JSON: the mark's opening quote, after a `:`, `,`,
 * `[` or a space (never a backslash), ends that string, and the `\` after it can follow no value.
 * So parseWithJsonParse marks without it first, and with it only when JSON.parse refuses the text:
 * tracking every quote of an answer was half of what marking cost, for numbers that answers never
 * put in a string after one of those characters.
 */
function markChangedNumbers(text: string, insideString?: (position: number) => boolean): string | undefined {
  if (text.includes('\\u0000')) return undefined;
  const first = text.trimStart().charCodeAt(0);
  if (first === 0x2d || (first >= 0x30 && first <= 0x39)) return undefined;
  // One global copy of the pattern for every call (the walk is synchronous): a new RegExp each call
  // was a cost of every links store line the merge reads back.
  const candidates = CHANGED_NUMBER_CANDIDATES;
  candidates.lastIndex = 0;
  let marked = '';
  let copied = 0;
  // test(), not exec(): no match array for each number. The match ends inside the number (the
  // pattern reads its first characters only), whose start is the first of the characters before it
  // that a number's start can hold.
  while (candidates.test(text)) {
    let start = candidates.lastIndex;
    while (isNumberStartCharacter(text.charCodeAt(start - 1))) start -= 1;
    NUMBER_TAIL.lastIndex = start + 1;
    NUMBER_TAIL.test(text);
    const end = NUMBER_TAIL.lastIndex;
    candidates.lastIndex = end;
    if (insideString?.(start) === true) continue;
    const token = text.slice(start, end);
    // Native mode reads an identifier JSON.parse kept as its printed digits, but a marked one as digits
    // only when written without an exponent: `1e+21` must stay unmarked there.
    if (hasExponent(token) && printsAsWritten(token)) continue;
    // Beyond the bounds (or not a number): the slicing parser refuses it, naming the field. Only a
    // long number or one with an exponent can be beyond them.
    if (!JSON_NUMBER.test(token) || ((token.length > MAX_NUMBER_DIGITS || hasExponent(token)) && isBeyondNumberBounds(token))) return undefined;
    marked += `${text.slice(copied, start)}"\\u0000${token}"`;
    copied = end;
  }
  return copied === 0 ? text : marked + text.slice(copied);
}

function hasExponent(token: string): boolean {
  return token.includes('e') || token.includes('E');
}

/** What MAYBE_CHANGED_NUMBER matches of a number: a sign, digits, a point, an exponent's letter. */
function isNumberStartCharacter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2e || code === 0x65 || code === 0x45;
}

/** The digits of a marked number, or undefined for any other value. */
function markedDigits(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : undefined;
}

/**
 * Finds, in one native scan, any number JSON.parse could change: one with 16 or more digits and
 * points, an exponent, a fraction ending in 0, below 1e-6, or minus zero. Text without one (most
 * answers: the sandbox's whole ranking) is read by JSON.parse as it is, without marking, which costs
 * a callback for every string and number. A number starts after `:`, `[` or `,`; the same characters
 * inside a string may match too, which only sends the text the marking way. Every number that is not
 * matched has at most 15 significant digits written as JavaScript writes them, so it prints as
 * written (test/unit/shared/exact-json.test.ts checks this against printsAsWritten).
 */
const MAYBE_CHANGED_NUMBER = /[:,[]\s*(?:-0(?![.\d])|-?(?:\d[\d.]{15}|[\d.]+[eE]|\d+\.\d*0(?!\d)|0\.0{6}))/;
/** MAYBE_CHANGED_NUMBER for markChangedNumbers' walk through every match. */
const CHANGED_NUMBER_CANDIDATES = new RegExp(MAYBE_CHANGED_NUMBER.source, 'g');

/** What a walk over JSON.parse's result needs to make a mode's values of its numbers. */
interface NumberWalk {
  readonly mode: NumberMode;
  /** The text was marked: a string holding MARK is a number too (in unmarked text it is a string as sent). */
  readonly marked: boolean;
  readonly identifierFields: IdentifierFields;
  readonly maxDepth: number;
}

/**
 * A JSON.parse result with its numbers made the mode's, `key` being the name or index `value` has in
 * its container: lossless mode's every number a LosslessNumber, native mode's identifiers as their
 * digits and the rest numbers. Walked, not revived: a reviver is a call out of JSON.parse for every
 * value, which made native mode twice as slow as lossless mode over a sync's answers
 * (bench:sync-answers). The walk counts how deep it is (`depth`: the containers around `value`) and
 * refuses nesting beyond `maxDepth` before recursing further: JSON.parse itself does not recurse
 * (V8's parser keeps its own stack), so this walk is where a deep answer is noticed, with no scan of
 * the text before it.
 */
function withModeNumbers(value: unknown, key: string | number, walk: NumberWalk, depth: number): unknown {
  if (typeof value === 'number') return walk.mode === 'lossless' ? new LosslessNumber(String(value)) : asFieldType(String(key), value, walk.identifierFields);
  if (typeof value === 'string') {
    const digits = walk.marked ? markedDigits(value) : undefined;
    if (digits === undefined) return value;
    return walk.mode === 'lossless' ? new LosslessNumber(digits) : nativeNumber(digits, String(key), walk.identifierFields);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= walk.maxDepth) throw new NestingDepthError(walk.maxDepth);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = withModeNumbers(value[index], index, walk, depth + 1);
  } else {
    const record = value as Record<string, unknown>;
    // for...in: objects of one shape share the keys V8 caches; Object.keys made an array of every
    // object's keys (4 MB of a bulk sync's garbage). Own keys only: a key some code made enumerable
    // on Object.prototype is none of the answer's. A "__proto__" key is one of them (JSON.parse
    // defines every key as the object's own), so assigning it sets that property, not the prototype.
    for (const name in record) if (Object.hasOwn(record, name)) record[name] = withModeNumbers(record[name], name, walk, depth + 1);
  }
  return value;
}

const losslessNumber = (digits: string): LosslessNumber => new LosslessNumber(digits);

/**
 * Bodies up to this many characters go through JSON.parse; longer ones straight to slicing.ts. In a
 * fresh process the two are even at about 512 KiB; beyond it the marked copy of the text and
 * JSON.parse's strings cost more than slicing does (a 15 MiB ranking: 546 ms and 212 MB of RSS against
 * 227 ms and 42 MB). `npm run bench:parse` measures both paths at 0.25, 1 and 15 MiB.
 */
export const JSON_PARSE_MAX_CHARS = 512 * 1024;

/**
 * Parses JSON text; throws SyntaxError when it is not JSON (with parseJsonText's message, which says
 * where), NestingDepthError when arrays and objects nest deeper than `maxDepth` (whether or not the
 * text is JSON: that is asked first of text a recursive parser would read). A small body is read by
 * JSON.parse when that can be made exact (faster to start, less garbage on a bulk export's many small
 * answers); anything else by slicing.ts, which slices strings rather than building them. A repeated
 * key keeps its last value in both.
 */
export function parseJson(text: string, mode: NumberMode, identifierFields: IdentifierFields = NO_FIELDS, maxDepth = Number.POSITIVE_INFINITY): unknown {
  if (text.length <= JSON_PARSE_MAX_CHARS) {
    // JSON has no undefined: here it says the JSON.parse path could not read the text.
    const value = parseWithJsonParse(text, mode, identifierFields, maxDepth);
    if (value !== undefined) return value;
  }
  if (maxDepth !== Number.POSITIVE_INFINITY && jsonDepthExceeds(text, maxDepth)) throw new NestingDepthError(maxDepth);
  return parseJsonSlicing(text, mode, identifierFields);
}

/**
 * The JSON.parse path alone: undefined when the text cannot be made exact for it, or is not JSON.
 * Throws NestingDepthError for JSON nested deeper than `maxDepth`.
 */
export function parseWithJsonParse(text: string, mode: NumberMode, identifierFields: IdentifierFields = NO_FIELDS, maxDepth = Number.POSITIVE_INFINITY): unknown {
  // Text without a number JSON.parse could change is read as it is.
  const marked = MAYBE_CHANGED_NUMBER.test(text);
  try {
    let parsed = jsonParsed(marked ? markChangedNumbers(text) : text);
    // Refused: perhaps a number-like text inside a string was marked (see markChangedNumbers).
    if (parsed === undefined && marked) parsed = jsonParsed(markChangedNumbers(text, stringTracker(text)));
    // Not JSON, or not to be made exact for JSON.parse: parseJsonSlicing reads it, or throws the
    // SyntaxError with the position.
    if (parsed === undefined) return undefined;
    // Nothing to change and no depth to count: JSON.parse's value is native mode's.
    if (mode === 'native' && !marked && identifierFields.size === 0 && maxDepth === Number.POSITIVE_INFINITY) return parsed;
    return withModeNumbers(parsed, '', { mode, marked, identifierFields, maxDepth }, 0);
  } catch (error) {
    if (error instanceof NestingDepthError) throw error;
    return undefined;
  }
}

/** JSON.parse's value of the text; undefined (which no JSON text is) when it refuses it, or for no text. */
function jsonParsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export { NumberBoundError };

/**
 * Digits a number of an answer may have at most (mantissa, sign and point not counted): articleHash
 * has 20, a dominance about 17. Beyond it a number is an attack on whoever computes with it.
 */
export const MAX_NUMBER_DIGITS = 100;
/**
 * Largest exponent a number may be written with: beyond a double's whole range (1e308; 5e-324 the
 * least). `1e-100000000` made movers' exact arithmetic build a 10^100000000 (264 s, 652 MB).
 */
export const MAX_NUMBER_EXPONENT = 400;

/** True when a JSON number's text has more digits or a larger exponent than any answer's number. */
export function isBeyondNumberBounds(text: string): boolean {
  let exponentAt = text.indexOf('e');
  if (exponentAt === -1) exponentAt = text.indexOf('E');
  const mantissa = exponentAt === -1 ? text : text.slice(0, exponentAt);
  const digits = mantissa.length - (mantissa.startsWith('-') ? 1 : 0) - (mantissa.includes('.') ? 1 : 0);
  if (digits > MAX_NUMBER_DIGITS) return true;
  if (exponentAt === -1) return false;
  // Leading zeros of the exponent say nothing; its length alone must not decide.
  const exponent = text.slice(exponentAt + 1).replace(/^[+-]?0*/, '');
  return exponent.length > 3 || Number(exponent) > MAX_NUMBER_EXPONENT;
}

/** The slicing.ts path alone, in `mode`. */
export function parseJsonSlicing(text: string, mode: NumberMode, identifierFields: IdentifierFields = NO_FIELDS): unknown {
  const make = mode === 'lossless' ? losslessNumber : (digits: string, key: string) => nativeNumber(digits, key, identifierFields);
  return parseJsonText(text, (digits, key) => {
    // Most numbers are short and have no exponent: only those that could be out of bounds are read.
    if ((digits.length > 20 || /[eE]/.test(digits)) && isBeyondNumberBounds(digits)) throw new NumberBoundError(key, digits, MAX_NUMBER_DIGITS, MAX_NUMBER_EXPONENT);
    return make(digits, key);
  });
}
