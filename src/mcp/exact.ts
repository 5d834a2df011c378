/**
 * Answers as an MCP client receives them. The server reads the service in the library's lossless
 * mode (every number a LosslessNumber holding the digits sent) and turns each answer into plain JSON
 * here, once:
 *
 * - identifiers (articleHash, sourceId, countryId, fromCountryId, postId, wherever they sit) become
 *   strings of their digits: JSON-RPC clients parse numbers as doubles, and an articleHash beyond
 *   2^53 would lose its last digits in every one of them (docs/mcp.md, "Exact numbers");
 * - every other number becomes a JSON number, the nearest double to what was sent (the same for any
 *   count or metric the contract can hold: its decimals have at most a few digits);
 * - text renderings write the digits as sent (`digits()`), never a double's printing.
 */
import { isLosslessNumber } from 'lossless-json';

/** The identifier fields of the contract (docs/types.md): strings of digits in every MCP result. */
export const IDENTIFIER_FIELDS: ReadonlySet<string> = new Set(['articleHash', 'sourceId', 'countryId', 'fromCountryId', 'postId']);

export type McpJson = string | number | boolean | null | McpJson[] | { [key: string]: McpJson };

/** `value` (a lossless answer, or values computed from one) as MCP structured content. */
export function toMcpJson(value: unknown, key?: string): McpJson {
  if (value === null || value === undefined) return null;
  if (isLosslessNumber(value) || typeof value === 'bigint') {
    const text = value.toString();
    return key !== undefined && IDENTIFIER_FIELDS.has(key) ? text : Number(text);
  }
  if (typeof value === 'number') return key !== undefined && IDENTIFIER_FIELDS.has(key) ? String(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map((item) => toMcpJson(item, key));
  if (typeof value === 'object') {
    const record: { [field: string]: McpJson } = {};
    for (const [field, item] of Object.entries(value)) {
      // Absent stays absent; a null sent stays null.
      if (item !== undefined) record[field] = toMcpJson(item, field);
    }
    return record;
  }
  return null;
}

/** A record of an answer as structured content (an object in, an object out). */
export function toMcpRecord(value: unknown): { [field: string]: McpJson } {
  const converted = toMcpJson(value);
  return converted !== null && typeof converted === 'object' && !Array.isArray(converted) ? converted : {};
}

/** A number's digits as the service sent them, for text; `–` when it sent none. */
export function digits(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (isLosslessNumber(value) || typeof value === 'bigint' || typeof value === 'number') return value.toString();
  if (typeof value === 'string') return value === '' ? '–' : value;
  return JSON.stringify(value);
}

/** A numeric answer field as a double, for sorting and sums; undefined when it is no number. */
export function numeric(value: unknown): number | undefined {
  if (value === null || value === undefined) return undefined;
  const number = Number(isLosslessNumber(value) ? value.toString() : value);
  return Number.isFinite(number) ? number : undefined;
}
