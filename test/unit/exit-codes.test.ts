/**
 * The one map from failures to exit codes and stderr lines (describeFailure), as a table: every kind
 * of error the CLI or the library raises, with the code and the first line a user reads.
 */
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  ForbiddenError,
  InvalidParameterError,
  NotFoundError,
  RateLimitError,
  RedirectError,
  ResponseFormatError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
  TimeoutError,
} from '../../src/api/errors.js';
import { ConfigFileError } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/settings.js';
import { describeFailure, EXIT_CODE_MEANINGS } from '../../src/cli/run/exit-codes.js';
import { InterruptedError, KeyRejectedError, MissingKeyError, UsageError } from '../../src/cli/run/errors.js';
import { FieldError, OutputUsageError } from '../../src/output/errors.js';
import { OutputWriteError } from '../../src/output/write-error.js';
import { WeekError } from '../../src/shared/weeks.js';

const request = { method: 'GET', url: '/api/data/people/top' };
const LOGIN_HINT = 'hint: run `newsstats auth login`, or set NEWSSTATS_API_KEY';

const TABLE: Array<[string, unknown, number, string[]]> = [
  ['usage error with its hint', new UsageError('bad flag', 'try this'), 2, ['error: bad flag', 'hint: try this']],
  ['usage error alone', new UsageError('bad flag'), 2, ['error: bad flag']],
  ['week error', new WeekError('bad week'), 2, ['error: bad week']],
  ['output usage error', new OutputUsageError('no chart here'), 2, ['error: no chart here']],
  ['unknown field', new FieldError('unknown field "x"', ['x'], ['a']), 2, ['error: unknown field "x"']],
  ['invalid parameter', new InvalidParameterError('limit', 'limit must be 1-1000'), 2, ['error: limit must be 1-1000']],
  // #18: the line named the library's allowInsecureHttp; a CLI user sets the profile key allow-insecure-http.
  ['a plain-http base URL: one line, the profile key instead of the library\'s option', new ConfigurationError('baseUrl', 'insecure', 'refusing to send the API key over plain http to x.example: use an https:// base URL, or set allowInsecureHttp'), 2,
    ['error: refusing to send the API key over plain http to x.example: use an https:// base URL, or run `newsstats config set allow-insecure-http true` to accept the risk']],
  ['no base URL: the library\'s message, the CLI\'s ways to set one', new ConfigurationError('baseUrl', 'missing', 'no base URL is set'), 2,
    ['error: no base URL is set', 'hint: pass --base-url URL, set NEWSSTATS_BASE_URL, or run `newsstats config set base-url URL`; add --sandbox to try newsstats on synthetic data']],
  ['a base URL that is not one: the message says it all', new ConfigurationError('baseUrl', 'invalid', 'base URL "x" is not a URL'), 2, ['error: base URL "x" is not a URL']],
  ['an unusable key', new ConfigurationError('apiKey', 'invalid', 'the API key contains spaces'), 2, ['error: the API key contains spaces']],
  ['a client made without a key', new ConfigurationError('apiKey', 'missing', 'no API key is set'), 3, ['error: no API key is set', LOGIN_HINT]],
  ['config file error', new ConfigFileError('config unreadable'), 2, ['error: config unreadable']],
  ['a setting refused, with its hint', new SettingError('retries takes an integer from 0 to 20', 'see help config'), 2, ['error: retries takes an integer from 0 to 20', 'hint: see help config']],
  ['the server\'s 400', new BadRequestError({ ...request, status: 400 }), 2, []],
  ['missing key', new MissingKeyError('no API key'), 3, ['error: no API key', LOGIN_HINT]],
  ['401', new AuthenticationError({ ...request, status: 401 }), 3, []],
  ['404', new NotFoundError({ ...request, status: 404 }), 4, []],
  ['5xx', new ServerError({ ...request, status: 503 }), 5, []],
  ['429', new RateLimitError({ ...request, status: 429 }), 5, []],
  ['unreadable answer', new ResponseFormatError({ ...request, status: 200 }, 'not JSON'), 5, []],
  ['connection refused', new ConnectionError({ ...request, host: '127.0.0.1:1', code: 'ECONNREFUSED' }), 5, []],
  ['timeout', new TimeoutError({ ...request, host: '127.0.0.1:1', timeoutMs: 10 }), 5, []],
  ['another 5xx status', new ApiError({ ...request, status: 599 }), 5, []],
  ['a status the contract does not list: the service\'s doing, not a bug', new ApiError({ ...request, status: 418 }), 5, []],
  ['a rejected key where "auth login" would mislead', new KeyRejectedError('the key was rejected', 'check the key'), 3, ['error: the key was rejected', 'hint: check the key']],
  ['403', new ForbiddenError({ ...request, status: 403 }), 3, []],
  ['a redirect, never followed', new RedirectError({ ...request, status: 301, location: 'https://api2.example.com/api/data/people/top' }), 5,
    ['error: the service redirected to https://api2.example.com/api/data/people/top (HTTP 301) and redirects are not followed; use the final address as the base URL',
      'hint: set --base-url (or the profile key base-url) to the final address']],
  ['a 200 of the wrong shape', new ResponseShapeError({ ...request, status: 200 }, 'expected an array, got an object'), 5, []],
  ['a body over the limit', new ResponseTooLargeError({ ...request, status: 200 }, 'is larger than the limit of 16 MiB', 16 << 20), 5,
    ['error: the response to GET /api/data/people/top is larger than the limit of 16 MiB', 'hint: raise the limit with --max-response-mb or the profile key max-response-mb']],
  ['a full disk', new OutputWriteError('out.csv', Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' })), 6, ['error: cannot write to out.csv: no space left on the device (ENOSPC)']],
  ['a bug', new TypeError('x is undefined'), 1, ['error: x is undefined']],
  ['a thrown string', 'odd', 1, ['error: odd']],
];

describe('describeFailure', () => {
  it.each(TABLE)('%s', (_name, error, exitCode, lines) => {
    const failure = describeFailure(error, false);
    expect(failure.exitCode).toBe(exitCode);
    if (lines.length > 0) expect(failure.lines).toEqual(lines);
    else expect(failure.lines[0]).toBe(`error: ${(error as Error).message}`);
    if (error instanceof MissingKeyError || error instanceof AuthenticationError) expect(failure.lines.at(-1)).toBe(LOGIN_HINT);
  });

  it('Ctrl-C at the key prompt exits 130 and prints nothing more (the prompt said so)', () => {
    expect(describeFailure(new InterruptedError(), false)).toEqual({ exitCode: 130, lines: [] });
  });

  it('commander\'s help exits 0, printed already; its refusal is exit 2 in one line, its suggestion included', () => {
    expect(describeFailure(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), false)).toEqual({ exitCode: 0, lines: [] });
    expect(describeFailure(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), false)).toEqual({ exitCode: 2, lines: ["error: unknown option '--x'"] });
    expect(describeFailure(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--limt'\n(Did you mean --limit?)"), false))
      .toEqual({ exitCode: 2, lines: ["error: unknown option '--limt'; did you mean --limit?"] });
  });

  it('says "being rebuilt" only for a module of dist/ missing or cut off, not for any error thrown from dist/ code', () => {
    const REBUILDING = 'error: newsstats is being rebuilt (its dist/ folder is incomplete, as during npm install or npm run build); run it again in a moment';
    const withStack = (error: Error, stack: string) => Object.assign(error, { stack });
    // A chunk cut off mid-write: Node heads the stack with the file's place; the frames are its loader's.
    const cut = withStack(new SyntaxError('Unexpected end of input'), '/opt/newsstats/dist/chunks/chunk-AB12.js:40\n  const x = {\n\nSyntaxError: Unexpected end of input\n    at wrapSafe (node:internal/modules/cjs/loader:1486:18)\n    at Module._compile (node:internal/modules/cjs/loader:1528:20)');
    // The same through bin/code-cache.cjs, which compiles dist/ with vm.Script.
    const cutCached = withStack(new SyntaxError("Unexpected token ')'"), "/opt/newsstats/dist/chunks/json-4C7Y.js:72\n})\n ^\n\nSyntaxError: Unexpected token ')'\n    at new Script (node:vm:117:7)\n    at load (/opt/newsstats/bin/code-cache.cjs:221:20)");
    const missing = Object.assign(new Error("Cannot find module '/opt/newsstats/dist/chunks/json-XY.js'"), { code: 'MODULE_NOT_FOUND' });
    for (const error of [cut, cutCached, missing]) expect(describeFailure(error, false).lines, error.message).toEqual([REBUILDING]);
    // A SyntaxError of data (a lake's file read at run time) and an ENOENT of a file outside dist/,
    // each with dist/ frames in its stack, as every error our code throws has.
    const parsed = withStack(new SyntaxError('Unexpected end of JSON input at 9'), 'SyntaxError: Unexpected end of JSON input at 9\n    at parseJsonText (/opt/newsstats/dist/chunks/chunk-KN7C.js:287:11)\n    at storeRow (/opt/newsstats/dist/chunks/sync-HQ77.js:70:5)');
    const gone = withStack(Object.assign(new Error("ENOENT: no such file or directory, open '/lake/x'"), { code: 'ENOENT', path: '/lake/x' }), "Error: ENOENT: no such file or directory, open '/lake/x'\n    at openSync (node:fs:573:18)\n    at LocalLake.scratch (/opt/newsstats/dist/chunks/destinations-ES.js:380:9)");
    for (const error of [parsed, gone]) expect(describeFailure(error, false).lines, error.message).not.toContain(REBUILDING);
  });

  it('a bug shows its stack only under --verbose', () => {
    const bug = new Error('boom');
    expect(describeFailure(bug, false).lines).toEqual(['error: boom']);
    const verbose = describeFailure(bug, true).lines;
    expect(verbose[0]).toBe('error: boom');
    expect(verbose[1]).toContain('at ');
  });

  it('every code it returns is documented in `help exit-codes`', () => {
    const documented = new Set(EXIT_CODE_MEANINGS.map(([code]) => code));
    for (const [, error] of TABLE) expect(documented).toContain(describeFailure(error, false).exitCode);
  });
});
