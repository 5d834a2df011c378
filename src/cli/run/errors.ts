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
