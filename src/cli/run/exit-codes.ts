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
  ForbiddenError,
  InvalidParameterError,
  NotFoundError,
  RedirectError,
  ResponseTooLargeError,
} from '../../api/errors.js';
import { closest } from '../../shared/suggest.js';
import { ConfigFileError, MissingProfileError } from '../../config/resolve.js';
import { SettingError } from '../../config/settings.js';
import { OutputUsageError, ValueOutOfRangeError } from '../../output/errors.js';
import { OutputWriteError } from '../../output/write-error.js';
import { WeekError } from '../../shared/weeks.js';
import { IncompleteRunError, InterruptedError, KeyRejectedError, MissingKeyError, NotTheApiError, UsageError } from './errors.js';

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  unavailable: 5,
  /** The output could not be written: a full disk, an I/O error, a closed or unwritable target. */
  outputFailed: 6,
  /** sync or tap: some partitions failed after retries; the rest landed and are recorded. */
  incomplete: 7,
  hangup: 129,
  interrupted: 130,
  terminated: 143,
} as const;

/** For `newsstats help exit-codes`: the table users script against. */
export const EXIT_CODE_MEANINGS: ReadonlyArray<[number, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.unexpected, 'unexpected failure (a bug: please report it with the output of --verbose), or newsstats is being rebuilt (dist/ incomplete during npm install or npm run build: run it again)'],
  [EXIT.usage, 'usage error (bad flag, week, bound or setting, a malformed HTTPS_PROXY/HTTP_PROXY; checked before any request) or the server\'s 400'],
  [EXIT.auth, 'missing API key, or the server rejected it (401) or refused it this resource (403)'],
  [EXIT.notFound, 'not found (404): the person, country, source, post or path named'],
  [EXIT.unavailable, 'the service failed: server error (5xx), rate limit (429), network, proxy or TLS failure or timeout ' +
    '(after retries), a redirect (never followed), any other unexpected status, an answer that is too large, ' +
    'too deep or not the shape the contract promises, a value the output format cannot hold (an integer of more than 38 digits in Parquet), or a host that does not answer as the API (a 404 or a misshapen 200 from a base URL where /api/data/weeks/current is not the API\'s either)'],
  [EXIT.outputFailed, 'the output could not be written (disk full, I/O error, stdout closed with an error), or cannot be (its folder is missing or not writable, or stdout was closed with >&-: checked before any request); the old --output file is kept; sync: another sync holds the lake, or its object store (s3://) refused or stopped answering'],
  [EXIT.incomplete, 'sync or tap: some weeks failed after retries (service errors); every partition that landed is kept and recorded, and a rerun fetches only what is missing'],
  [EXIT.hangup, 'hung up (SIGHUP); temporary files removed'],
  [EXIT.interrupted, 'interrupted (Ctrl-C); temporary files removed'],
  [EXIT.terminated, 'terminated (SIGTERM); temporary files removed'],
];

const LOGIN_HINT = 'run `newsstats auth login`, or set NEWSSTATS_API_KEY';

/**
 * How to fix a configuration error with this CLI. The library says what is wrong in its own terms
 * (baseUrl, allowInsecureHttp); the flags, variables and profile keys that set them are named here.
 */
function configurationHints(error: ConfigurationError): string[] {
  if (error.setting === 'apiKey' && error.problem === 'missing') return [LOGIN_HINT];
  if (error.setting === 'baseUrl' && error.problem === 'missing') {
    return ['pass --base-url URL, set NEWSSTATS_BASE_URL, or run `newsstats config set base-url URL`; add --sandbox to try newsstats on synthetic data'];
  }
  return [];
}

/** bin/newsstats.cjs says the same when dist/cli/main.js itself is missing or cut off. */
const REBUILDING = 'error: newsstats is being rebuilt (its dist/ folder is incomplete, as during npm install or npm run build); run it again in a moment';

/** A file of our own build. */
const DIST_FILE = /[/\\]dist[/\\](?:chunks|cli|sandbox)[/\\]/;

/**
 * A module of our own build missing, or cut off mid-write: `git pull && npm install` rebuilding dist/
 * (#31). Only the missing file's name or the loader's place counts, not the stack's frames: every
 * error our code throws has dist/ in its stack, and a SyntaxError from reading a lake's file or an
 * ENOENT of a sync call was told "newsstats is being rebuilt".
 */
function isDistIncomplete(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, path } = error as NodeJS.ErrnoException;
  if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND' || code === 'ENOENT') return DIST_FILE.test(`${path ?? ''}\n${error.message}`);
  // A module that fails to compile (through Node's loader or bin/code-cache.cjs's vm.Script alike):
  // Node heads its stack with the file's place, `/…/dist/chunks/x.js:72`, above the message.
  return error instanceof SyntaxError && COMPILED_AT_DIST_FILE.test(error.stack ?? '');
}

/** The first line of a compile error's stack: a file of our build and a line number. */
const COMPILED_AT_DIST_FILE = /^(?:file:\/\/)?[^\n]*[/\\]dist[/\\](?:chunks|cli|sandbox)[/\\][^\n]*:\d+\n/;

