/**
 * `newsstats mcp`: the statistics as MCP tools for AI assistants, over stdio (src/mcp/, docs/mcp.md).
 * The server is handed what it needs from this run (the client of the profile, key, base URL or
 * --sandbox, the country matching and its cache, the movers join), so src/mcp/ never imports the CLI.
 */
import { verb, type NounVerbs } from '../run/spec.js';

const serve = verb({
  name: '',
  summary: 'Serve the statistics as tools for AI assistants over MCP (stdio), read-only',
  // An MCP client starts it (Claude Desktop, Claude Code, VS Code: docs/mcp.md); it ends when stdin does.
  examples: ['mcp', '--sandbox mcp', '--profile staging mcp'],
  // stdout carries the protocol's messages only: -o, -f and --fields are refused.
  prints: 'text',
  // The server ends when the client closes stdin; a signal closes it the same way.
  handlesSignals: true,
  async run(ctx) {
    // Loaded only here: no other command pays for the SDK and zod.
    const [{ serveMcp }, { countryFlagId }, { VERSION }, { withContext }] = await Promise.all([
      import('../../mcp/server.js'), import('../flags/country-flag.js'), import('../../shared/version.js'), import('../help/context-hints.js'),
    ]);
    // The flags that chose this server's profile and service, for the commands its messages suggest.
    const { profile, baseUrl, sandbox } = ctx.globals;
    const contextWords = [...(profile === undefined ? [] : ['--profile', profile]), ...(baseUrl === undefined ? [] : ['--base-url', baseUrl]), ...(sandbox ? ['--sandbox'] : [])];
    // A missing key or base URL is said now, on stderr with the exit code, not on the first call.
    if (!ctx.globals.sandbox) await ctx.deps.connection();
    // A person who typed it at a terminal is told what it waits for, on stderr (stdout is the protocol's).
    if (ctx.io.isTTY.stdin) ctx.report.note('newsstats mcp: serving MCP on stdin and stdout, for an MCP client to start (docs/mcp.md); Ctrl-C stops it.');
    const stop = new AbortController();
    const proc = ctx.io.process;
    const onSignal = () => stop.abort();
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) proc?.once(signal, onSignal);
    try {
      await serveMcp({
        client: () => ctx.deps.client(),
        countryId: async (text) => (await countryFlagId(text, ctx.deps))!,
        movers: () => import('./people/rank-changes.js'),
        redact: (text) => ctx.report.redact(text),
        keepContext: (message) => withContext(message, contextWords),
        version: VERSION,
      }, { stdin: ctx.io.stdin, stdout: ctx.io.stdout }, stop.signal);
    } finally {
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) proc?.off(signal, onSignal);
    }
  },
});

const mcp: NounVerbs = { verbs: [serve] };

export default mcp;
