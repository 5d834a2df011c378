/**
 * Terminal hyperlinks (OSC 8): a URL cut to fit a table cell is still opened by a click. Whether the
 * terminal draws them is decided as the supports-hyperlinks package does (the convention most CLIs
 * follow), from the environment alone: FORCE_HYPERLINK first (1 on, 0 off), never off a terminal or
 * in CI, then the terminals known to support them, by the variables they set.
 */

/** `major.minor.patch` of a version variable, missing parts 0. */
function version(text: string | undefined): [number, number, number] {
  const [major = 0, minor = 0, patch = 0] = (text ?? '').split('.').map((part) => Number.parseInt(part, 10) || 0);
  return [major, minor, patch];
}

function atLeast(actual: [number, number, number], wanted: [number, number, number]): boolean {
  for (let i = 0; i < 3; i += 1) if (actual[i] !== wanted[i]) return actual[i]! > wanted[i]!;
  return true;
}

export function supportsHyperlinks(env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (env.FORCE_HYPERLINK !== undefined) {
    return !(env.FORCE_HYPERLINK.length > 0 && Number.parseInt(env.FORCE_HYPERLINK, 10) === 0);
  }
  if (!isTTY || env.CI !== undefined || env.TEAMCITY_VERSION !== undefined) return false;
  if (env.NETLIFY !== undefined) return true;
  if (env.WT_SESSION !== undefined || env.KONSOLE_VERSION !== undefined || env.DOMTERM !== undefined) return true;
  if (env.TERM === 'xterm-kitty' || env.TERM === 'alacritty' || env.TERM === 'xterm-ghostty') return true;
  if (env.VTE_VERSION !== undefined) {
    // 0.50.0 drew them but crashed on some; VTE_VERSION is written 5001 for 0.50.1.
    if (env.VTE_VERSION === '0.50.0') return false;
    const vte = /^\d{3,4}$/.test(env.VTE_VERSION) ? [Math.floor(Number(env.VTE_VERSION) / 100), Number(env.VTE_VERSION) % 100, 0] as [number, number, number] : version(env.VTE_VERSION);
    return atLeast(vte, [0, 50, 1]);
  }
  const program = version(env.TERM_PROGRAM_VERSION);
  switch (env.TERM_PROGRAM) {
    case 'iTerm.app':
      return atLeast(program, [3, 1, 0]);
    case 'WezTerm':
      return atLeast(program, [20200620, 0, 0]);
    case 'vscode':
      return atLeast(program, [1, 72, 0]);
    case 'ghostty':
      return true;
    default:
      return false;
  }
}

/** OSC 8: `text` shown, `url` opened. Both are printable already (no ESC or BEL can end it early). */
export function hyperlink(text: string, url: string): string {
  return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}
