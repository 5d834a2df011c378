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

/**
 * A value the service sent that a typed format cannot hold as its column's type: an integer of more
 * than 38 digits for Parquet's DECIMAL(38,0), a timestamp that is no date. The service's doing, so the
 * CLI exits 5 (as for any answer outside the contract), naming the column and, where the writer knows
 * it, the row; `sync` adds the stream and the week.
 */
export class ValueOutOfRangeError extends Error {
  override name = 'ValueOutOfRangeError';

  constructor(
    /** The column (field) that could not hold it. */
    readonly field: string,
    /** What was wrong, without the field's name. */
    readonly reason: string,
    /** The row in the file, from 1, when known. */
    readonly row?: number,
    /** Where the file is, when the writer's caller says (`sync`: the stream and week). */
    readonly where?: string,
  ) {
    super(`${where === undefined ? '' : `${where}: `}${row === undefined ? '' : `row ${row}, `}field "${field}": ${reason}`);
  }

  /** The same error with the row it happened in. */
  atRow(row: number): ValueOutOfRangeError {
    return new ValueOutOfRangeError(this.field, this.reason, row, this.where);
  }

  /** The same error saying where the file is. */
  in(where: string): ValueOutOfRangeError {
    return new ValueOutOfRangeError(this.field, this.reason, this.row, where);
  }
}
