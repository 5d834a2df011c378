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

