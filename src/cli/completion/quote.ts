/** Quoting for the generated scripts: every word and description is data, never shell code. */

/** A POSIX single-quoted string (bash and zsh): ' becomes '\''. */
export function posixQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fish single-quoted string: only \ and ' are special inside. */
export function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Shell function names allow letters, digits and _: "newsstats" stays, "news-stats" becomes news_stats. */
export function functionName(program: string): string {
  return program.replace(/[^A-Za-z0-9_]/g, '_');
}
