import { completionScript, isShell, loadCompletionTree, SHELLS, type Shell } from '../completion/index.js';
import { UsageError } from '../errors.js';
import { verb, type NounSpec } from '../spec.js';

function checkShell(shell: string | undefined): Shell {
  if (shell === undefined || !isShell(shell)) {
    throw new UsageError(`unknown shell "${shell ?? ''}"; valid shells: ${SHELLS.join(', ')}`);
  }
  return shell;
}

const script = verb({
  name: '',
  summary: 'Print a completion script for bash, zsh or fish: nouns, verbs, options and option values',
  arguments: '<shell>',
  examples: [
    'completion bash > ~/.local/share/bash-completion/completions/newsstats',
    'completion zsh > "${fpath[1]}/_newsstats"',
    'completion fish > ~/.config/fish/completions/newsstats.fish',
  ],
  validate: ([shell]) => void checkShell(shell),
  async run(ctx, [shell]) {
    ctx.io.stdout.write(completionScript(checkShell(shell), await loadCompletionTree()));
  },
});

const completion: NounSpec = {
  name: 'completion',
  summary: 'Print a shell completion script (bash, zsh, fish)',
  verbs: [script],
};

export default completion;
