import { completionScript, isShell, loadCompletionTree, SHELLS, type Shell } from '../completion/index.js';
import { UsageError } from '../run/errors.js';
import { verb, type Context, type NounVerbs } from '../run/spec.js';

function checkShell(shell: string): Shell {
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell "${shell}"; valid shells: ${SHELLS.join(', ')}`);
  }
  return shell;
}

/**
 * The slugs of the countries cached for this profile and base URL (by `countries list` or any
 * --country), offered after --country and --from-country. Read when the script is made, never while
 * completing: a TAB stays instant and never waits on the network. No cache (or --no-cache, or the
 * in-process --sandbox, which is never cached): no country words.
 */
async function cachedCountrySlugs(ctx: Pick<Context, 'globals' | 'deps' | 'env'>): Promise<string[]> {
  if (ctx.globals.sandbox || !ctx.globals.cache) return [];
  const [{ lastCachedList }, { slugify }] = await Promise.all([import('../run/cache.js'), import('../../shared/slug.js')]);
  // A config file that cannot be read costs the country words, never the script.
  const countries = await ctx.deps.settings().then((settings) => lastCachedList(settings, ctx.env, 'countries'), () => undefined);
  if (!Array.isArray(countries)) return [];
  const slugs = countries.map((country: { countryName?: unknown }) => (typeof country.countryName === 'string' ? slugify(country.countryName) : ''));
  return [...new Set(slugs.filter((slug) => slug !== ''))].sort();
}

const script = verb({
  name: '',
  summary: 'Print a completion script for bash, zsh or fish: nouns, verbs, options and their values (--country: the countries list cached by `countries list`)',
  args: ['<shell>'],
  examples: [
    // The folders may not exist yet on a fresh account: the line makes them first.
    'mkdir -p ~/.local/share/bash-completion/completions && newsstats completion bash > ~/.local/share/bash-completion/completions/newsstats',
    'completion zsh > "${fpath[1]}/_newsstats"',
    'mkdir -p ~/.config/fish/completions && newsstats completion fish > ~/.config/fish/completions/newsstats.fish',
  ],
  prints: 'text',
  validate: ({ args: [shell] }) => checkShell(shell),
  async run(ctx, shell) {
    return { text: completionScript(shell, await loadCompletionTree(ctx.commands, await cachedCountrySlugs(ctx))) };
  },
});

const completion: NounVerbs = { verbs: [script] };

export default completion;
