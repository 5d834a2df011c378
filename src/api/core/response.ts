/**
 * Response reading: a body's bytes as text (UTF-8, BOM dropped, invalid bytes noticed), as JSON
 * (nesting checked before a recursive parser sees it), and a status that is not a success as the
 * error class it maps to, with the problem details the body held. Pure: the transport hands it bytes,
 * headers and a status, whatever it read them with.
 */
import {
  ApiError,
  type ApiErrorInit,
  type ErrorResponse,
  AuthenticationError,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  RedirectError,
  ResponseFormatError,
  ResponseShapeError,
  ResponseTooLargeError,
  ServerError,
} from '../errors.js';
import { parseAnswerJson, type NumberMode } from '../json.js';
import { NestingDepthError } from '../../shared/exact-json/depth.js';
import { NumberBoundError } from '../../shared/exact-json/slicing.js';
import type { ProblemDetails } from '../types.js';
import { printable } from '../../shared/printable.js';
import { MASK, redactSecret } from '../redact.js';

/** What an error answer carried besides its status: for the error's fields. */
export interface ErrorAnswer {
  status: number;
  method: string;
  url: string;
  attempts: number;
  /** The response headers, names in lower case. */
  headers: Record<string, string>;
  /** The body as text. */
  text: string;
  /** Where a 3xx pointed. */
  location: string | undefined;
  /** The wait the service asked for (retry-after-ms or Retry-After), in milliseconds, as sent. */
  retryAfterMs: number | undefined;
}

/**
 * The error a status that is not a success becomes: its class by status, its problem details and
 * redirect target cleaned of control characters and the key.
 */
export function errorForAnswer(answer: ErrorAnswer, context: { notFound: string | undefined; origin: string; apiKey: string }): ApiError {
  const { status, method, url, attempts, headers } = answer;
  const problem = readProblem(answer.text, context.apiKey);
  const init: ApiErrorInit = {
    status, method, url, attempts,
    ...(problem ? { problem } : {}),
    response: errorResponse(headers, answer.text, answer.retryAfterMs, context.apiKey),
  };
  if (status >= 300 && status <= 399) {
    const location = redirectTarget(answer.location, context.origin, context.apiKey);
    return new RedirectError({ ...init, ...(location === undefined ? {} : { location }) });
  }
  if (status === 400) return new BadRequestError(init);
  if (status === 401) return new AuthenticationError(init);
  if (status === 403) return new ForbiddenError(init);
  if (status === 404) return new NotFoundError(context.notFound === undefined ? init : { ...init, description: context.notFound });
  if (status === 429) return new RateLimitError(init);
  if (status >= 500 && status <= 599) return new ServerError(init);
  return new ApiError(init);
}

/**
 * What an error keeps of an answer. The key is a request header and no honest server sends it back;
 * one that echoes it anyway must not put it in an error, which programs log.
 */
function errorResponse(headers: Readonly<Record<string, string>>, text: string, retryAfterMs: number | undefined, apiKey: string): ErrorResponse {
  const masked: Record<string, string> = {};
  // Header values are Latin-1 (a Response refuses the mask's bullets there): `****` instead.
  for (const name of Object.keys(headers)) masked[name] = redactSecret(headers[name]!, apiKey).replaceAll(MASK, '****');
  return { headers: masked, body: redactSecret(text, apiKey), retryAfterMs };
}

/**
 * Keeps a problem field printable on one line and free of the key, whatever the server echoed:
 * control characters and bidi overrides cannot reach the terminal.
 */
export function cleanProblemText(value: unknown, apiKey: string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = printable(redactSecret(value, apiKey)).replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

function readProblem(text: string, apiKey: string): Partial<ProblemDetails> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const problem: Partial<ProblemDetails> = {};
  const type = cleanProblemText(record.type, apiKey);
  const title = cleanProblemText(record.title, apiKey);
  const traceId = cleanProblemText(record.traceId, apiKey);
  if (type !== undefined) problem.type = type;
  if (title !== undefined) problem.title = title;
  if (traceId !== undefined) problem.traceId = traceId;
  if (typeof record.status === 'number') problem.status = record.status;
  return Object.keys(problem).length > 0 ? problem : undefined;
}

/** Where a redirect points, as a message may show it: resolved, without credentials, query or fragment. */
function redirectTarget(location: string | undefined, origin: string, apiKey: string): string | undefined {
  if (location === undefined || location.trim() === '') return undefined;
  try {
    const url = new URL(location, origin);
    return cleanProblemText(`${url.protocol}//${url.host}${url.pathname}`, apiKey);
  } catch {
    return cleanProblemText(location.split('?')[0], apiKey);
  }
}

/** Nesting deeper than this is no answer of the contract (its deepest is 3); parsing it would risk the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * A successful answer's text as JSON in the given number mode. An empty body or text that is not JSON
 * is a ResponseFormatError, nesting no answer has a ResponseTooLargeError, a number beyond what the
 * mode can hold a ResponseShapeError.
 */
export function parseJsonBody(text: string, mode: NumberMode, at: { status: number; url: string; attempts: number; headers: Record<string, string> }, apiKey: string): unknown {
  // Made only for an error: redacting the key out of every good body cost a bulk sync 3% of its CPU.
  const init = (): ApiErrorInit => ({
    status: at.status, method: 'GET', url: at.url, attempts: at.attempts, response: errorResponse(at.headers, text, undefined, apiKey),
  });
  try {
    if (text.trim() === '') throw new SyntaxError('the body is empty');
    // Parsing is recursive: a hostile body nested a million deep would overflow the stack. The parser
    // refuses it before any recursion (see parseJson's maxDepth).
    return parseAnswerJson(text, mode, MAX_JSON_DEPTH);
  } catch (error) {
    if (error instanceof NestingDepthError) throw new ResponseTooLargeError(init(), `is nested deeper than ${MAX_JSON_DEPTH} levels, which no answer of the API is`);
    if (error instanceof NumberBoundError) throw new ResponseShapeError(init(), error.message);
    if (!(error instanceof SyntaxError)) throw error;
    throw new ResponseFormatError({ ...init(), cause: error }, error.message.replace(/\s+/g, ' ').slice(0, 200));
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/**
 * A body as text. A UTF-8 byte order mark at the start is dropped (JSON parsers may ignore one, and
 * some servers on Windows send it; TextDecoder drops it by default). Bytes that are not UTF-8 still
 * become U+FFFD, but `invalidUtf8` says so, so the caller can tell the user instead of passing on
 * altered text in silence. TextDecoder rather than Buffer: the same code runs on every runtime.
 */
export function decodeBody(body: Uint8Array): { text: string; invalidUtf8: boolean } {
  try {
    return { text: strictUtf8.decode(body), invalidUtf8: false };
  } catch {
    return { text: lenientUtf8.decode(body), invalidUtf8: true };
  }
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${bytes} bytes`;
}

/** The request id of an answer, from the headers services commonly send it in. */
export function requestIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  return headers['x-request-id'] ?? headers['request-id'];
}
