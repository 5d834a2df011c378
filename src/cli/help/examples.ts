/**
 * The "Examples:" section of a command's --help. Each example is the words after `newsstats`, or a
 * whole shell line that runs newsstats itself (a pipe into it, `mkdir -p ... &&` first); a trailing
 * `# comment` says what the example shows.
 *
 * Every line fits 80 columns, the width help is read at in a log, a pager or a narrow pane: a long
 * command continues on the next line after ` \` (breaking only between words outside quotes, so the
 * lines still paste into a shell as one command), and its comment goes on lines of its own above it.
 */

/** The width every example line fits, as commander's own help when it is not at a terminal. */
export const HELP_EXAMPLE_WIDTH = 80;

const PROMPT = '  $ ';
const CONTINUATION = '      ';
const COMMENT = '  # ';
/** `newsstats` as a command of the line: at its start or after a pipe, `&&`, `||` or `;`. */
const RUNS_NEWSSTATS = /(^|[|&;]\s*)newsstats /;

export function examplesHelp(examples: readonly string[], width = HELP_EXAMPLE_WIDTH): string {
  return `\nExamples:\n${examples.flatMap((example) => exampleLines(example, width)).join('\n')}`;
}

/** One example as help lines: its comment (if any) above, then the command, continued with ` \`. */
export function exampleLines(example: string, width = HELP_EXAMPLE_WIDTH): string[] {
  const commentAt = example.search(/\s+# /);
  const command = (commentAt === -1 ? example : example.slice(0, commentAt)).trim();
  const comment = commentAt === -1 ? '' : example.slice(commentAt).trim().slice(2);
  const line = RUNS_NEWSSTATS.test(command) ? command : `newsstats ${command}`;
  return [
    ...fill(comment.split(/\s+/).filter(Boolean), width, { first: COMMENT, next: COMMENT, end: '' }),
    ...fill(fitted(shellPhrases(line), width - CONTINUATION.length - 2), width, { first: PROMPT, next: CONTINUATION, end: ' \\' }),
  ];
}

/** Phrases on lines of at most `width` columns; every line but the last ends in `end`. */
function fill(phrases: readonly string[], width: number, marks: { first: string; next: string; end: string }): string[] {
  const lines: string[] = [];
  let current = '';
  phrases.forEach((phrase, index) => {
    // A line another follows needs room for its `end` too.
    const room = index === phrases.length - 1 ? width : width - marks.end.length;
    if (current === '') current = marks.first + phrase;
    else if (current.length + 1 + phrase.length > room) {
      lines.push(current + marks.end);
      current = marks.next + phrase;
    } else current = `${current} ${phrase}`;
  });
  return current === '' ? lines : [...lines, current];
}

/** Phrases too wide for a line of their own (a noun, verb and long id at 40 columns) broken into their words. */
function fitted(phrases: ReadonlyArray<readonly string[]>, room: number): string[] {
  return phrases.flatMap((words) => (words.join(' ').length > room ? words : [words.join(' ')]));
}

/**
 * A command line in the pieces it may be broken between: a flag with its value, a redirection with
 * its file, `&& command`, `| command`. Spaces inside quotes never split a piece.
 */
function shellPhrases(command: string): string[][] {
  const words = command.match(/(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])+/g) ?? [];
  const phrases: string[][] = [];
  for (const word of words) {
    const previous = phrases.at(-1);
    // An operator alone (`&&`, `|`, `>`) keeps the word after it.
    const startsPhrase = previous === undefined || (!/^\d?[|&;<>]+$/.test(previous.join(' ')) && /^(-|\d?[|&;<>])/.test(word));
    if (startsPhrase) phrases.push([word]);
    else previous.push(word);
  }
  return phrases;
}
