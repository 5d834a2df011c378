/**
 * Decides, before any request, what a run will write and where: the format, the fields, and whether a
 * terminal is there to see it. Pure but for a look at the --output path, so each rule is a short unit test.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  BINARY_FORMATS, formatFromPath, isOutputFormat, isSpecialTarget, outputExtensions, selectFields, type OutputFormat, type RenderOptions, type ViewSpec,
} from '../../output/index.js';
import type { GlobalOptions } from '../flags/global.js';
import type { Io } from './io.js';
import { OutputWriteError } from '../../output/write-error.js';
import { ClosedStdout, closedStdoutError } from './closed-stdout.js';
import { UsageError } from './errors.js';
import { pseudoFileSystemOf } from '../../shared/system-error.js';

export interface OutputPlan {
  render: RenderOptions;
  /** Where the output goes: a file written atomically, or stdout when absent. */
  outputPath?: string;
}

export function chooseFormat(
  globals: Pick<GlobalOptions, 'format' | 'output'>,
  io: { isTTY: Pick<Io['isTTY'], 'stdout'>; cwd?: string },
  prefersJson = false,
): OutputFormat {
  if (globals.format) return globals.format;
  // A special file takes what a pipe would: json, unless --format says otherwise.
  if (globals.output && isSpecialTarget(globals.output, io.cwd)) return 'json';
  if (globals.output) {
    refuseAddress(globals.output, '--output');
    const format = formatFromPath(globals.output);
    // `-o json` meant the format (kubectl's -o): point at --format rather than write a file named json.
    if (!format && isOutputFormat(globals.output)) {
      throw new UsageError(`--output ${globals.output} names a file; did you mean --format ${globals.output}?`, `-o is the output file, -f the format: --format ${globals.output}, or --output FILE.${globals.output}`);
    }
    if (!format) {
      throw new UsageError(
        `--output ${globals.output}: the extension names no format (known: ${outputExtensions().join(', ')})`,
        'use one of those extensions, or say the format with --format, e.g. --format csv',
      );
    }
    return format;
  }
  if (prefersJson) return 'json';
  return io.isTTY.stdout ? 'table' : 'json';
}

/**
 * An address is no local file: `-o s3://b/x.csv` was the file x.csv in a folder `s3:/b` under the
 * current one, and where that folder existed, written there.
 */
function refuseAddress(path: string, flag: string): void {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//.exec(path)?.[1];
  if (scheme === undefined) return;
  throw new UsageError(
    `cannot write ${flag} ${path}: ${flag} writes a local file, and ${scheme}:// names none`,
    scheme.toLowerCase() === 's3' && flag === '--output'
      ? `to put it in object storage, write to stdout and pipe it: leave out -o, add -f ${formatFromPath(path) ?? 'FORMAT'}, then | aws s3 cp - ${path} (a lake of many weeks: newsstats sync s3://bucket/prefix)`
      : `give a local file, e.g. ${flag} ${flag === '--output' ? 'top.csv' : 'summary.json'}`,
  );
}

/**
 * Refuses an --output path (or another file a run writes at its end, `flag` naming it) that cannot be
 * written before any request is made: a run that would fetch everything and then fail to save it
 * wastes the user's time and quota.
 */
export function checkOutputPath(path: string, cwd = '.', flag = '--output'): void {
  refuseAddress(path, flag);
  // resolve() drops a trailing slash: `-o out/` would otherwise write a file named `out`.
  if (/[/\\]$/.test(path)) {
    throw new UsageError(`cannot write ${flag} ${path}: it names a folder (it ends with /)`, `give a file name, e.g. ${flag} out/${flag === '--output' ? 'top.csv' : 'summary.json'}`);
  }
  const target = resolve(cwd, path);
  const directory = dirname(target);
  const directoryStat = statSync(directory, { throwIfNoEntry: false });
  // A place the system cannot write is exit 6, as when the write itself fails: the code scripts check
  // for "the output was not written". A folder named as the file (above, below) is a usage error.
  if (!directoryStat) throw unwritable(path, 'ENOENT', `the directory ${directory} does not exist`);
  if (!directoryStat.isDirectory()) throw unwritable(path, 'ENOTDIR', `${directory} is not a directory`);
  if (statSync(target, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`cannot write ${flag} ${path}: it is a directory`, `give a file name, e.g. ${flag} ${flag === '--output' ? 'top.csv' : 'summary.json'}`);
  }
  if (isSpecialTarget(target)) {
    // Written into, not replaced: only the special file itself must be writable, not /dev.
    try {
      accessSync(target, constants.W_OK);
    } catch {
      throw unwritable(path, 'EACCES', 'it is not writable');
    }
    return;
  }
  try {
    accessSync(directory, constants.W_OK);
  } catch {
    throw unwritable(path, 'EACCES', `the directory ${directory} is not writable`);
  }
  // root may write anywhere, yet /proc and /sys take no new file: the write would fail with ENOENT,
  // which reads as a missing folder. The folder exists; say what it is.
  const kind = pseudoFileSystemOf(directory);
  if (kind !== undefined) throw unwritable(path, 'ENOENT', `the directory ${directory} exists but cannot hold a file: it is ${kind}, not a regular file system`);
}

