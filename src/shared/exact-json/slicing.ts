/**
 * A JSON parser that hands every number's text to the caller (so digits are never rounded) and slices
 * strings out of the text instead of building them a character at a time. lossless-json builds them
 * by concatenation, a rope of one node per character: a body of long strings then took about 35 times
 * its size in memory. Here a body costs a small multiple of itself.
 */

/**
 * A number with more digits or a larger exponent than newsstats accepts (parse.ts's bounds): valid
 * JSON, but a value no answer holds, refused before anything computes with it.
 */
export class NumberBoundError extends Error {
  override name = 'NumberBoundError';
  readonly field: string;

  constructor(field: string, digits: string, maxDigits: number, maxExponent: number) {
    const shown = digits.length > 24 ? `${digits.slice(0, 12)}…${digits.slice(-8)} (${digits.length} characters)` : digits;
    super(`field "${field}": the number ${shown} is beyond the bounds newsstats accepts (at most ${maxDigits} digits, an exponent within ±${maxExponent})`);
    this.field = field;
  }
}

/** Deeper than any answer could be; the request core refuses far less (MAX_JSON_DEPTH) before parsing. */
const MAX_DEPTH = 10_000;

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;

/**
 * Parses JSON text; throws SyntaxError naming the position when it is not JSON. `number` turns each
 * number's text into its value, given the key (or array index) it stands under.
 */
export function parseJsonText(text: string, number: (digits: string, key: string) => unknown): unknown {
  let index = 0;

  const fail = (what: string): never => {
    throw new SyntaxError(index >= text.length ? `Unexpected end of JSON (${what})` : `${what} at position ${index}`);
  };
  const skipWhitespace = (): void => {
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return;
    }
  };
  const expect = (code: number, what: string): void => {
    skipWhitespace();
    if (text.charCodeAt(index) !== code) fail(`Expected ${what}`);
    index++;
  };

  function parseString(): string {
    const start = ++index;
    let escaped = false;
    for (;;) {
      if (index >= text.length) fail('Unterminated string');
      const code = text.charCodeAt(index);
      if (code === 0x22) break;
      if (code === 0x5c) {
        escaped = true;
        index += 2;
        continue;
      }
      if (code < 0x20) fail('Control character in string');
      index++;
    }
    const raw = text.slice(start, index);
    index++;
    if (!escaped) return raw;
    try {
      // Escapes are rare in answers: the engine's own parser decodes (and checks) them.
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return fail('Invalid escape in string');
    }
  }

  function parseValue(key: string, depth: number): unknown {
    if (depth > MAX_DEPTH) fail('Nesting too deep');
    skipWhitespace();
    const code = text.charCodeAt(index);
    if (code === 0x22) return parseString();
    if (code === 0x7b) return parseObject(depth + 1);
    if (code === 0x5b) return parseArray(depth + 1);
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      if (!match) return fail('Invalid number');
      index += match[0].length;
      return number(match[0], key);
    }
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, index)) {
        index += word.length;
        return value;
      }
    }
    return fail(`Unexpected character ${JSON.stringify(text.charAt(index))}`);
  }

  function parseObject(depth: number): Record<string, unknown> {
    index++;
    const result: Record<string, unknown> = {};
    skipWhitespace();
    if (text.charCodeAt(index) === 0x7d) {
      index++;
      return result;
    }
    for (;;) {
      skipWhitespace();
      if (text.charCodeAt(index) !== 0x22) fail('Expected a key');
      const key = parseString();
      // Two values for one key: the last one counts, as with JSON.parse (the fast path) and jq.
      expect(0x3a, "':'");
      const value = parseValue(key, depth);
      // A key named __proto__ is data, never the object's prototype.
      if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
      else result[key] = value;
      skipWhitespace();
      const code = text.charCodeAt(index++);
      if (code === 0x7d) return result;
      if (code !== 0x2c) {
        index--;
        fail("Expected ',' or '}'");
      }
    }
  }

  function parseArray(depth: number): unknown[] {
    index++;
    const result: unknown[] = [];
    skipWhitespace();
    if (text.charCodeAt(index) === 0x5d) {
      index++;
      return result;
    }
    for (;;) {
      result.push(parseValue(String(result.length), depth));
      skipWhitespace();
      const code = text.charCodeAt(index++);
      if (code === 0x5d) return result;
      if (code !== 0x2c) {
        index--;
        fail("Expected ',' or ']'");
      }
    }
  }

  const value = parseValue('', 0);
  skipWhitespace();
  if (index < text.length) fail('Unexpected text after the JSON value');
  return value;
}

const LITERALS: ReadonlyArray<[string, unknown]> = [['true', true], ['false', false], ['null', null]];
