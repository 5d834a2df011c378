/**
 * --jq EXPR: jq's own language run inside newsstats over the exact JSON text it would print, so ids
 * above 2^53 keep every digit (an external jq 1.6 rounds 1912702735409063525 to 1912702735409063400).
 *
 * The filter is jq 1.7 itself, compiled to WebAssembly with decNumber (the jq-web package): a number
 * passes through with its literal digits unless arithmetic touches it. Nothing is fetched: the .wasm
 * file ships in the package. Loading it costs about 0.1 s, so this module and jq-web are imported
 * only by runs given --jq.
 *
 * Results print as gh prints them: a string raw (no quotes), anything else as compact JSON, one
 * result a line.
 */
import { JqExpressionError } from './errors.js';
import { withoutControls } from '../shared/printable.js';

interface JqWeb {
  raw(json: string, filter: string, flags?: string[]): string | undefined;
}

let loaded: Promise<JqWeb> | undefined;

/**
 * jq-web, loaded once: its module is a promise of jq, ready once jq.wasm (read beside it in
 * node_modules, so the build leaves jq-web outside dist/) is compiled.
 */
function loadJq(): Promise<JqWeb> {
  // require(), not import(): the CLI's chunks are CommonJS, where import() of a module whose exports
  // are a promise yields an object inheriting Promise's then(), which awaiting breaks. (Vitest, which
  // runs src/, provides require too.)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= Promise.resolve().then(() => require('jq-web') as Promise<JqWeb>);
  return loaded;
}

/** An error jq reported: the message, and where in the expression when jq said so. */
interface JqFailure {
  message: string;
  line?: number;
  column?: number;
}

// jq 1.7 writes "jq: error: MESSAGE at <top-level>, line N:\nTEXT OF LINE N" followed by as many
// spaces as the column the error starts at (its caret line lost its carets).
const COMPILE_ERROR = /^jq: error: (.*) at <top-level>, line (\d+):\n(.*)$/m;
const RUNTIME_ERROR = /^jq: error \(at [^)]*\): (.*)$/m;

/** The first error in jq's stderr, its position read against the expression's own lines. */
export function readJqError(stderr: string, expressionLines: readonly string[], lineOffset = 0): JqFailure {
  const compile = COMPILE_ERROR.exec(stderr);
  if (compile) {
    const line = Number(compile[2]) - lineOffset;
    const source = expressionLines[line - 1];
    const shown = compile[3]!;
    if (source === undefined || !shown.startsWith(source)) return { message: compile[1]! };
    return { message: compile[1]!, line, column: shown.length - source.length + 1 };
  }
  const runtime = RUNTIME_ERROR.exec(stderr);
  if (runtime) return { message: runtime[1]! };
  const first = stderr.split('\n').find((text) => text.trim() !== '') ?? 'jq failed';
  return { message: first.replace(/^jq: (error: )?/, '') };
}

/** The usage error for a failed --jq: one line, the position named, jq's words kept. */
function jqUsageError(failure: JqFailure, expressionLines: readonly string[]): JqExpressionError {
  const where =
    failure.column === undefined ? '' : expressionLines.length > 1 ? ` at line ${failure.line}, column ${failure.column}` : ` at column ${failure.column}`;
  return new JqExpressionError(`--jq${where}: ${withoutControls(failure.message.replace(/\s*\(Unix shell quoting issues\?\)/, ''))}`);
}

interface JqRunError extends Error {
  exitCode?: number;
  stderr?: string;
}

function runJq(jq: JqWeb, json: string, program: string): string {
  try {
    return jq.raw(json, program, ['-c']) ?? '';
  } catch (error) {
    const failed = error as JqRunError;
    throw Object.assign(new Error('jq failed'), { stderr: failed.stderr ?? failed.message });
  }
}

/**
 * Refuses an expression jq cannot compile, before any request: the expression is compiled inside
 * `if false then ... end`, so it never runs, and jq's line numbers are one more than the user's.
 */
export async function checkJqExpression(expression: string): Promise<void> {
  const jq = await loadJq();
  const lines = expression.split('\n');
  try {
    runJq(jq, 'null', `if false then (\n${expression}\n) else empty end`);
  } catch (error) {
    throw jqUsageError(readJqError((error as JqRunError).stderr ?? '', lines, 1), lines);
  }
}

/**
 * The results of `expression` over `json` (the exact text newsstats would print), as text to print:
 * strings raw, other values as compact JSON with their digits as written, a line each. On a
 * terminal, control characters in strings become U+FFFD, as in tables.
 */
export async function applyJq(json: string, expression: string, options: { isTTY: boolean }): Promise<string> {
  const jq = await loadJq();
  const lines = expression.split('\n');
  let output: string;
  try {
    output = runJq(jq, json, expression);
  } catch (error) {
    throw jqUsageError(readJqError((error as JqRunError).stderr ?? '', lines), lines);
  }
  if (output === '') return '';
  let text = '';
  // -c prints one value a line, and a string's own line breaks are escaped in it.
  for (const result of output.replace(/\n$/, '').split('\n')) {
    const printed = result.startsWith('"') ? (JSON.parse(result) as string) : result;
    text += (options.isTTY ? withoutControls(printed) : printed) + '\n';
  }
  return text;
}
