import { ConnectionError, NotFoundError, RateLimitError, ResponseFormatError, ResponseShapeError, ResponseTooLargeError, ServerError } from '../api/errors.js';

/**
 * A row the service sent that breaks the contract in a way the lake must not keep: an identifier that
 * is not valid text (invalid UTF-8 arrives as U+FFFD, which would then be requested and recorded as if
 * it named someone). The partition fails (exit 7) and is fetched again next run; nothing is recorded.
 */
export class ContractViolationError extends Error {
  override name = 'ContractViolationError';
}

/**
 * Failures of one partition that leave the others worth fetching: the service failing or refusing for
 * a while, a person gone between the ranking and their own request, a row breaking the contract.
 * Anything else (a rejected key, a bad query, a disk that cannot be written) ends the run.
 */
export function isPartitionFailure(error: unknown): boolean {
  return [ServerError, RateLimitError, ConnectionError, NotFoundError, ResponseShapeError, ResponseFormatError, ResponseTooLargeError, ContractViolationError].some((kind) => error instanceof kind);
}
