/** Errors the CLI raises itself, before or around requests. Their exit codes live in exit-codes.ts. */

/** Bad flags, arguments or settings: caught before any request. Exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** No API key anywhere in the resolution order. Exit 3, like a rejected key. */
export class MissingKeyError extends Error {
  override name = 'MissingKeyError';
}

/** The service rejected a key (401) where the usual "run auth login" hint would mislead. Exit 3. */
export class KeyRejectedError extends Error {
  override name = 'KeyRejectedError';
  constructor(message: string, readonly hint: string) {
    super(message);
  }
}

/**
 * A 404, or a 200 without the contract's shape, from a host that never answered as the API does: the
 * base URL points at something else (a web server, a proxy's page). Exit 5, with the fix (#31).
 */
export class NotTheApiError extends Error {
  override name = 'NotTheApiError';
  constructor(readonly baseUrl: string, override readonly cause: Error & { method: string; url: string; status: number }) {
    // A 404's own message names a person, not the request; an answer that is not JSON says what it was.
    const what = cause.status === 404 ? `${cause.method} ${cause.url} answered 404` : cause.message;
    super(`this doesn't look like the News-Mention Statistics API at ${baseUrl}: ${what}, and its week info (/api/data/weeks/current) is not the API's either`);
  }
}

/** Ctrl-C. Exit 130. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
  constructor() {
    super('interrupted');
  }
}

/**
 * A sync or tap that went on past failed partitions: what landed stays landed and is recorded, and a
 * rerun fetches only what is missing. Exit 7.
 */
export class IncompleteRunError extends Error {
  override name = 'IncompleteRunError';
}
