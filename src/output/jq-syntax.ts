/**
 * jq's syntax errors in the user's words. jq's parser names what it found by its grammar's token
 * names (`unexpected IDENT`, `unexpected INVALID_CHARACTER`, `expecting QQSTRING_TEXT or
 * QQSTRING_END`), which the person never typed and cannot look up. The column jq gives is where that
 * token starts, so the token is read back from the expression itself and quoted as written:
 * `.foo bar` says `unexpected "bar"`, and an expression that stops half-way says so at its end.
 */

/** Where a syntax error is, in the user's expression: its line (from 1) and column (from 1). */
export interface JqPlace {
  line?: number;
  column?: number;
}

const INVALID_ESCAPE = /^Invalid escape at line \d+, column \d+ \(while parsing '(.*)'\)$/;
const SYNTAX_ERROR = /^syntax error, unexpected (.+?)(?:, expecting (.+?))?(?: \(Unix shell quoting issues\?\))?$/;

/**
 * The token that starts at `index` of `line`, as the user wrote it: a string to its closing quote,
 * a name (`bar`, `.foo`, `$v`, `@csv`, `a::b`), a number, an operator of two or three characters, or
 * the one character there.
 */
export function tokenAt(line: string, index: number): string {
  const rest = line.slice(index);
  if (rest.startsWith('"')) return /^"(?:[^"\\]|\\.)*"?/.exec(rest)![0];
  const word = /^(?:[.$@]?[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*|\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\?\/\/=?|\/\/=|\.\.|[|+\-*/%=!<>]=|\/\/)/.exec(rest);
  return word ? word[0] : [...rest][0] ?? '';
}

/**
 * The column (from 1, in characters) of the byte `offset` of `line`: jq counts a line's bytes, so in
 * `"Zoë" bar` it puts `bar` at byte 7, which is character 6.
 */
export function columnOfByte(line: string, offset: number): number {
  let bytes = 0;
  let column = 1;
  for (const character of line) {
    if (bytes >= offset) break;
    bytes += Buffer.byteLength(character);
    column += 1;
  }
  return column;
}

/** The index in `line` (UTF-16 units, as strings count) of its character at `column`. */
function indexOfColumn(line: string, column: number): number {
  return [...line].slice(0, column - 1).join('').length;
}

/** Text the user typed, in the quotes it does not hold. */
function quoted(text: string): string {
  return text.includes('"') ? `'${text}'` : `"${text}"`;
}

/** What jq said it was expecting, kept only where it names text a person types (`';' or ')'`). */
function expectedText(expecting: string | undefined): string {
  if (expecting === undefined) return '';
  const items = expecting.split(' or ').map((item) => (item === 'end of file' ? 'the end of the expression' : item));
  if (items.some((item) => !/^'.+'$|^the end of the expression$/.test(item))) return '';
  return ` (expected ${items.map((item) => item.replace(/^'(.+)'$/, '"$1"')).join(' or ')})`;
}

/**
 * jq's message about a syntax error, with what it found quoted from the expression and the place
 * moved to the end of the expression when the expression is what ran out. Any other message, or one
 * whose place is unknown, comes back as jq wrote it.
 */
export function inUsersWords(message: string, place: JqPlace, expressionLines: readonly string[]): { message: string } & JqPlace {
  // jq re-reads each piece of a string literal alone and names that piece (`'"\q"'` of `"abc\q"`).
  const escape = INVALID_ESCAPE.exec(message);
  if (escape) return { message: `invalid escape ${quoted(/\\[^"\\/bfnrtu(]/.exec(escape[1]!)?.[0] ?? '\\')} in a string`, ...place };
  const syntax = SYNTAX_ERROR.exec(message);
  if (!syntax) return { message, ...place };
  const [, found, expecting] = syntax as unknown as [string, string, string | undefined];
  if (found === 'end of file') {
    // jq places the end of the input on the last token it read; the place to type more is after it.
    const lastFilled = expressionLines.findLastIndex((text) => text.trim() !== '');
    const line = Math.max(lastFilled, 0) + 1;
    const column = [...(expressionLines[line - 1] ?? '').trimEnd()].length + 1;
    const insideString = expecting?.includes('QQSTRING') === true;
    const what = insideString ? 'the expression ends inside a string (a " is not closed)' : `the expression ends unfinished${expectedText(expecting)}`;
    return { message: `syntax error: ${what}`, line, column };
  }
  const source = place.line === undefined ? undefined : expressionLines[place.line - 1];
  if (source === undefined || place.column === undefined || place.column > [...source].length) {
    return { message: `syntax error: unexpected ${/^'.+'$/.test(found) ? quoted(found.slice(1, -1)) : 'text'}${expectedText(expecting)}`, ...place };
  }
  return { message: `syntax error: unexpected ${quoted(tokenAt(source, indexOfColumn(source, place.column)))}${expectedText(expecting)}`, ...place };
}
