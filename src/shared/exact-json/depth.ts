/**
 * How deep arrays and objects nest in JSON text, asked before a recursive parser (slicing.ts, or a walk
 * over JSON.parse's result) sees text that could nest a million deep and overflow the stack.
 * Neutral: the limit is the caller's (the request core's MAX_JSON_DEPTH).
 */

/** Arrays and objects nest deeper than a parse's `maxDepth`. */
export class NestingDepthError extends Error {
  override name = 'NestingDepthError';
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
  }
}

/**
 * Everything of JSON text but its brackets: whole strings (one left open runs to the end, so no
 * quote is tried twice) and runs of anything else. What remains is the nesting alone.
 */
const NOT_A_BRACKET = /"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?$)|[^[\]{}"]+/g;

/** An array or object with nothing left in it, once everything but brackets is gone. */
const EMPTY_PAIR = /\[\]|\{\}/g;

/**
 * Whether arrays and objects in JSON text nest deeper than `limit` (strings skipped). The regular
 * expressions work in native code: the first leaves the brackets alone, and each pass of the second
 * takes out the innermost pairs, one level of nesting, so a balanced text takes as many passes as it
 * nests deep (3 for the contract's answers). A loop over the brackets, as before, ran a few thousand
 * times an answer: V8 then optimised it in the background (a further 5 MiB of memory for the
 * optimising compiler's code, in about half of the runs of a query). Unbalanced text (no JSON, which
 * JSON.parse refuses, but the slicing parser would recurse into) is counted bracket by bracket, unless
 * its pairs alone already nest deeper than `limit`.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  const brackets = text.replace(NOT_A_BRACKET, '');
  let left = brackets;
  for (let depth = 1; left.length > 0; depth++) {
    const inner = left.replace(EMPTY_PAIR, '');
    if (inner.length === left.length) return unbalancedDepthExceeds(brackets, limit);
    if (depth > limit) return true;
    left = inner;
  }
  return false;
}

/** Whether brackets that do not all pair up open deeper than `limit`, counted one by one. */
function unbalancedDepthExceeds(brackets: string, limit: number): boolean {
  let depth = 0;
  for (let index = 0; index < brackets.length; index++) {
    const code = brackets.charCodeAt(index);
    if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true;
    } else depth--;
  }
  return false;
}
