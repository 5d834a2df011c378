/** Quoting for the generated scripts: every word and description is data, never shell code. */

/** A POSIX single-quoted string (bash and zsh): ' becomes '\''. */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A bash/zsh case pattern matching `path/name` for each spelling of an option (`*` for any command
 * path): how both scripts find the option whose value is being completed.
 */
export function casePatterns(path: string, names: readonly string[]): string {
  return names.map((name) => (path === '*' ? `*${posixQuote(`/${name}`)}` : posixQuote(`${path}/${name}`))).join('|');
}

/** A fish single-quoted string: only \ and ' are special inside. */
export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Shell function names allow letters, digits and _: "newsstats" stays, "news-stats" becomes news_stats. */
export function functionName(program: string): string {
  return program.replace(/[^A-Za-z0-9_]/g, '_');
}
