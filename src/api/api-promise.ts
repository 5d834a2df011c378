/**
 * What every method of the client returns: a promise of the parsed answer that can also give the
 * response it came in (`.withResponse()`), as the Stainless SDKs (openai-node) do.
 */

/** The HTTP response a result came in. */
export interface ResponseInfo {
  status: number;
  /** Response headers, names in lower case; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  /** The service's id of the request (X-Request-Id, or Request-Id), when it sent one. */
  requestId: string | undefined;
  /** Path and query as sent. */
  url: string;
  /** Attempts the call took, retries included. */
  attempts: number;
  /** The body's size in bytes, as received. */
  bytes: number;
}

export interface WithResponse<T> {
  data: T;
  response: ResponseInfo;
}

/** The request id of a response, from the headers services commonly send it in. */
export function requestIdOf(headers: Readonly<Record<string, string>>): string | undefined {
  return headers['x-request-id'] ?? headers['request-id'];
}

/**
 * A Promise of the data (`instanceof Promise` holds); `withResponse()` gives the data with its
 * response. Awaited, caught, or passed where a Promise is wanted, it behaves as the Promise of the data
 * it is. As in the Stainless SDKs, the Promise it extends is a placeholder: then() is the data's.
 */
export class APIPromise<T> extends Promise<T> {
  readonly #responsePromise: Promise<WithResponse<T>>;
  #dataPromise: Promise<T> | undefined;

  constructor(responsePromise: Promise<WithResponse<T>>) {
    super((resolve) => resolve(undefined as T));
    this.#responsePromise = responsePromise;
  }

  /** then(), catch() and finally() give plain Promises, not APIPromises (which need a response). */
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }

  /** The data together with the response's status, headers, request id and attempts. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#responsePromise;
  }

  override readonly [Symbol.toStringTag] = 'APIPromise';

  override then<Fulfilled = T, Rejected = never>(
    onfulfilled?: ((value: T) => Fulfilled | PromiseLike<Fulfilled>) | null,
    onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null,
  ): Promise<Fulfilled | Rejected> {
    return this.#data().then(onfulfilled, onrejected);
  }

  override catch<Rejected = never>(onrejected?: ((reason: unknown) => Rejected | PromiseLike<Rejected>) | null): Promise<T | Rejected> {
    return this.#data().catch(onrejected);
  }

  override finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#data().finally(onfinally);
  }

  #data(): Promise<T> {
    this.#dataPromise ??= this.#responsePromise.then((result) => result.data);
    return this.#dataPromise;
  }
}
