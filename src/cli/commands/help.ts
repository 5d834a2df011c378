import { displayWidth, STANDARD_COLUMNS, wrapToWidth } from '../../output/text.js';
import type { Context } from '../run/spec.js';
import { UsageError } from '../run/errors.js';
import { exampleLines } from '../help/examples.js';
import { HELP_TOPIC_NAMES, HELP_TOPICS } from '../help/topics.js';
import { verb, type NounVerbs } from '../run/spec.js';

function topicList(): string {
  const width = Math.max(...HELP_TOPIC_NAMES.map((name) => name.length));
  const rows = Object.entries(HELP_TOPICS).map(([name, topic]) => `  ${name.padEnd(width)}  ${topic.summary}`);
  return `Help topics:
${rows.join('\n')}

  newsstats help TOPIC          one of the topics above
  newsstats help NOUN [VERB]    a command's help, e.g. newsstats help people top
  newsstats --help              every command and the global options
`;
}

/** An indented row of two columns: its continuation lines start under the second column. */
const TWO_COLUMN_ROW = /^(\s+\S+(?: \S+)*? {2,})\S/;

/**
 * Help text wrapped between words at `width`. Consecutive unindented lines are one paragraph and
 * are reflowed as one; an indented line keeps its indentation when it wraps, and a row of two
 * columns continues under its second column, so lists stay lists on a narrow terminal.
 */
export function wrapHelp(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) out.push(...wrapToWidth(paragraph.join(' '), width));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line !== '' && !/^\s/.test(line)) {
      paragraph.push(line);
      // A line ending in a colon introduces what follows; it is not part of a paragraph.
      if (line.endsWith(':')) flush();
      continue;
    }
    flush();
    if (displayWidth(line) <= width) {
      out.push(line);
      continue;
    }
    // An example command continues after ` \`, as in --help, so it still pastes as one line.
    if (line.startsWith('  $ ')) {
      out.push(...exampleLines(line.slice(4), width));
      continue;
    }
    const column = TWO_COLUMN_ROW.exec(line)?.[1];
    const indent = column ?? /^\s*/.exec(line)![0];
    const hanging = ' '.repeat(displayWidth(indent));
    const rest = line.slice(indent.length);
    const wrapped = wrapToWidth(rest, Math.max(10, width - hanging.length));
    if (column !== undefined && wrapped.some((part) => displayWidth(part) > width - hanging.length)) {
      // A word wider than the second column (last4StartWeek..currentWeek at 40 columns): the
      // description goes under its term, indented, rather than be broken by the terminal.
      const termIndent = /^\s*/.exec(line)![0];
      const under = `${termIndent}    `;
      out.push(termIndent + column.trim(), ...wrapToWidth(rest, Math.max(10, width - under.length)).map((part) => under + part));
      continue;
    }
    out.push(indent + wrapped.join(`\n${hanging}`));
  }
  flush();
  return out.join('\n');
}

/** Help is laid out at the terminal's width, or 80 columns when piped. */
function helpText(ctx: Context, text: string): { text: string } {
  return { text: wrapHelp(text, ctx.io.isTTY.stdout ? ctx.io.width : STANDARD_COLUMNS) };
}

function unknown(words: readonly string[]): UsageError {
  // One line: the topics are what a reader most likely wanted; --help lists the commands.
  return new UsageError(
    `no help topic or command "${words.join(' ')}"; topics: ${HELP_TOPIC_NAMES.join(', ')}; commands: newsstats --help`,
  );
}

const show = verb({
  name: '',
  summary: 'Print a help topic (weeks, formats, exit-codes, environment) or the help of a command',
  args: ['[topic...]'],
  examples: ['help', 'help weeks', 'help exit-codes', 'help people top'],
  prints: 'text',
  async run(ctx, { args: [words] }) {
    if (words.length === 0) return helpText(ctx, topicList());
    const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
    if (topic) return helpText(ctx, topic.text(ctx.env));
    // `help NOUN [VERB]` never gets here: main() rewrote it to `NOUN [VERB] --help` before parsing.
    throw unknown(words);
  },
});

const help: NounVerbs = { verbs: [show] };

export default help;
