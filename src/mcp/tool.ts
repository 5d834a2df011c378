/**
 * A tool as the server registers it: its name, what a model is told about it, its input and output
 * schemas (zod shapes, listed as JSON Schema), and run(), which returns the structured content and
 * the short text a model reads. Tools never format errors: the server turns any throw into a tool
 * error (errors.ts).
 */
import type * as z from 'zod';
import type { McpDependencies, ToolCall } from './context.js';
import { ToolInputError } from './errors.js';

export interface ToolResult<Out> {
  structured: Out;
  text: string;
}

export interface ToolSpec<In extends z.ZodRawShape, Out extends z.ZodRawShape> {
  name: string;
  title: string;
  /** For a model: when to use the tool, what the numbers mean, how to get more. */
  description: string;
  input: In;
  output: Out;
  run(args: z.infer<z.ZodObject<In>>, deps: McpDependencies, call: ToolCall): Promise<ToolResult<z.infer<z.ZodObject<Out>>>>;
}

/** A tool with its types erased, as the server's table holds them. */
export interface AnyTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodRawShape;
  output: z.ZodRawShape;
  run(args: unknown, deps: McpDependencies, call: ToolCall): Promise<ToolResult<Record<string, unknown>>>;
}

/** Declares a tool: the types of run()'s arguments and result follow from the schemas. */
export function tool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(spec: ToolSpec<In, Out>): AnyTool {
  // The SDK validates the arguments against `input` before run() and the result against `output` after.
  return spec;
}

/** Where a page starts: the cursor a previous page gave (an offset), or the beginning. */
export function pageStart(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  if (!/^\d{1,6}$/.test(cursor)) throw new ToolInputError(`cursor "${cursor}" is not one this server gave; pass nextCursor from the previous result, or leave it out to start at the beginning`);
  return Number(cursor);
}

/** One page of `items` from `start`, and the cursor of the next when there is more. */
export function page<Item>(items: readonly Item[], start: number, limit: number, more = false): { items: Item[]; nextCursor?: string } {
  const slice = items.slice(start, start + limit);
  const hasMore = start + limit < items.length || more;
  return hasMore && slice.length > 0 ? { items: slice, nextCursor: String(start + limit) } : { items: slice };
}

/**
 * One page of a list the service gives newest first and keeps only the latest `max` of (articles, a
 * person's links): asked for up to the page's end, never past `max`. A cursor at or past `max` is
 * refused, saying what the service keeps (`kept`).
 */
export async function pageOfLatest<Item>(
  cursor: string | undefined,
  limit: number,
  max: number,
  kept: string,
  fetch: (upTo: number) => Promise<readonly Item[]>,
): Promise<{ start: number; items: Item[]; nextCursor?: string }> {
  const start = pageStart(cursor);
  if (start >= max) throw new ToolInputError(`the service keeps ${kept}; cursor ${start} is past them`);
  const latest = await fetch(Math.min(start + limit, max));
  return { start, ...page(latest, start, limit, latest.length >= start + limit && start + limit < max) };
}
