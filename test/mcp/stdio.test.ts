/**
 * `newsstats --sandbox mcp` read byte for byte, as a client reads its stdout: the built CLI in a child
 * process, fed JSON-RPC lines on stdin, with no SDK in between. Protects: --sandbox works for mcp;
 * every line on stdout is a JSON-RPC message (notes go to stderr); progress notifications come in
 * order, before the result they belong to; the server answers what was asked before stdin ended and
 * then exits 0.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../e2e/harness.js';

const lines = (...messages: object[]) => messages.map((message) => JSON.stringify({ jsonrpc: '2.0', ...message })).join('\n') + '\n';

describe('newsstats --sandbox mcp on a pipe', () => {
  it('writes protocol messages only, progress before its result, and ends when stdin does', async () => {
    const input = lines(
      { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { method: 'notifications/initialized' },
      { id: 2, method: 'tools/call', params: { name: 'person_trend', arguments: { personHashes: ['rhys-thistlewood-73da'], weeks: 'last5' }, _meta: { progressToken: 'trend' } } },
      { id: 3, method: 'tools/call', params: { name: 'rank_people', arguments: { weeks: 'last4', limit: 'many' } } },
    );
    const result = await spawnCli(['--sandbox', 'mcp'], { input, timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('using the built-in sandbox');
    const messages = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { jsonrpc: string; id?: number; method?: string; params?: any; result?: any });
    for (const message of messages) expect(message.jsonrpc).toBe('2.0');
    expect(messages[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'newsstats' } } });
    const trendAt = messages.findIndex((message) => message.id === 2);
    const progress = messages.filter((message, index) => message.method === 'notifications/progress' && index < trendAt);
    expect(progress.map((message) => [message.params.progressToken, message.params.progress, message.params.total])).toEqual([1, 2, 3, 4, 5].map((done) => ['trend', done, 5]));
    expect(messages[trendAt]!.result.structuredContent.rows).toHaveLength(5);
    const bad = messages.find((message) => message.id === 3)!;
    expect(bad.result.isError).toBe(true);
    expect(bad.result.content[0].text).toMatch(/limit/);
  });
});
