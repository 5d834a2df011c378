import { displayWidth, STANDARD_COLUMNS, wrapToWidth } from '../../output/text.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { HELP_TOPIC_NAMES, HELP_TOPICS } from '../help-topics.js';
import { verb, type NounSpec } from '../spec.js';

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
    const indent = TWO_COLUMN_ROW.exec(line)?.[1] ?? /^\s*/.exec(line)![0];
    const hanging = ' '.repeat(displayWidth(indent));
    const wrapped = wrapToWidth(line.slice(indent.length), Math.max(10, width - hanging.length));
    out.push(indent + wrapped.join(`\n${hanging}`));
  }
  flush();
  return out.join('\n');
}

/** Help goes to stdout at the terminal's width, or 80 columns when piped. */
function writeHelp(ctx: Context, text: string): void {
  ctx.io.stdout.write(wrapHelp(text, ctx.io.stdoutIsTTY ? ctx.io.width : STANDARD_COLUMNS));
}

function unknown(words: readonly string[]): UsageError {
  // One line: the topics are what a reader most likely wanted; --help lists the commands.
  return new UsageError(
    `no help topic or command "${words.join(' ')}"; topics: ${HELP_TOPIC_NAMES.join(', ')}; commands: newsstats --help`,
  );
}

/** The command a help path names, checked against the table, or a usage error listing the topics. */
async function checkCommandPath(words: readonly string[]): Promise<void> {
  const { COMMANDS } = await import('../main.js');
  const entry = COMMANDS.find((command) => command.name === words[0]);
  if (!entry || words.length > 2) throw unknown(words);
  if (words.length === 1) return;
  const verbs = (await entry.load()).default.verbs.map((spec) => spec.name).filter((name) => name !== '');
  if (!verbs.includes(words[1]!)) {
    const valid = verbs.length > 0 ? `its verbs: ${verbs.join(', ')}` : 'it takes no verb';
    throw new UsageError(`"${words[0]}" has no verb "${words[1]}"; ${valid}`);
  }
}

const show = verb({
  name: '',
  summary: 'Print a help topic (weeks, formats, exit-codes, environment) or the help of a command',
  arguments: '[topic...]',
  examples: ['help', 'help weeks', 'help exit-codes', 'help people top'],
  async run(ctx, words) {
    if (words.length === 0) {
      writeHelp(ctx, topicList());
      return;
    }
    const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
    if (topic) {
      writeHelp(ctx, topic.text(ctx.env));
      return;
    }
    await checkCommandPath(words);
    // The command's own --help, exactly as `newsstats NOUN VERB --help` prints it.
    const { main } = await import('../main.js');
    const exitCode = await main([process.argv[0] ?? 'node', process.argv[1] ?? 'newsstats', ...words, '--help']);
    if (exitCode !== 0) throw new Error(`printing the help of "${words.join(' ')}" failed`);
  },
});

const help: NounSpec = {
  name: 'help',
  summary: 'Help on a command or a topic: weeks, formats, exit-codes, environment',
  verbs: [show],
};

export default help;
