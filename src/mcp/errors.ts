/**
 * Every failure of a tool call as an MCP tool error (`isError: true`): one text that says what went
 * wrong and what to change, for the model to act on. The server never crashes on a call, and no
 * message carries the API key (each passes through the key's mask before it leaves).
 */
import {
  AbortError, ApiError, AuthenticationError, BadRequestError, ConfigurationError, ConnectionError, ForbiddenError,
  InvalidParameterError, NotFoundError, RateLimitError, ResponseShapeError, ServerError,
} from '../api/errors.js';
import { WeekError } from '../shared/weeks.js';

/** An argument the model can fix: the message names the argument and what it takes. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

export interface ToolErrorResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError: true;
}

/** Where a model finds the identifier it got wrong, by what was not found (NotFoundError's description). */
const NOT_FOUND_HINTS: Readonly<Record<string, string>> = {
  person: 'Find the personHash with search_people (by name).',
  source: 'Find the sourceId with list_sources.',
  country: 'Find the country with list_countries (an ISO code or English name works too).',
  post: 'Find the slug with recent_posts.',
};

/** What to tell the model: what failed, then what to change (or that a person must act). */
export function describeToolError(error: unknown): string {
  if (error instanceof ToolInputError) return `Invalid argument: ${error.message}`;
  if (error instanceof WeekError) return `Invalid weeks: ${error.message}.`;
  if (error instanceof InvalidParameterError) return `Invalid argument: ${error.message}`;
  if (error instanceof NotFoundError) return `${error.message}. ${NOT_FOUND_HINTS[error.description?.split(' ')[0] ?? ''] ?? 'Check the identifier.'}`;
  if (error instanceof BadRequestError) return `The service refused the question: ${error.message}. Change the arguments (a week range the service covers, fewer filters) and try again.`;
  if (error instanceof AuthenticationError || error instanceof ForbiddenError) {
    return `The service refused the API key (${error.message}). A person must fix the server's configuration (NEWSSTATS_API_KEY, or \`newsstats auth login\`); retrying will not help.`;
  }
  if (error instanceof ConfigurationError) return `The server is not configured: ${error.message}. A person must set it (docs/mcp.md, "Configuration"); retrying will not help.`;
  if (error instanceof RateLimitError) return `${error.message}, after the retries the client makes. Wait a minute before asking again, and ask for less (a smaller limit, fewer weeks).`;
  if (error instanceof ServerError || error instanceof ConnectionError) return `The service failed: ${error.message}, after retries. Try again later.`;
  if (error instanceof ResponseShapeError) return `The service answered outside its contract: ${error.message}. Nothing to change in the question; report it.`;
  if (error instanceof AbortError) return 'The call was cancelled.';
  if (error instanceof ApiError) return `The service failed: ${error.message}.`;
  // The CLI's own errors (a country that matches nothing) carry their hint beside the message.
  const { name, message, hint } = (error ?? {}) as { name?: unknown; message?: unknown; hint?: unknown };
  if (name === 'UsageError' || name === 'MissingKeyError') return `${String(message)}${typeof hint === 'string' ? ` (${hint})` : ''}.`;
  return `Internal error: ${error instanceof Error ? error.message : String(error)}`;
}

export function toolError(error: unknown, redact: (text: string) => string): ToolErrorResult {
  return { content: [{ type: 'text', text: redact(describeToolError(error)) }], isError: true };
}
