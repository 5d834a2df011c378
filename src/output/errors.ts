/** Output errors that are the user's to fix: the CLI maps them to exit code 2 (usage). */
export class OutputUsageError extends Error {
  override name = 'OutputUsageError';
}

/** --fields named a field the view does not have. */
export class FieldError extends OutputUsageError {
  override name = 'FieldError';

  constructor(
    message: string,
    /** The requested names that are not fields. */
    readonly unknownFields: readonly string[],
    /** Every field the user could have asked for, in contract order. */
    readonly validFields: readonly string[],
  ) {
    super(message);
  }
}

/** --jq's expression did not compile, or failed on the data (jq's own message, its position named). */
export class JqExpressionError extends OutputUsageError {
  override name = 'JqExpressionError';
}
