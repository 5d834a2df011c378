import { describe, expect, it } from 'vitest';
import helpCommand, { wrapHelp } from '../../src/cli/commands/help.js';
import { UsageError } from '../../src/cli/run/errors.js';
import { EXIT_CODE_MEANINGS } from '../../src/cli/run/exit-codes.js';
import { HELP_TOPIC_NAMES, HELP_TOPICS } from '../../src/cli/help/topics.js';
import { ENVIRONMENT } from '../../src/config/resolve.js';
import { PROFILE_KEYS } from '../../src/config/settings.js';
import { formatFromPath, OUTPUT_FORMATS } from '../../src/output/formats.js';
import { guardFormula } from '../../src/output/flatten.js';
import { MAX_LAST_WEEKS, parseWeekSpec, WEEK_SPEC_GRAMMAR } from '../../src/shared/weeks.js';
import { runCli } from '../e2e/harness.js';

const env = { XDG_CONFIG_HOME: '/cfg', XDG_CACHE_HOME: '/cache' };

function topic(name: string): string {
  return HELP_TOPICS[name]!.text(env);
}

describe('help topics', () => {
  it('are weeks, formats, exit-codes and environment, each with a summary and a final newline', () => {
    expect(HELP_TOPIC_NAMES).toEqual(['weeks', 'formats', 'exit-codes', 'environment']);
    for (const name of HELP_TOPIC_NAMES) {
      expect(HELP_TOPICS[name]!.summary).not.toBe('');
      expect(topic(name)).toMatch(/\S\n$/);
    }
  });

  it('weeks: the grammar, last4, lastN bounds, 53-week years and the service clock', () => {
    const text = topic('weeks');
    expect(text).toContain(WEEK_SPEC_GRAMMAR);
    expect(text).toContain('last4StartWeek..currentWeek');
    expect(text).toContain(`1 to ${MAX_LAST_WEEKS}`);
    expect(text).toMatch(/53 weeks|have 53/);
    expect(text).toContain('2020');
    expect(text).toContain('2026');
    expect(text).toContain('202553 is refused (2025 has 52)');
    expect(() => parseWeekSpec('202553')).toThrow();
    expect(parseWeekSpec('202653')).toEqual({ kind: 'range', startWeek: 202653, endWeek: 202653 });
    expect(text).toContain('--start');
    expect(text).toContain('Monday');
    expect(text).toContain('January 4th');
    expect(text).toContain('never the local clock');
    // Every example spec in the text parses.
    for (const [, spec] of text.matchAll(/--weeks (\S+)$/gm)) expect(() => parseWeekSpec(spec!)).not.toThrow();
  });

  it('formats: every format, and the extension rules agree with the code', () => {
    const text = topic('formats');
    for (const format of OUTPUT_FORMATS) expect(text).toContain(format);
    const rules = [...text.matchAll(/(\.\w+) → (\w+)/g)];
    expect(rules.length).toBeGreaterThanOrEqual(5);
    for (const [, extension, format] of rules) expect(formatFromPath(`out${extension}`)).toBe(format);
    expect(formatFromPath('out.txt')).toBeUndefined(); // "any other extension is an error"
    expect(text).toContain('any other extension is\nan error unless --format');
    expect(text).toContain('--no-header');
    expect(text).toContain('--fields');
    expect(text).toContain('joined with ;');
    expect(text).toContain('articleHash');
    expect(text).toContain('tab-separated');
    expect(text).toContain('= + - @, tab or carriage return');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(guardFormula(`${start}x`)).toBe(`'${start}x`);
  });

  it('exit-codes: every code the CLI uses, with its meaning', () => {
    const text = topic('exit-codes');
    for (const code of [0, 1, 2, 3, 4, 5, 130]) expect(text).toMatch(new RegExp(`^ +${code} +\\S`, 'm'));
    for (const [, meaning] of EXIT_CODE_MEANINGS) expect(text).toContain(meaning);
  });

  it('environment: every variable, every profile key, the order and the files', () => {
    const text = topic('environment');
    for (const name of ['NEWSSTATS_API_KEY', 'NEWSSTATS_BASE_URL', 'NEWSSTATS_PROFILE', ...Object.keys(ENVIRONMENT)]) {
      expect(text).toContain(name);
    }
    for (const key of Object.keys(PROFILE_KEYS)) expect(text).toMatch(new RegExp(`^ +${key} +\\S`, 'm'));
    expect(text).toContain('--base-url > NEWSSTATS_BASE_URL > base-url');
    expect(text).toContain('/cfg/newsstats/config.json');
    expect(text).toContain('/cache/newsstats/');
  });
});

describe('newsstats help', () => {
  const [spec] = helpCommand.verbs;

  async function run(words: string[]): Promise<string> {
    const output = await spec!.invoke({ args: [words], flags: {} }).validate()({ env, io: { isTTY: { stdout: false }, width: 120 } } as never);
    if (!output || !('text' in output)) throw new Error('the help verb returns text');
    return output.text;
  }

  it('alone lists the topics and points at --help', async () => {
    const text = await run([]);
    for (const name of HELP_TOPIC_NAMES) expect(text).toContain(name);
    expect(text).toContain('newsstats --help');
  });

  it('prints a topic', async () => {
    // Not a terminal: wrapped at 80 columns.
    expect(await run(['exit-codes'])).toBe(wrapHelp(topic('exit-codes'), 80));
  });

  it('refuses an unknown topic or command in one line naming the topics', async () => {
    const error = await run(['nonsense']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain(HELP_TOPIC_NAMES.join(', '));
    expect((error as UsageError).message).not.toContain('\n');
    expect((error as UsageError).hint).toBeUndefined();
    // A command path is rewritten to `NOUN VERB --help` by main() before parsing, and checked there.
    const badVerb = await runCli(['help', 'people', 'nonsense']);
    expect(badVerb.code).toBe(2);
    expect(badVerb.stderr).toMatch(/its verbs: top/);
    for (const words of [['weeks', 'now'], ['people', 'top', 'extra']]) {
      const result = await runCli(['help', ...words]);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^error: /);
    }
  });

  it('prints the help of a command path, as `newsstats people top --help` does', async () => {
    const { code, stdout: written } = await runCli(['help', 'people', 'top']);
    expect(code).toBe(0);
    expect(written).toBe((await runCli(['people', 'top', '--help'])).stdout);
    expect(written).toContain('Usage: newsstats people top');
    expect(written).toContain('--per-week');
  });
});

describe('wrapHelp', () => {
  it('reflows paragraphs, keeps indentation, continues two-column rows under the second column', () => {
    const text = 'One two three four\nfive six.\n\nList:\n  key    a description that is long enough to wrap\n';
    expect(wrapHelp(text, 30)).toBe('One two three four five six.\n\nList:\n  key    a description that is\n         long enough to wrap\n');
  });
});
