import { UsageError } from '../errors.js';
import { HELP_TOPIC_NAMES, HELP_TOPICS } from '../help-topics.js';
import { verb, type NounVerbs } from '../spec.js';

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
    if (words.length === 0) return { text: topicList() };
    const topic = words.length === 1 ? HELP_TOPICS[words[0]!] : undefined;
    if (topic) return { text: topic.text(ctx.env) };
    // `help NOUN [VERB]` never gets here: main() rewrote it to `NOUN [VERB] --help` before parsing.
    throw unknown(words);
  },
});

const help: NounVerbs = { verbs: [show] };

export default help;