/** What the write would have failed with, found before any request. */
function unwritable(path: string, code: string, detail: string): OutputWriteError {
  return new OutputWriteError(path, Object.assign(new Error(code), { code }), detail);
}

/** --jq filters JSON: it takes json, whatever the terminal or the --output extension would choose. */
function refuseJqFormat(globals: Pick<GlobalOptions, 'format' | 'jq'>): void {
  if (globals.jq === undefined || globals.format === undefined || globals.format === 'json') return;
  throw new UsageError(`--jq filters JSON output, not --format ${globals.format}`, 'drop --format, or drop --jq');
}

/**
 * --fields, checked once a run: here, before any request, against the fields the verb's view declares,
 * so a typo costs no quota. A view that declares none (the raw api command, whose rows may carry any
 * field) is checked by the output entry against the keys its rows have, the only place they are known.
 */
export function checkFields(requested: readonly string[] | undefined, view: Pick<ViewSpec, 'fields'> | undefined): readonly string[] | undefined {
  const declared = view?.fields ?? [];
  return requested !== undefined && declared.length > 0 ? selectFields(requested, declared) : requested;
}

/** `verbSpec`: the view and JSON preference of the verb run (spec.ts, AnyVerbSpec). */
export function planOutput(verbSpec: { view?: ViewSpec | undefined; prefersJson?: boolean | undefined }, globals: GlobalOptions, io: Io): OutputPlan {
  refuseJqFormat(globals);
  const format = globals.jq === undefined ? chooseFormat(globals, io, verbSpec.prefersJson) : 'json';
  const toTerminal = io.isTTY.stdout && !globals.output;

  if (format === 'chart') {
    if (!verbSpec.view?.chart) {
      throw new UsageError('--format chart is for ranked lists and trends', 'use --format table or --format csv');
    }
    if (!toTerminal) {
      throw new UsageError('--format chart draws on a terminal only', 'use --format table or --format csv for files and pipes');
    }
  }

  if (BINARY_FORMATS.includes(format) && toTerminal) {
    throw new UsageError(`${format} is a binary file format and stdout is a terminal`, `add --output FILE.${format}, or redirect stdout to a file`);
  }
  if (globals.bom && format !== 'csv') {
    throw new UsageError(`--bom is for csv output, not ${format}`, 'add --format csv (xlsx needs no byte-order mark)');
  }

  if (globals.output) checkOutputPath(globals.output, io.cwd);
  // Data for a closed stdout (`>&-`) would be fetched to be lost: refused before any request.
  else if (io.stdout instanceof ClosedStdout) throw new OutputWriteError('stdout', closedStdoutError());

  const fields = checkFields(globals.fields, verbSpec.view);

  return {
    outputPath: globals.output === undefined ? undefined : resolve(io.cwd, globals.output),
    render: {
      format,
      fields,
      header: globals.header,
      color: io.color && !globals.output,
      ...(io.colorDepth > 0 && { colorDepth: io.colorDepth as 4 | 8 | 24 }),
      isTTY: toTerminal,
      width: io.width,
      unicode: io.unicode,
      hyperlinks: io.hyperlinks && toTerminal,
      bom: globals.bom === true,
      ...(globals.jq !== undefined && { jq: globals.jq }),
    },
  };
}
