/**
 * `newsstats completion <shell>`: the generators by shell, and the tree they are generated from,
 * gathered from the command table as it is at run time.
 */
import { bashScript } from './bash.js';
import { fishScript } from './fish.js';
import type { CommandTreeSource, NounSpec } from '../run/spec.js';
import { buildCompletionTree, type CompletionArguments, type CompletionTree } from './tree.js';
import { zshScript } from './zsh.js';

export const COMPLETION_SCRIPTS = {
  bash: bashScript,
  zsh: zshScript,
  fish: fishScript,
} as const satisfies Record<string, (tree: CompletionTree) => string>;

export type Shell = keyof typeof COMPLETION_SCRIPTS;

export const SHELLS = Object.keys(COMPLETION_SCRIPTS) as Shell[];

export function isShell(text: string): text is Shell {
  return Object.hasOwn(COMPLETION_SCRIPTS, text);
}

/** The week specs a user most often means; any other (last8, 202640..202647) is typed out. */
export const COMPLETED_WEEK_SPECS = ['current', 'last4', 'last12', 'complete4', 'complete12'] as const;

/**
 * Every noun and the global options, as main.ts registers them, with the words each position takes.
 * `countries`: the words offered after --country and --from-country (completion.ts reads them from
 * the countries list cached when the script is made); none, and those values are typed out.
 */
export async function loadCompletionTree(commands: CommandTreeSource, countries: readonly string[] = []): Promise<CompletionTree> {
  const [{ HELP_TOPIC_NAMES }, { PROFILE_KEYS }, nouns] = await Promise.all([
    import('../help/topics.js'),
    import('../../config/settings.js'),
    commands.nouns(),
  ]);
  const profileKeys: CompletionArguments = { first: Object.keys(PROFILE_KEYS) };
  const verbNames = (noun: NounSpec) => noun.verbs.map((verb) => verb.name).filter((name) => name !== '');
  return buildCompletionTree({
    program: 'newsstats',
    nouns,
    globalOptions: commands.globalOptions(),
    arguments: {
      completion: { first: SHELLS },
      // `help` takes a topic or a command path: a noun, then one of its verbs.
      help: {
        first: [...new Set([...HELP_TOPIC_NAMES, ...nouns.map((noun) => noun.name)])],
        secondAfter: Object.fromEntries(nouns.filter((noun) => verbNames(noun).length > 0).map((noun) => [noun.name, verbNames(noun)])),
      },
      'config set': profileKeys,
      'config get': profileKeys,
      'config unset': profileKeys,
    },
    values: {
      '--weeks': COMPLETED_WEEK_SPECS,
      ...(countries.length > 0 && { '--country': countries, '--from-country': countries }),
    },
    // --fields names the fields of the command's own view (the columns of csv and table).
    listsByCommand: { '--fields': (verb) => verb.defaultView?.()?.fields },
  });
}

export function completionScript(shell: Shell, tree: CompletionTree): string {
  return COMPLETION_SCRIPTS[shell](tree);
}
