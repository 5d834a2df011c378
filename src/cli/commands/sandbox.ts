import { Option } from 'commander';
import { UsageError } from '../errors.js';
import { verb, type NounSpec } from '../spec.js';

type SandboxFlags = import('../../sandbox/serve.js').SandboxFlags;

const serve = verb<SandboxFlags>({
  name: '',
  summary: 'Serve the whole API contract on loopback from deterministic synthetic data (docs/sandbox.md)',
  options: () => [
    new Option('--host <address>', 'interface to listen on').default('127.0.0.1'),
    new Option('--port <port>', 'port; 0 picks a free one').default('8787'),
    new Option('--key <key>', 'the API key clients must send').default('sandbox'),
    new Option('--seed <n>', 'seed of the data and the faults').default('1'),
    new Option('--now <YYYY-MM-DD>', 'the date that decides the current week (default: today, UTC)'),
    new Option('--fail-rate <share>', 'share of requests, 0-1, answered 500/503 or dropped'),
    new Option('--latency <ms>', 'mean added latency per request, with jitter'),
    new Option('--rate-limit <n>', 'answer 429 with Retry-After above N requests a second'),
    new Option('--log <file>', 'append each request as a JSON line (never the key)'),
  ],
  examples: [
    'sandbox --port 0',
    'sandbox --port 8787 --now 2026-11-22 --fail-rate 0.2 --latency 50',
    'NEWSSTATS_BASE_URL=$(newsstats sandbox --port 0 &) ...   # the URL is the only line on stdout',
  ],
  handlesSignals: true,
  async run(ctx, _args, flags) {
    const [{ serveSandbox, sandboxOptionsFromFlags }, { SandboxOptionError }] = await Promise.all([
      import('../../sandbox/serve.js'),
      import('../../sandbox/server.js'),
    ]);
    try {
      await serveSandbox(sandboxOptionsFromFlags(flags), ctx.io);
    } catch (error) {
      if (error instanceof SandboxOptionError) throw new UsageError(error.message);
      throw error;
    }
  },
});

const sandbox: NounSpec = { name: 'sandbox', summary: 'Serve the built-in synthetic API on loopback', verbs: [serve] };

export default sandbox;
