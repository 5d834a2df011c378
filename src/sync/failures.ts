import { ConnectionError, NotFoundError, RateLimitError, ResponseFormatError, ResponseShapeError, ResponseTooLargeError, ServerError } from '../api/errors.js';

/**
 * Failures of one partition that leave the others worth fetching: the service failing or refusing for
 * a while, a person gone between the ranking and their own request. Anything else (a rejected key, a
 * bad query, a disk that cannot be written) ends the run.
 */
export function isPartitionFailure(error: unknown): boolean {
  return [ServerError, RateLimitError, ConnectionError, NotFoundError, ResponseShapeError, ResponseFormatError, ResponseTooLargeError].some((kind) => error instanceof kind);
}
