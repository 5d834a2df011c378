import { EventEmitter } from 'node:events';
import { Option } from 'commander';
import { UsageError } from '../errors.js';
import { parseDate, parseDecimal, parseInteger } from '../options.js';
import { verb, type NounSpec } from '../spec.js';

type SandboxOptions = import('../../sandbox/server.js').SandboxOptions;

type SandboxFlags = Omit<SandboxOptions, 'latencyMs' | 'logFile' | 'model'> & { latency?: number; log?: string };

/**
 * Flags are parsed into numbers and a date here, like every flag of the CLI; whether a value is in
 * range (a port, a share from 0 to 1) is the sandbox's own rule, checked by startSandbox itself.
 */
const serve = verb<SandboxFlags>({
  name: '',
  summary: 'Serve the whole API contract on loopback from deterministic synthetic data (docs/sandbox.md)',
  options: () => [
    new Option('--host <address>', 'interface to listen on').default('127.0.0.1'),
    new Option('--port <port>', 'port; 0 picks a free one').argParser((text: string) => parseInteger('--port', text)).default(8787),
    new Option('--key <key>', 'the API key clients must send').default('sandbox'),
    new Option('--seed <n>', 'seed of the data and the faults').argParser((text: string) => parseInteger('--seed', text)).default(1),
    new Option('--now <YYYY-MM-DD>', 'the date that decides the current week (default: today, UTC)').argParser((text: string) => parseDate('--now', text)),
    new Option('--fail-rate <share>', 'share of requests, 0-1, answered 500/503 or dropped').argParser((text: string) => parseDecimal('--fail-rate', text)),
    new Option('--latency <ms>', 'mean added latency per request, with jitter').argParser((text: string) => parseDecimal('--latency', text)),
    new Option('--rate-limit <n>', 'answer 429 with Retry-After above N requests a second').argParser((text: string) => parseInteger('--rate-limit', text)),
    new Option('--log <file>', 'append each request as a JSON line (never the key)'),
  ],
  examples: [
    'sandbox --port 0',
    'sandbox --port 8787 --now 2026-11-22 --fail-rate 0.2 --latency 50',
    'NEWSSTATS_BASE_URL=$(newsstats sandbox --port 0 &) ...   # the URL is the only line on stdout',
  ],
  handlesSignals: true,
  async run(ctx, _args, flags) {
    const [{ serveSandbox }, { SandboxOptionError }] = await Promise.all([
      import('../../sandbox/serve.js'),
      import('../../sandbox/server.js'),
    ]);
    const { latency, log, ...options } = flags;
    // In-process (tests) there are no signals: only a bad flag ends the run there.
    const signals = ctx.io.process ?? new EventEmitter();
    try {
      await serveSandbox({ ...options, latencyMs: latency, logFile: log }, ctx.io, signals);
    } catch (error) {
      if (error instanceof SandboxOptionError) throw new UsageError(error.message);
      throw error;
    }
  },
});

const sandbox: NounSpec = { name: 'sandbox', summary: 'Serve the built-in synthetic API on loopback', verbs: [serve] };

export default sandbox;