/**
 * A value outside a flag's choices (`--format=JSON`, `--sort mention`): the choice it most likely
 * meant, the same in another case first, else a close one (#31).
 */
function choiceSuggestion(message: string): string {
  const refused = /^(?:error: )?option '(?:-\w, )?(--[\w-]+)[^']*' argument '([^']*)' is invalid\. Allowed choices are (.*)\.$/.exec(message);
  if (!refused) return '';
  const [, flag, value, list] = refused as unknown as [string, string, string, string];
  const choices = list.split(', ');
  const meant = choices.find((choice) => choice.toLowerCase() === value.toLowerCase()) ?? closest(value, choices, 1)[0];
  return meant === undefined ? '' : `; did you mean ${flag} ${meant}?`;
}

export interface Failure {
  exitCode: number;
  /** Lines for stderr; empty when the message was already printed (commander's own errors). */
  lines: string[];
}

export function describeFailure(error: unknown, verbose: boolean): Failure {
  if (error instanceof CommanderError) {
    // Help and --version exit 0, printed already. A refusal is one line: commander puts its
    // "(Did you mean x?)" on a second one.
    if (error.exitCode === 0) return { exitCode: EXIT.ok, lines: [] };
    const line = error.message.replace(/\n\(Did you mean (.*)\?\)$/, '; did you mean $1?').replace(/\n/g, ' ');
    const suggestion = choiceSuggestion(error.message);
    return { exitCode: EXIT.usage, lines: [suggestion === '' ? line : line.replace(/\.$/, '') + suggestion] };
  }
  // Ctrl-C at the key prompt: the prompt said so already.
  if (error instanceof InterruptedError) return { exitCode: EXIT.interrupted, lines: [] };

  const message = error instanceof Error ? error.message : String(error);
  const failure = (exitCode: number, ...hints: string[]): Failure => ({
    exitCode,
    lines: [`error: ${message}`, ...hints.map((hint) => `hint: ${hint}`)],
  });

  if (error instanceof UsageError || error instanceof SettingError) return failure(EXIT.usage, ...(error.hint ? [error.hint] : []));
  if (error instanceof ConfigurationError) {
    // A missing key is an authentication problem like a rejected one; the rest are usage errors.
    const exitCode = error.setting === 'apiKey' && error.problem === 'missing' ? EXIT.auth : EXIT.usage;
    if (error.problem === 'insecure') {
      // The library names its option; a CLI user sets the profile key. One line says both ways out.
      const line = message.replace(/,? or set allowInsecureHttp$/, '') + ', or run `newsstats config set allow-insecure-http true` to accept the risk';
      return { exitCode, lines: [`error: ${line}`] };
    }
    return failure(exitCode, ...configurationHints(error));
  }
  if (error instanceof MissingProfileError) return failure(EXIT.usage, ...(error.hint ? [error.hint] : []));
  if (
    error instanceof WeekError ||
    error instanceof OutputUsageError ||
    error instanceof InvalidParameterError ||
    error instanceof ConfigFileError ||
    error instanceof BadRequestError
  ) {
    return failure(EXIT.usage);
  }
  if (error instanceof KeyRejectedError) return failure(EXIT.auth, error.hint);
  if (error instanceof MissingKeyError || error instanceof AuthenticationError) return failure(EXIT.auth, LOGIN_HINT);
  if (error instanceof ForbiddenError) return failure(EXIT.auth);
  if (error instanceof NotTheApiError) {
    return failure(EXIT.unavailable, 'check --base-url, NEWSSTATS_BASE_URL or the profile key base-url: it is the service\'s address, e.g. https://stats.example.com');
  }
  if (error instanceof NotFoundError) return failure(EXIT.notFound);
  // Everything else the service or the network did (5xx, 429, a redirect, a status the contract does not
  // list, a body too large or of the wrong shape): exit 1 is kept for our own bugs.
  if (error instanceof RedirectError && error.location !== undefined) {
    return failure(EXIT.unavailable, 'set --base-url (or the profile key base-url) to the final address');
  }
  if (error instanceof ResponseTooLargeError && error.limitBytes !== undefined) {
    return failure(EXIT.unavailable, 'raise the limit with --max-response-mb or the profile key max-response-mb');
  }
  if (error instanceof ConnectionError && error.code === 'ECONNREFUSED') {
    // Nothing listens there: the service is down, or the address is not its (#31).
    return failure(EXIT.unavailable, 'is the service running there? check --base-url, NEWSSTATS_BASE_URL or the profile key base-url; `newsstats sandbox` serves synthetic data, and --sandbox runs against it in-process');
  }
  if (error instanceof ConnectionError || error instanceof ApiError || error instanceof ValueOutOfRangeError) return failure(EXIT.unavailable);
  if (error instanceof OutputWriteError) return failure(EXIT.outputFailed);
  if (error instanceof IncompleteRunError) return failure(EXIT.incomplete);
  if (isDistIncomplete(error)) return { exitCode: EXIT.unexpected, lines: [REBUILDING] };
  const stack = verbose && error instanceof Error && error.stack ? [error.stack] : [];
  return { exitCode: EXIT.unexpected, lines: [`error: ${message}`, ...stack] };
}
