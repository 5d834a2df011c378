/**
 * The output format names, apart from the renderers so that option parsing can list them without
 * loading any output code.
 */
export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv' | 'tsv' | 'chart' | 'xlsx' | 'parquet';

export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'json', 'ndjson', 'csv', 'tsv', 'chart', 'xlsx', 'parquet'];

/** Formats written as bytes rather than text: never to a terminal. */
export const BINARY_FORMATS: readonly OutputFormat[] = ['xlsx', 'parquet'];

export function isOutputFormat(text: string): text is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(text);
}

const FORMAT_BY_EXTENSION: Readonly<Record<string, OutputFormat>> = {
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.xlsx': 'xlsx',
  '.parquet': 'parquet',
};

/** The extensions --output recognises, for the error that lists them. */
export function outputExtensions(): string[] {
  return Object.keys(FORMAT_BY_EXTENSION);
}

/** The format a --output path implies by its extension (case-insensitive); undefined if none. */
export function formatFromPath(path: string): OutputFormat | undefined {
  const match = /\.[^./\\]+$/.exec(path);
  return match ? FORMAT_BY_EXTENSION[match[0].toLowerCase()] : undefined;
}
