/**
 * `newsstats mcp`: an MCP server over stdio on the official TypeScript SDK, speaking its latest
 * protocol revision. The tools (tools/), resources and prompt are registered here from their tables;
 * each call gets the request's AbortSignal and, when the client sent a progressToken, progress
 * notifications; every failure becomes a tool error (errors.ts) with the key masked.
 *
 * Only this command loads the SDK and zod (src/cli/commands/mcp.ts imports this module on its run):
 * docs/mcp.md gives what they cost.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpDependencies, ToolCall } from './context.js';
import { toolError } from './errors.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import type { AnyTool } from './tool.js';
import { TOOLS } from './tools/index.js';

export type { McpDependencies, MoverRecord, MoversJoin } from './context.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const INSTRUCTIONS = `Statistics of people mentioned in news articles (the News-Mention Statistics Data API), read-only.
Start with search_people to find a person's personHash from a name, and week_info to turn dates into ISO weeks (YYYYWW).
Windows take week specs: last4, lastN, current, 202647 or 202645..202648; the current week is partial (still being counted).
Identifiers (articleHash, sourceId, countryId, fromCountryId, postId) are strings of digits: pass them back as they are.
Long lists come a page at a time: pass nextCursor back as cursor.`;

/** The server with every tool, resource and prompt registered, not yet connected. */
export function createMcpServer(deps: McpDependencies): McpServer {
  const server = new McpServer(
    { name: 'newsstats', title: 'News-Mention Statistics', version: deps.version },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS },
  );
  for (const spec of TOOLS) registerTool(server, spec, deps);
  registerResources(server, deps);
  registerPrompts(server);
  return server;
}

function registerTool(server: McpServer, spec: AnyTool, deps: McpDependencies): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      outputSchema: spec.output,
      // Every tool only reads, asks the same question twice with the same answer, and reaches the service.
      annotations: { title: spec.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (args: unknown, extra: Extra): Promise<CallToolResult> => {
      try {
        const { structured, text } = await spec.run(args, deps, toolCall(extra));
        return { content: [{ type: 'text', text: deps.redact(text) }], structuredContent: masked(structured, (message) => deps.redact(message)) };
      } catch (error) {
        return toolError(error, (message) => deps.redact(deps.keepContext(message)));
      }
    },
  );
}

/**
 * The structured content with the key masked in every string, should the service have echoed it in
 * data: walked only when its text holds the key (the common case costs one stringify).
 */
function masked(structured: Record<string, unknown>, redact: (text: string) => string): Record<string, unknown> {
  const json = JSON.stringify(structured);
  if (redact(json) === json) return structured;
  const mask = (value: unknown): unknown =>
    typeof value === 'string' ? redact(value)
      : Array.isArray(value) ? value.map(mask)
        : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), mask(item)])) : value;
  return mask(structured) as Record<string, unknown>;
}

/** The call's cancellation, for every request it makes, and its progress, when the client asked for it. */
function toolCall(extra: Extra): ToolCall {
  const token = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    options: { signal: extra.signal },
    async progress(done, total, message) {
      if (token === undefined || extra.signal.aborted) return;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, total, ...(message !== undefined && { message }) } });
    },
  };
}

/**
 * Counts the requests read and not yet answered on `transport` (wrapping the handlers the server
 * installed on connect); the function returned resolves once none is left.
 */
function trackRequests(transport: Transport): () => Promise<void> {
  const pending = new Set<string | number>();
  let drained: (() => void) | undefined;
  const onmessage = transport.onmessage?.bind(transport);
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) pending.add(message.id);
    onmessage?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    if (('result' in message || 'error' in message) && message.id !== undefined && pending.delete(message.id) && pending.size === 0) drained?.();
  };
  return () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (drained = resolve)));
}

export interface StdioStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

/**
 * Serves MCP on the streams until the client closes its end (stdin ends: the calls in flight are
 * answered first) or `stop` is aborted (they are cancelled).
 * Only protocol messages are written to stdout.
 */
export async function serveMcp(deps: McpDependencies, streams: StdioStreams, stop?: AbortSignal): Promise<void> {
  const server = createMcpServer(deps);
  const transport = new StdioServerTransport(streams.stdin as never, streams.stdout as never);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  const unanswered = trackRequests(transport);
  const close = () => void server.close();
  // The client closed its end: answer what it already asked, then stop. A signal stops at once.
  const finish = () => void unanswered().then(close);
  streams.stdin.once('end', finish);
  stop?.addEventListener('abort', close, { once: true });
  if (stop?.aborted) close();
  await closed;
  streams.stdin.off('end', finish);
}
