import { completionScript, isShell, loadCompletionTree, SHELLS, type Shell } from '../completion/index.js';
import { UsageError } from '../run/errors.js';
import { verb, type NounVerbs } from '../run/spec.js';

function checkShell(shell: string): Shell {
  if (!isShell(shell)) {
    throw new UsageError(`unknown shell "${shell}"; valid shells: ${SHELLS.join(', ')}`);
  }
  return shell;
}

const script = verb({
  name: '',
  summary: 'Print a completion script for bash, zsh or fish: nouns, verbs, options and option values',
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
    return { text: completionScript(shell, await loadCompletionTree(ctx.commands)) };
  },
});

const completion: NounVerbs = { verbs: [script] };

export default completion;
