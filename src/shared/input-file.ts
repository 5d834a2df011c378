/**
 * The one reader of files a user hands us (config.json, a tap's --config, --state and --catalog, a
 * sync state): whatever was planted at the name, it never blocks and never reads without bound.
 *
 * - The open is O_NONBLOCK: a FIFO would otherwise wait for a writer, deaf to Ctrl-C, and is refused.
 * - Anything but a regular file (a FIFO, /dev/zero, /dev/urandom, a folder, a socket) is refused.
 * - At most `maxBytes` are read, checked before and during the read (the file may grow after fstat).
 * - A UTF-8 byte-order mark (some Windows editors write one) is not part of the text.
 *
 * Failures are an InputFileError whose `problem` says which it was, so each caller words its own
 * line (the config store names XDG_CONFIG_HOME; the tap names its flag).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { systemErrorReason } from './system-error.js';

export type InputFileProblem =
  | { kind: 'missing' }
  | { kind: 'unreadable'; cause: unknown }
  | { kind: 'not-regular'; what: string }
  | { kind: 'too-large'; maxBytes: number }
  | { kind: 'not-utf8' };

export class InputFileError extends Error {
  override name = 'InputFileError';
  constructor(
    message: string,
    readonly path: string,
    readonly problem: InputFileProblem,
  ) {
    super(message);
  }
}

/** What a file that is not a regular one is, in words. */
export function fileKind(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** A size in words: `1 MiB`, `64 KiB`. */
export function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

export interface ReadInputOptions {
  /** The most the file may hold. */
  maxBytes: number;
  /** How the file is named in the error line: `--state state.json`, `the config file PATH`. */
  label: string;
  /** Refuse text that is not valid UTF-8 (default: bad bytes become U+FFFD, as config.json has it). */
  strictUtf8?: boolean;
}

function problemMessage(label: string, problem: InputFileProblem): string {
  switch (problem.kind) {
    case 'missing':
      return `cannot read ${label}: no such file`;
    case 'unreadable':
      return `cannot read ${label}: ${systemErrorReason(problem.cause)}`;
    case 'not-regular':
      return `${label} is ${problem.what}; it must be a regular file`;
    case 'too-large':
      return `${label} is larger than ${sizeText(problem.maxBytes)}, which none of its kind is`;
    case 'not-utf8':
      return `${label} is not UTF-8 text`;
  }
}

/** The file's text; an InputFileError (with a one-line message naming `label`) when it can't be had. */
export function readInputFile(path: string, options: ReadInputOptions): string {
  const fail = (problem: InputFileProblem): InputFileError => new InputFileError(problemMessage(options.label, problem), path, problem);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    // ENOTDIR: a file where a folder of the path should be: no file can be there either.
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing' } : { kind: 'unreadable', cause: error });
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw fail({ kind: 'not-regular', what: fileKind(stats) });
    if (stats.size > options.maxBytes) throw fail({ kind: 'too-large', maxBytes: options.maxBytes });
    let buffer = Buffer.alloc(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    for (let read; (read = readSync(fd, buffer, length, buffer.length - length, null)) > 0;) {
      length += read;
      if (length > options.maxBytes) throw fail({ kind: 'too-large', maxBytes: options.maxBytes });
      // The file grew after fstat (it is being written): keep reading, up to the bound.
      if (length === buffer.length) buffer = Buffer.concat([buffer], Math.min(buffer.length * 2, options.maxBytes + 1));
    }
    return finish(buffer.subarray(0, length), options, fail);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw fail({ kind: 'unreadable', cause: error });
  } finally {
    closeSync(fd);
  }
}

function finish(bytes: Buffer, options: ReadInputOptions, fail: (problem: InputFileProblem) => InputFileError): string {
  let text: string;
  if (options.strictUtf8) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw fail({ kind: 'not-utf8' });
    }
  } else text = bytes.toString('utf8');
  return text.replace(/^\uFEFF/, '');
}
