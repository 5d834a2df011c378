/**
 * Hints keep the context they were given (#31 item 6): a command a message suggests runs where and as
 * whom the failed one did. `newsstats --profile prod weeks` failing for want of a key suggests
 * `newsstats --profile prod auth login`, not a login to the default profile; a refused
 * `config set base-url ... --profile lan` suggests loosening `lan`, never another profile.
 *
 * One place, applied to every failure line: the flags that choose where and as whom (--profile,
 * --base-url, --sandbox), as the user gave them, are added to each suggested command that lacks them.
 */
import { commandLine } from './slips.js';

/** The flags that choose the profile, the service or the sandbox. */
const CONTEXT_FLAGS = ['--profile', '--base-url', '--sandbox'] as const;
const TAKES_VALUE = new Set(['--profile', '--base-url']);

/** The context flags among the words of a command line, each with its value, in the order given. */
export function contextArgs(args: readonly string[]): string[][] {
  const found: string[][] = [];
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at]!;
    if (arg === '--') break;
    const name = arg.split('=')[0]!;
    if (!(CONTEXT_FLAGS as readonly string[]).includes(name)) continue;
    if (arg.includes('=')) found.push([name, arg.slice(name.length + 1)]);
    else if (TAKES_VALUE.has(name) && args[at + 1] !== undefined) found.push([name, args[(at += 1)]!]);
    else if (!TAKES_VALUE.has(name)) found.push([name]);
  }
  return found;
}

/**
 * A suggested command: `newsstats ...` in backticks, or after "did you mean". Its words run to the
 * closing backtick, or to the question mark that ends the suggestion.
 */
const SUGGESTED = /(`newsstats )([^`]*)(`)|(did you mean newsstats )([^?]*)(\?)/g;

export function withContext(line: string, args: readonly string[]): string {
  const context = contextArgs(args);
  if (context.length === 0) return line;
  return line.replace(SUGGESTED, (...groups: string[]) => {
    const [opening, command, closing] = groups[1] !== undefined ? [groups[1], groups[2]!, groups[3]!] : [groups[4]!, groups[5]!, groups[6]!];
    // `config` acts on a profile and never on a service: only --profile matters to it. `sandbox`
    // serves its own data: none does.
    const relevant = /^sandbox\b/.test(command) ? [] : /^config\b/.test(command) ? context.filter(([name]) => name === '--profile') : context;
    const missing = relevant.filter(([name]) => !command.split(/\s+/).some((word) => word === name || word.startsWith(`${name}=`)));
    if (missing.length === 0) return `${opening}${command}${closing}`;
    // commandLine quotes what a shell would split; its leading `newsstats` is the opening's already.
    const flags = commandLine(missing.flat()).slice('newsstats '.length);
    return `${opening}${flags} ${command}${closing}`;
  });
}
