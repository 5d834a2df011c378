#!/usr/bin/env node
// Prints a real exchange with `newsstats --sandbox mcp` as Markdown, for docs/mcp.md: the built CLI in
// a child process, fed JSON-RPC lines on stdin, its stdout lines shown as they came (long answers
// shortened only where this script says so). Run after the build: node scripts/mcp-transcript.mjs
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'newsstats.cjs');
const requests = [
  { id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'transcript', version: '1.0.0' } } },
  { method: 'notifications/initialized' },
  { id: 2, method: 'tools/call', params: { name: 'week_info', arguments: {} } },
  { id: 3, method: 'tools/call', params: { name: 'search_people', arguments: { query: 'okafor', limit: 2 } } },
  { id: 4, method: 'tools/call', params: { name: 'rank_people', arguments: { weeks: 'last4', country: 'DE', limit: 3 } } },
  { id: 5, method: 'tools/call', params: { name: 'person_articles', arguments: { personHash: 'nobody-0000' } } },
  { id: 6, method: 'tools/call', params: { name: 'rank_people', arguments: { weeks: 'last month' } } },
];
const input = requests.map((request) => JSON.stringify({ jsonrpc: '2.0', ...request })).join('\n') + '\n';
const run = spawnSync(process.execPath, [bin, '--sandbox', 'mcp'], { input, encoding: 'utf8', env: { ...process.env, NEWSSTATS_API_KEY: '' } });
if (run.status !== 0) throw new Error(`exit ${run.status}: ${run.stderr}`);
const answers = new Map(run.stdout.trimEnd().split('\n').map((line) => JSON.parse(line)).map((answer) => [answer.id, answer]));

/** Long lists in structured content cut to `keep` items, saying how many were left out. */
function shorten(value, keep = 1) {
  if (Array.isArray(value)) return value.length > keep ? [...value.slice(0, keep).map((item) => shorten(item, keep)), `… ${value.length - keep} more, as above`] : value.map((item) => shorten(item, keep));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item, key === 'snippets' ? 1 : keep)]));
  return value;
}

const out = [`stderr: ${run.stderr.trim()}`, ''];
for (const request of requests) {
  out.push('```text', `→ ${JSON.stringify({ jsonrpc: '2.0', ...request })}`);
  const answer = answers.get(request.id);
  if (answer) {
    if (request.method === 'initialize') out.push(`← ${JSON.stringify({ ...answer, result: { ...answer.result, instructions: '…' } })}`);
    else {
      const { content, structuredContent, isError } = answer.result;
      out.push(`← text: ${JSON.stringify(content[0].text).slice(1, -1).replaceAll('\\n', '\n         ').replaceAll('\\"', '"')}`);
      if (isError) out.push('← isError: true');
      if (structuredContent) out.push(`← structuredContent: ${JSON.stringify(shorten(structuredContent))}`);
    }
  }
  out.push('```');
}
console.log(out.join('\n'));
