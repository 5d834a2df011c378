/**
 * The one place errors become exit codes and the one line a user reads on stderr.
 * Loaded only when a run fails.
 */
import { CommanderError } from 'commander';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  ResponseFormatError,
  ServerError,
} from '../api/errors.js';
import { ConfigFileError } from '../config/resolve.js';
import { OutputUsageError } from '../output/index.js';
import { WeekError } from '../weeks.js';
import { MissingKeyError, UsageError } from './errors.js';

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
  interrupted: 130,
} as const;

/** For `newsstats help exit-codes`: the table users script against. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<[number, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.unexpected, 'unexpected failure (a bug: please report it with the output of --verbose)'],
  [EXIT.usage, 'usage error (bad flag, week, bound or setting; checked before any request) or the server\'s 400'],
  [EXIT.auth, 'missing API key, or the server rejected it (401)'],
  [EXIT.notFound, 'not found (404): the person, country, source, post or path named'],
  [EXIT.unavailable, 'server error (5xx), rate limit (429) or network failure, after retries'],
  [EXIT.interrupted, 'interrupted (Ctrl-C)'],
];

const LOGIN_HINT = 'run `newsstats auth login`, or set NEWSSTATS_API_KEY';

export interface Failure {
  exitCode: number;
  /** Lines for stderr; empty when the message was already printed (commander's own errors). */
  lines: string[];
}

export function describeFailure(error: unknown, verbose: boolean): Failure {
  if (error instanceof CommanderError) {
    // Commander has printed its message already; help and --version exit 0.
    return { exitCode: error.exitCode === 0 ? EXIT.ok : EXIT.usage, lines: [] };
  }

  const message = error instanceof Error ? error.message : String(error);
  const failure = (exitCode: number, ...hints: string[]): Failure => ({
    exitCode,
    lines: [`error: ${message}`, ...hints.map((hint) => `hint: ${hint}`)],
  });

  if (error instanceof UsageError) return failure(EXIT.usage, ...(error.hint ? [error.hint] : []));
  // The library names what is wrong; how to fix it with this CLI is said here.
  if (error instanceof ConfigurationError && error.setting === 'apiKey' && error.problem === 'missing') return failure(EXIT.auth, LOGIN_HINT);
  if (
    error instanceof WeekError ||
    error instanceof OutputUsageError ||
    error instanceof InvalidParameterError ||
    error instanceof ConfigurationError ||
    error instanceof ConfigFileError ||
    error instanceof BadRequestError
  ) {
    return failure(EXIT.usage);
  }
  if (error instanceof MissingKeyError || error instanceof AuthenticationError) return failure(EXIT.auth, LOGIN_HINT);
  if (error instanceof NotFoundError) return failure(EXIT.notFound);
  if (
    error instanceof ServerError ||
    error instanceof RateLimitError ||
    error instanceof ResponseFormatError ||
    error instanceof ConnectionError
  ) {
    return failure(EXIT.unavailable);
  }
  if (error instanceof ApiError) {
    // Any other status the contract does not list: the service answered, but not usefully.
    return failure(error.status >= 500 ? EXIT.unavailable : EXIT.unexpected);
  }
  const stack = verbose && error instanceof Error && error.stack ? [error.stack] : [];
  return { exitCode: EXIT.unexpected, lines: [`error: ${message}`, ...stack] };
}
